import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { judgeRun } from '../../src/eval/judging/judge-run.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { planRuns } from '../../src/eval/suite/plan-runs.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { AnswerRequest } from '../../src/llm/answerer.js';
import { scriptedAnswerer } from './eval-fixture.js';
import { scriptedJudge } from './scripted-judge.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * What a careful judge would need to see to grade each leaf 1: evidence in the prompt (the
 * files shown, or what the smoke run printed). The recorded repository standardizes with
 * training statistics, draws rng.beta(alpha, alpha), mixes the targets and keeps the
 * paper's settings; its smoke run prints every method's accuracy but over seeds 0 and 1 only.
 */
const evidence: Record<string, RegExp> = {
  standardize: /mean = X_tr\.mean\(axis=0\)/,
  'beta-coefficient': /rng\.beta\(float\(alpha\), float\(alpha\)\)/,
  'mixed-targets': /y_mix = lam \* y \+ \(1\.0 - lam\) \* y\[perm/,
  hyperparameters: /^(?=[\s\S]*\blr: 0\.001)(?=[\s\S]*\bbatch_size: 32)/,
  'smoke-run': /method=mlp_mixup_a0\.2 accuracy=/,
  'five-seeds': /method=mlp accuracy=\S+ .*seeds=5\b/,
};

/** What a judge request shows: the system prompt (paper and files, for rubric leaves) and the request. */
const shownIn = (request: Pick<AnswerRequest, 'system' | 'messages'>): string =>
  [request.system ?? '', ...request.messages.map((message) => message.content)].join('\n');

function judgeAnswer(request: Pick<AnswerRequest, 'system' | 'messages' | 'label'>): string {
  const prompt = shownIn(request);
  const label = request.label ?? '';
  if (label.startsWith('rubric ')) {
    const leaf = label.slice('rubric '.length);
    const pattern = evidence[leaf];
    const met = pattern?.test(prompt) === true;
    return `\`\`\`json\n{"score": ${met ? 1 : 0}, "reason": "${met ? 'shown' : 'not shown'}: ${leaf}"}\n\`\`\``;
  }
  // 1–5: a 4 when the mixup step is in the files shown, with one critique.
  const score = prompt.includes('def mixup_batch') ? 4 : 2;
  return `\`\`\`json\n{"critiques": [{"file": "train.py", "function": "train_mlp", "severity": "low", "critique": "no early stopping option"}], "score": ${score}}\n\`\`\``;
}

describe('the example suite (examples/eval/ci-suite.yaml)', () => {
  it('replays the recorded sessions and reports the expected category, verify outcome, judge score and rubric grades', async () => {
    const recorded = loadSuite(join(root, 'examples/eval/ci-suite.yaml'));
    // the scripted judge, which grades from the evidence in each prompt, instead of the
    // suite's recorded one (test/examples/readme-commands.test.ts replays that)
    const suite = {
      ...recorded,
      judge: {
        enabled: recorded.judge.enabled,
        samples: recorded.judge.samples,
        temperature: recorded.judge.temperature,
        includeDocs: recorded.judge.includeDocs,
      },
    };
    const config = defaultConfig();
    config.roles.judge.models = ['scripted:judge'];
    const evalDir = join(mkdtempSync(join(tmpdir(), 'codify-example-eval-')), 'evaluation');
    const judge = scriptedAnswerer(judgeAnswer);
    const outcome = await runEvaluation({
      suite,
      evalDir,
      parallel: 2,
      baseConfig: config,
      answerers: (spec) => (spec === 'scripted:judge' ? judge : undefined),
    });
    const { summary } = outcome;
    expect(summary.missing).toEqual([]);
    const task = summary.runs.find((run) => run.item === 'yona-digits');
    expect(task?.status).toBe('completed');
    // The example tasks declare no seed yet: their gain is on one seed, flagged and counted B.
    expect(task?.implement).toMatchObject({ category: 'B', starter: 0.9563 });
    // 0.9742 where the session was recorded, 0.9728 on an AMD EPYC: torch's arithmetic
    // differs between CPUs, so the figure is checked to two decimals
    expect(task?.implement?.metric).toBeCloseTo(0.9742, 2);
    expect(task?.implement?.verdict).toMatchObject({ basis: 'seed fixed', fixedSeedGain: true });
    expect(summary.noise['yona-digits']).toMatchObject({ trials: 2, measured: 2, margin: 0 });
    const paper = summary.runs.find((run) => run.item === 'mixup-tabular');
    expect(paper?.paper).toMatchObject({ verify: 'ran as generated', repairLineShare: 0 });
    expect(paper?.judge).toMatchObject({ score: 4, samples: [4, 4] });
    expect(paper?.judge?.critiques).toHaveLength(2);
    expect(
      Object.fromEntries(paper?.rubric?.leaves.map((leaf) => [leaf.id, leaf.score]) ?? []),
    ).toEqual({
      standardize: 1,
      'beta-coefficient': 1,
      'mixed-targets': 1,
      hyperparameters: 1,
      'smoke-run': 1,
      'five-seeds': 0,
    });
    // (3·1 + 1·1 + 1·1 + 1·0) / 6
    expect(paper?.rubric?.score).toBeCloseTo(5 / 6, 10);
    // What the judge was shown: PaperCoder's samples at temperature 1, the whole paper and
    // none of codify's planning documents; the paper in every leaf prompt, the smoke run's
    // output only in the execution and result leaves'.
    const paperText = readFileSync(join(root, 'examples/papers/mixup-tabular/paper.md'), 'utf8');
    const paperEnd = paperText.trim().split('\n').at(-1) ?? '';
    const scores = judge.requests.filter((request) => request.label?.startsWith('judge score'));
    expect(scores).toHaveLength(2);
    const leaves = judge.requests.filter((request) => request.label?.startsWith('rubric '));
    expect(leaves).toHaveLength(6);
    for (const request of [...scores, ...leaves]) {
      const prompt = shownIn(request);
      expect(prompt).toContain(paperEnd);
      expect(prompt).not.toMatch(/^## docs\//m);
      expect(prompt).toMatch(/^## model\.py$/m);
    }
    expect(scores.every((request) => request.temperature === 1)).toBe(true);
    const output = /# What running the repository printed/;
    expect(
      leaves.filter((request) => output.test(shownIn(request))).map((request) => request.label),
    ).toEqual(['rubric smoke-run', 'rubric five-seeds']);
    // They are told the output is the smoke run's, not the full reproduction's.
    for (const request of leaves.filter((leaf) => output.test(shownIn(leaf)))) {
      expect(shownIn(request)).toContain(
        'Only the smoke run ran: `python main.py --config config_smoke.yaml`, the offline check on a tiny stand-in',
      );
    }
    // The same finished run judged again with codify's old settings and an addendum: the
    // planning documents come back, the repository is split into fixed parts, the addendum
    // reaches every leaf.
    const addendum = join(evalDir, 'addendum.md');
    writeFileSync(addendum, 'ADDENDUM: any seed list is fine.\n');
    const planned = planRuns(suite, evalDir).find((run) => run.item.name === 'mixup-tabular');
    if (planned === undefined || planned.item.kind !== 'paper') throw new Error('no paper run');
    const oldJudge = scriptedJudge((request) => judgeAnswer(request));
    const record = await judgeRun({
      planned: {
        ...planned,
        item: { ...planned.item, addendum },
        judgeFile: join(evalDir, 'judge-old', 'mixup.json'),
      },
      judge: oldJudge,
      judgeModel: 'scripted:judge',
      settings: {
        enabled: true,
        samples: 1,
        temperature: 0.2,
        partChars: 8_000,
        includeDocs: true,
      },
      emit: () => undefined,
    });
    expect(record?.error).toBeUndefined();
    expect(record?.score?.parts).toBeGreaterThan(1);
    expect(record?.score?.split).toMatch(/parts of at most 8000 characters/);
    const oldScores = oldJudge.requests.filter((request) =>
      request.label?.startsWith('judge score'),
    );
    expect(
      oldScores.some((request) =>
        /^## docs\/design\.md$/m.test(request.messages[0]?.content ?? ''),
      ),
    ).toBe(true);
    expect(oldScores.every((request) => request.temperature === 0.2)).toBe(true);
    const oldLeaves = oldJudge.requests.filter((request) => request.label?.startsWith('rubric '));
    expect(oldLeaves).toHaveLength(6);
    for (const request of oldLeaves) {
      expect(shownIn(request)).toContain('ADDENDUM: any seed list is fine.');
      // Planning documents are never code, whatever the 1–5 score's settings.
      expect(shownIn(request)).not.toMatch(/^## docs\//m);
    }
    const markdown = readFileSync(outcome.reports.markdown, 'utf8');
    expect(markdown).toContain('| five-seeds |');
    expect(markdown).toContain('not shown: five-seeds');
    expect(markdown).toMatch(/\| mixup-tabular \| recorded \| 4 \| – \| 0\.833 \|/);
  }, 180_000);
});
