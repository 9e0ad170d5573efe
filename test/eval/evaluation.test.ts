import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { EvalSummary } from '../../src/eval/collection/collect-evaluation.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { AnswerRequest } from '../../src/llm/answerer.js';
import type { CodifyEvent } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { createRun } from '../../src/runs/run.js';
import { agentAnswer, agentSuite } from './agent-script.js';
import {
  codeAnswer,
  crashing,
  improved,
  makeEvalFolder,
  scriptedAnswerer,
  starter,
} from './eval-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every run folder under an evaluation's combination root. */
function runFolders(evalDir: string, key: string): string[] {
  const root = join(evalDir, 'runs', key);
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

describe('codify eval', () => {
  it('puts four models side by side, each run in its category, and skips finished runs when run again', async () => {
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(
      suiteFile,
      [
        'name: four-models',
        'items:',
        `  - task: ${taskDir}`,
        '    human_minutes: 60',
        'strategies: [single-call]',
        'models:',
        ...['better', 'same', 'crash', 'none'].flatMap((name) => [
          `  - name: ${name}`,
          `    model: scripted:${name}`,
        ]),
        'starter_trials: 2',
        'seeds: 2',
        'python: /usr/bin/python3',
        '',
      ].join('\n'),
    );
    const answers: Record<string, string> = {
      'scripted:better': codeAnswer(improved),
      'scripted:same': codeAnswer(starter),
      'scripted:crash': codeAnswer(crashing),
      'scripted:none': 'I would rather not write code.',
    };
    const events: CodifyEvent[] = [];
    const evalDir = join(base, 'evaluation');
    const options = {
      suite: loadSuite(suiteFile),
      evalDir,
      parallel: 2,
      baseConfig: defaultConfig(),
      answerers: (spec: string) => scriptedAnswerer(() => answers[spec] ?? 'unknown model'),
      host: { sinks: [(event: CodifyEvent) => events.push(event)] },
    };
    const first = await runEvaluation(options);
    expect(first.started).toBe(4);
    const summary = JSON.parse(readFileSync(first.reports.json, 'utf8')) as EvalSummary;
    const categoryOf = Object.fromEntries(
      summary.runs.map((run) => [run.model, run.implement?.category]),
    );
    expect(categoryOf).toEqual({ better: 'A', same: 'B', crash: 'C', none: 'D' });
    expect(summary.noise.toy).toMatchObject({ trials: 2, measured: 2, mean: 0.5, margin: 0 });
    const better = summary.implement.find((group) => group.model === 'better');
    expect(better?.counts).toEqual({ A: 1, B: 0, C: 0, D: 0 });
    expect(better?.metric.mean).toBe(0.9);
    expect(better?.improvement.mean).toBeCloseTo(0.4);
    expect(better?.llmCalls.mean).toBe(1);
    expect(better?.tokens.mean).toBe(110);
    expect(better?.timeSaving).not.toBeNull();
    expect(summary.comparisons.map((row) => row.model)).toEqual([
      'better',
      'same',
      'crash',
      'none',
    ]);
    expect(summary.missing).toEqual([]);
    const markdown = readFileSync(first.reports.markdown, 'utf8');
    expect(markdown).toContain('[1](starter/toy/trial-1) [2](starter/toy/trial-2)');
    for (const run of summary.runs) {
      expect(markdown).toContain(`(${join('runs', run.key)}/`);
    }
    expect(markdown).toMatch(
      /\| toy \| single-call \| better \| 1 \| 1 \(100 %\) \| 0 \(0 %\) \| 0 \(0 %\) \| 0 \(0 %\) \| 0\.9 \|/,
    );
    const html = readFileSync(first.reports.html, 'utf8');
    // Charts drawn by Vega as inline SVG, each run's mark linking to its folder; nothing external.
    expect(html.match(/<svg/g)?.length).toBe(2);
    for (const run of summary.runs) {
      expect(html).toContain(`xlink:href="${join('runs', run.key)}/`);
      expect(html).toContain(`<a href="${join('runs', run.key)}/`);
    }
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(events.filter((event) => event.type === 'eval-run-end')).toHaveLength(4);
    const lastProgress = events.filter((event) => event.type === 'eval-progress').at(-1);
    expect(lastProgress).toMatchObject({ done: 4, running: 0, left: 0, tokens: 440 });

    const again = await runEvaluation({ ...options, host: {} });
    expect(again.started).toBe(0);
    for (const run of summary.runs) expect(runFolders(evalDir, run.key)).toHaveLength(1);
    const log = readEvents(evalDir).events;
    expect(log.filter((event) => event.type === 'run-start').at(-1)).toMatchObject({
      mode: 'eval',
    });
    expect(log.filter((event) => event.type === 'starter-measure')).toHaveLength(2);
  }, 120_000);

  it('resumes an evaluation killed mid-run: finished runs kept, the interrupted one continued, the rest started', async () => {
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(suiteFile, agentSuite(taskDir));
    const evalDir = join(base, 'evaluation');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/eval/eval-child.ts', suiteFile, evalDir],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // A run folder exists a moment before its events.jsonl: only a folder with a log is read.
    const secondStepOne = () =>
      runFolders(evalDir, 'toy/agent/scripted/trial-2').some(
        (dir) =>
          existsSync(join(dir, 'events.jsonl')) &&
          readEvents(dir).events.some((event) => event.type === 'step-end' && event.step === 1),
      );
    for (let waited = 0; !secondStepOne() && waited < 90_000; waited += 50) await sleep(50);
    // Trial 2 now waits for ever on its second step.
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const [firstRun] = runFolders(evalDir, 'toy/agent/scripted/trial-1');
    expect(firstRun !== undefined && existsSync(join(firstRun, 'result.json'))).toBe(true);
    expect(runFolders(evalDir, 'toy/agent/scripted/trial-3')).toEqual([]);

    const requests = new Map<number, AnswerRequest[]>();
    const outcome = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      answerers: (_spec, planned) => {
        const answerer = scriptedAnswerer(agentAnswer);
        requests.set(planned.trial, answerer.requests);
        return answerer;
      },
    });
    expect(outcome.started).toBe(2);
    expect(requests.has(1)).toBe(false);
    // The resumed run asks for step 2 on, never again for its completed step 1.
    expect(requests.get(2)?.map((request) => request.label)).not.toContain('step 1');
    expect(requests.get(2)?.map((request) => request.label)).toContain('step 2');
    expect(requests.get(3)?.map((request) => request.label)).toContain('step 1');
    for (const trial of [1, 2, 3]) {
      const folders = runFolders(evalDir, `toy/agent/scripted/trial-${trial}`);
      expect(folders).toHaveLength(1);
      const starts = readEvents(folders[0] ?? '').events.filter(
        (event) => event.type === 'run-start',
      );
      expect(starts).toHaveLength(trial === 2 ? 2 : 1);
    }
    expect(outcome.summary.missing).toEqual([]);
    expect(outcome.summary.runs.map((run) => run.implement?.category)).toEqual(['B', 'B', 'B']);
  }, 180_000);

  it('starts again a run killed before it saved its settings, keeping the old folder aside', async () => {
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(
      suiteFile,
      `items: [{task: ${taskDir}}]\nstrategies: [single-call]\nmodels: [{name: m, model: scripted:m}]\nstarter_trials: 0\npython: /usr/bin/python3\n`,
    );
    const evalDir = join(base, 'evaluation');
    const key = 'toy/single-call/m/trial-1';
    // What a kill right after the run folder was made leaves: a run-start and nothing else.
    const killed = createRun({
      root: join(evalDir, 'runs', key),
      mode: 'implement',
      name: 'toy',
      now: new Date(Date.now() - 60_000),
    });
    const outcome = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      answerers: () => scriptedAnswerer(() => codeAnswer(improved)),
    });
    expect(outcome.started).toBe(1);
    expect(runFolders(evalDir, key)).toHaveLength(2);
    const [record] = outcome.summary.runs;
    expect(record?.runDir).not.toBe(killed.dir);
    // No seeds asked for: the gain is measured on one seed, flagged, and not called A.
    expect(record?.implement?.category).toBe('B');
    expect(record?.implement?.verdict.fixedSeedGain).toBe(true);
  });
});
