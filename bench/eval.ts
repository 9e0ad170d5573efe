/**
 * The evaluation's own cost: (1) the time `codify eval` adds per run (planning, state
 * checks, the eval log, collecting the metrics) over what the runs themselves took, on a
 * suite of single-call runs whose model answers at once; (2) the time to build report.json,
 * report.md and report.html (with its charts) from 1,000 finished run folders.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../src/config/default-config.js';
import { collectEvaluation } from '../src/eval/collection/collect-evaluation.js';
import { loadSuite } from '../src/eval/suite/load-suite.js';
import { planRuns } from '../src/eval/suite/plan-runs.js';
import { runEvaluation } from '../src/eval/run-evaluation.js';
import { writeReports } from '../src/eval/reports/write-reports.js';
import type { Answerer } from '../src/llm/answerer.js';
import { createRun } from '../src/runs/run.js';

const overheadRuns = 20;
const tasks = 5;
const models = 4;
const trials = 50;

function makeTask(base: string, name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'methodology_description.txt'), 'Raise the accuracy.\n');
  writeFileSync(join(dir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
  writeFileSync(join(dir, 'starter_code_performance.txt'), 'accuracy: 0.5\n');
  writeFileSync(
    join(dir, 'task.json'),
    JSON.stringify({
      name,
      metric: { name: 'accuracy', pattern: 'accuracy: ([0-9.]+)', goal: 'max' },
    }),
  );
  return dir;
}

const instant: Answerer = {
  remote: false,
  answer: () =>
    Promise.resolve({
      text: '```python\nprint("accuracy: 0.75")\n```\n',
      usage: { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 0 },
      costUsd: 0.001,
    }),
};

async function overheadPerRun(base: string): Promise<void> {
  const taskDir = makeTask(base, 'toy');
  const suiteFile = join(base, 'overhead.yaml');
  writeFileSync(
    suiteFile,
    `items: [{task: ${taskDir}}]\nstrategies: [single-call]\nmodels: [{name: m, model: scripted:m}]\ntrials: ${overheadRuns}\nstarter_trials: 0\nsandbox: none\npython: /usr/bin/python3\n`,
  );
  const started = performance.now();
  const outcome = await runEvaluation({
    suite: loadSuite(suiteFile),
    evalDir: join(base, 'overhead'),
    baseConfig: defaultConfig(),
    answerers: () => instant,
  });
  const total = performance.now() - started;
  const inRuns = outcome.summary.runs.reduce((sum, run) => sum + run.wallTimeMs, 0);
  console.log(
    `evaluation overhead: ${((total - inRuns) / overheadRuns).toFixed(1)} ms per run (${overheadRuns} single-call runs, sandbox none: ${(total / 1000).toFixed(2)} s in all, ${(inRuns / 1000).toFixed(2)} s inside the runs)`,
  );
}

/** A finished implement run as the pipeline leaves it: events.jsonl and result.json. */
function fakeRun(root: string, task: string, trial: number, index: number): void {
  const run = createRun({ root, mode: 'implement', name: task, argv: [] });
  for (let step = 1; step <= 4; step += 1) {
    run.emit({ type: 'step-start', step });
    run.emit({
      type: 'llm-end',
      callId: step,
      role: 'planner',
      model: 'openai:gpt-4o-mini',
      messages: [{ role: 'user', content: 'prompt' }],
      text: 'answer',
      usage: { inputTokens: 2000 + index, outputTokens: 100, cachedInputTokens: 0 },
      costUsd: 0.0004,
      latencyMs: 900,
      attempts: 1,
    });
    run.emit({ type: 'step-end', step, action: 'List Files' });
  }
  const value = 0.5 + ((index * 7919) % 100) / 400;
  const result = {
    outcome: 'completed',
    reason: 'final answer',
    strategy: 'agent',
    task,
    runId: run.id,
    runDir: run.dir,
    finalScript: index % 10 === 0 ? null : join(run.dir, 'methodology_implementation.py'),
    workspaceScript: 'methodology_implementation.py',
    ran: index % 7 !== 0,
    execution: { exitCode: 0, timedOut: false, outputPath: null, reused: true },
    metric: {
      name: 'accuracy',
      goal: 'max',
      value,
      starter: 0.5,
      starterSource: 'measured',
      improved: value > 0.5,
    },
    linesEdited: { added: 20 + (index % 30), removed: index % 5 },
    steps: 4,
    tokens: { input: 8000, output: 400, cached: 0, total: 8400 },
    costUsd: 0.0016,
    wallTimeMs: 30_000 + trial,
  };
  writeFileSync(join(run.dir, 'result.json'), JSON.stringify(result, null, 2));
  run.close('completed', 'final answer', result);
}

async function reportFor1000(base: string): Promise<void> {
  const taskNames = Array.from({ length: tasks }, (_, index) => `task-${index + 1}`);
  for (const name of taskNames) makeTask(base, name);
  const suiteFile = join(base, 'large.yaml');
  writeFileSync(
    suiteFile,
    [
      'items:',
      ...taskNames.map((name) => `  - task: ${name}`),
      'models:',
      ...Array.from(
        { length: models },
        (_, index) => `  - {name: model-${index + 1}, model: openai:m${index + 1}}`,
      ),
      `trials: ${trials}`,
      'starter_trials: 0',
      '',
    ].join('\n'),
  );
  const suite = loadSuite(suiteFile);
  const evalDir = join(base, 'large');
  const planned = planRuns(suite, evalDir);
  planned.forEach((run, index) => fakeRun(run.root, run.item.name, run.trial, index));
  const started = performance.now();
  const summary = await collectEvaluation(suite, evalDir, planned);
  const collected = performance.now();
  await writeReports(summary);
  const written = performance.now();
  console.log(
    `report for ${planned.length} runs: ${((written - started) / 1000).toFixed(2)} s (reading the run folders and computing the metrics ${((collected - started) / 1000).toFixed(2)} s, writing report.json, report.md and report.html ${((written - collected) / 1000).toFixed(2)} s)`,
  );
}

export async function runBench(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'codify-bench-eval-'));
  try {
    await overheadPerRun(base);
    await reportFor1000(base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
