import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExperimentRecord } from '../../src/explore/experiments/run-experiments.js';
import type { PrototypeSummary } from '../../src/explore/grounding/prototype-summary.js';
import { generateIdeas } from '../../src/explore/ideas.js';
import { resumeExplore, runExplore, type ExploreSettings } from '../../src/explore/run-explore.js';
import type { IdeaCard } from '../../src/explore/schemas.js';
import { createScriptedCaller, type ScriptedCaller } from '../../src/llm/scripted-model.js';
import type { RoleName } from '../../src/llm/types.js';
import type { EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { plannerAnswer, scriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';
import { experimentActions as actions } from './experiment-actions.js';

const runnableStep = 'train the prototype with class-aware pairs for 200 epochs';
const impossibleStep = 'repeat the comparison on the ImageNet-LT benchmark';
const impossibleReason = 'the prototype has only the local tabular data and no network';

/** An idea whose plan has one step the prototype can run and one it cannot. */
function groundedCard(title: string): IdeaCard {
  const card = ideaCard(title);
  return {
    ...card,
    experimentPlan: {
      ...card.experimentPlan,
      procedure: [
        { step: runnableStep, runsOnPrototype: true, reason: 'it changes only the training loop' },
        { step: impossibleStep, runsOnPrototype: false, reason: impossibleReason },
      ],
    },
  };
}

function prototypeFolder(root: string): string {
  const codeDir = join(root, 'prototype');
  mkdirSync(codeDir);
  writeFileSync(
    join(codeDir, 'starter_code.py'),
    'import json\nrows = open("rows.csv").read().splitlines()\nprint(f"loaded {len(rows)} rows")\nprint("accuracy: 0.5")\n',
  );
  writeFileSync(join(codeDir, 'rows.csv'), 'a,b\n1,2\n3,4\n');
  return codeDir;
}

function settingsFor(root: string): ExploreSettings {
  return {
    paperPaths: [mixupPaper],
    ideas: 1,
    reviewers: 1,
    refineRounds: 1,
    budgetMinutes: 5,
    gpu: false,
    paperMaxChars: 60_000,
    experiments: {
      select: 'top:1',
      codeDir: prototypeFolder(root),
      sandbox: 'bubblewrap',
      python: '/usr/bin/python3',
      gpu: false,
      maxSteps: 5,
    },
  };
}

/** The exploration's callers (one per explore run started) and each experiment's planner. */
function models(script: Partial<Record<RoleName, (string | Error)[]>>) {
  const explorations: ScriptedCaller[] = [];
  const experiment = () =>
    scriptedCaller({
      planner: (_request, step) =>
        step === 1
          ? plannerAnswer('Write Script', {
              script_name: 'methodology_implementation.py',
              content: 'print("accuracy: 0.7")\n',
            })
          : plannerAnswer('Final Answer', { summary: 'accuracy 0.7' }),
    });
  return {
    explorations,
    models: (run: Run) => {
      if (run.mode !== 'explore') return experiment();
      const caller = createScriptedCaller(script, { run });
      explorations.push(caller);
      return caller.caller;
    },
  };
}

const storedSummary = (runDir: string) =>
  (
    JSON.parse(readFileSync(join(runDir, 'stages', 'prototype.json'), 'utf8')) as {
      value: PrototypeSummary;
    }
  ).value;

const stageStarts = (runDir: string) =>
  readEvents(runDir)
    .events.filter((event): event is EventOf<'stage-start'> => event.type === 'stage-start')
    .map((event) => event.stage);

describe('codify explore --code: ideas grounded on the prototype', () => {
  it('measures the baseline before the ideas and shows its summary to every idea stage', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-grounding-'));
    const card = groundedCard('Class-aware mixup');
    const scripted = models({
      planner: [json(analysisAnswer()), json({ ideas: [card] }), json(card)],
      judge: [json(review(4)), json(review(4)), verdictAnswer()],
    });
    const result = await runExplore({
      settings: settingsFor(root),
      models: scripted.models,
      experimentActions: actions,
      host: { runsRoot: join(root, 'runs') },
    });
    const runDir = result.run.dir;

    const starts = stageStarts(runDir);
    expect(starts.indexOf('baseline')).toBeGreaterThan(starts.indexOf('analysis'));
    expect(starts.indexOf('baseline')).toBeLessThan(starts.indexOf('prototype'));
    expect(starts.indexOf('prototype')).toBeLessThan(starts.indexOf('ideas'));
    // Measured once, before the ideas: the experiments reuse it.
    expect(starts.filter((stage) => stage === 'baseline')).toHaveLength(1);

    const summary = storedSummary(runDir).text;
    expect(summary).toContain('starter_code.py (');
    expect(summary).toContain('rows.csv (12 B)');
    expect(summary).toContain('`open("rows.csv")`');
    expect(summary).toContain(
      '`python starter_code.py`, run without arguments; no seed declared in task.json; at most',
    );
    expect(summary).toContain('`accuracy: 0.5`');
    expect(summary).toContain('CPU only, no GPU');
    expect(summary).toMatch(/Python 3\.\d+\.\d+, standard library only/);
    expect(summary).toMatch(
      /ran unchanged in \d+\.\d s \(in the sandbox, start-up included\): accuracy: 0\.5/,
    );

    // Ideas and refinement: the summary ends the system prompt, the same bytes in both.
    const requests = scripted.explorations[0]?.requests;
    const [, ideas, refine] = requests?.planner ?? [];
    expect(ideas?.system?.endsWith(`\n\n${summary}`)).toBe(true);
    expect(refine?.system).toBe(ideas?.system);
    expect(ideas?.messages[0]?.content).toContain('"runsOnPrototype": true');
    expect(refine?.messages[0]?.content).toContain('executable on the prototype');
    // The judge's system prompt ends with it, so feasibility is judged against the prototype.
    const reviews = requests?.judge.slice(0, 2) ?? [];
    expect(reviews).toHaveLength(2);
    for (const request of reviews) {
      expect(request.system).toMatch(/^You /);
      expect(request.system).toContain(
        `\n\n${summary}\n\nJudge feasibility against this prototype`,
      );
      expect(request.system).toBe(requests?.judge[0]?.system);
    }

    // The step the prototype cannot run is listed as not run, and left out of the experiment.
    const [record] = JSON.parse(
      readFileSync(join(runDir, 'experiments.json'), 'utf8'),
    ) as ExperimentRecord[];
    expect(record?.status).toBe('ran');
    expect(record?.notRun).toEqual([{ step: impossibleStep, reason: impossibleReason }]);
    const methodology = readFileSync(
      join(runDir, 'experiments', 'I1', 'task', 'methodology_description.txt'),
      'utf8',
    );
    expect(methodology).toContain(`  1. ${runnableStep}`);
    expect(methodology).not.toContain(impossibleStep);
    expect(methodology).toContain(impossibleReason);
    const report = readFileSync(result.report ?? '', 'utf8');
    expect(report).toContain(`- ${impossibleStep} — ${impossibleReason}`);
    expect(result.exploration.prototype).toBe(summary);
    expect(readFileSync(result.ideasMarkdown, 'utf8')).toContain(
      '## Grounding: The prototype the experiments run on',
    );
    expect(readFileSync(result.ideasMarkdown, 'utf8')).toContain(
      `${impossibleStep} [not runnable on the prototype: ${impossibleReason}]`,
    );
  });

  it('an idea none of whose steps runs on the prototype is skipped, not run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-grounding-none-'));
    const card = groundedCard('ImageNet only');
    card.experimentPlan.procedure = [
      { step: impossibleStep, runsOnPrototype: false, reason: impossibleReason },
    ];
    const scripted = models({
      planner: [json(analysisAnswer()), json({ ideas: [card] })],
      judge: [json(review(4))],
    });
    const result = await runExplore({
      settings: { ...settingsFor(root), refineRounds: 0 },
      models: scripted.models,
      experimentActions: actions,
      host: { runsRoot: join(root, 'runs') },
    });
    expect(result.experiments?.[0]).toMatchObject({
      status: 'skipped',
      reason: 'no step of its plan runs on the prototype (see notRun)',
      notRun: [{ step: impossibleStep, reason: impossibleReason }],
    });
  });

  it('a resumed exploration keeps the baseline and sends the same summary', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-grounding-resume-'));
    const card = groundedCard('Class-aware mixup');
    const settings = { ...settingsFor(root) };
    let runDir = '';
    // The model fails at the refinement: the baseline, the summary and the ideas are done.
    const first = models({
      planner: [json(analysisAnswer()), json({ ideas: [card] }), new Error('provider went away')],
      judge: [json(review(3))],
    });
    await expect(
      runExplore({
        settings,
        models: first.models,
        experimentActions: actions,
        host: {
          runsRoot: join(root, 'runs'),
          onRun: (run) => {
            runDir = run.dir;
          },
        },
      }),
    ).rejects.toThrow(/provider went away/);
    const summary = storedSummary(runDir).text;

    const second = models({ planner: [json(card)], judge: [json(review(4)), verdictAnswer()] });
    const result = await resumeExplore(runDir, {
      models: second.models,
      experimentActions: actions,
      host: { runsRoot: join(root, 'runs') },
    });
    const { events } = readEvents(runDir);
    const resumed = events
      .slice(events.findLastIndex((event) => event.type === 'run-start'))
      .filter((event): event is EventOf<'stage-end'> => event.type === 'stage-end')
      .map((end) => [end.stage, end.reused ?? false]);
    expect(resumed.slice(0, 5)).toEqual([
      ['ingest', true],
      ['analysis', true],
      ['baseline', true],
      ['prototype', true],
      ['ideas', true],
    ]);
    const [refine] = second.explorations[0]?.requests.planner ?? [];
    expect(refine?.system?.endsWith(`\n\n${summary}`)).toBe(true);
    expect(result.experiments?.[0]?.status).toBe('ran');
    expect(result.experiments?.[0]?.notRun).toHaveLength(1);
  });

  it('with a prototype a plain plan step is asked again; without one it is taken as runnable', async () => {
    const classified = groundedCard('Class-aware mixup');
    const plain: IdeaCard = {
      ...classified,
      experimentPlan: { ...classified.experimentPlan, procedure: [runnableStep] },
    };
    const input = { analysis: 'gaps', related: '', compute: 'CPU only', count: 1 };
    const grounded = createScriptedCaller({
      planner: [json({ ideas: [plain] }), json({ ideas: [classified] })],
    });
    const cards = await generateIdeas(grounded.caller, { ...input, prototype: 'the prototype' });
    expect(cards[0]?.experimentPlan.procedure).toEqual(classified.experimentPlan.procedure);
    const [, retry] = grounded.requests.planner;
    expect(JSON.stringify(retry?.messages)).toContain(
      'give the step as { \\"step\\", \\"runsOnPrototype\\", \\"reason\\" }',
    );

    const ungrounded = createScriptedCaller({ planner: [json({ ideas: [plain] })] });
    const accepted = await generateIdeas(ungrounded.caller, input);
    expect(accepted[0]?.experimentPlan.procedure).toEqual([runnableStep]);
    expect(ungrounded.requests.planner[0]?.system).not.toContain('the prototype');
  });
});
