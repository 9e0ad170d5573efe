/**
 * The research agent on recorded sessions of a real model (examples/recordings), with real
 * actions, workspace, bubblewrap sandbox and Python: wall time minus script executions
 * (the starter's measurement included) minus model latency (zero for a replay) is the harness overhead. Prints, per example,
 * milliseconds of overhead per step and tokens per step as the model used them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runImplement } from '../src/agent/implement.js';
import { defaultConfig } from '../src/config/default-config.js';
import { createModelCaller } from '../src/llm/create-model-caller.js';
import { roleNames } from '../src/llm/types.js';
import type { CodifyEvent } from '../src/runs/events.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const examples = ['yona-digits', 'flag-graph', 'attribute-batching'];

async function replay(example: string, runsRoot: string): Promise<string> {
  const config = defaultConfig();
  const session = join(root, 'examples/recordings', `${example}.jsonl`);
  for (const role of roleNames) config.roles[role].models = [`replay:${session}`];
  const events: CodifyEvent[] = [];
  const started = performance.now();
  await runImplement({
    taskDir: join(root, 'examples', example),
    models: (run) => createModelCaller(config, { run }),
    runsRoot,
    sinks: [(event) => events.push(event)],
  });
  const wallMs = performance.now() - started;
  let executionMs = 0;
  let modelMs = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let steps = 0;
  let firstStep: number | undefined;
  let lastStepEnd = 0;
  for (const event of events) {
    const time = Date.parse(event.time);
    if (event.type === 'step-start') firstStep ??= time;
    if (event.type === 'step-end') {
      steps += 1;
      lastStepEnd = time;
    }
    // Executions inside the steps (the starter's measurement comes before step 1).
    if (event.type === 'execution-end' && firstStep !== undefined) executionMs += event.durationMs;
    if (event.type === 'llm-end') {
      modelMs += event.latencyMs;
      inputTokens += event.usage.inputTokens;
      outputTokens += event.usage.outputTokens;
    }
  }
  const stepsMs = lastStepEnd - (firstStep ?? lastStepEnd);
  const overhead = stepsMs - executionMs - modelMs;
  const runStart = events[0] === undefined ? 0 : Date.parse(events[0].time);
  const setupMs = (firstStep ?? runStart) - runStart;
  const perStep = (value: number) => value / Math.max(1, steps);
  return [
    `${example}: ${steps} steps; wall ${(wallMs / 1000).toFixed(2)} s, of which set-up before step 1`,
    `${(setupMs / 1000).toFixed(2)} s (measuring the starter included)`,
    `\n  in the steps: script executions ${(executionMs / 1000).toFixed(2)} s, model latency ${modelMs.toFixed(0)} ms`,
    `\n  harness overhead per step: ${perStep(overhead).toFixed(1)} ms`,
    `\n  tokens per step (recorded): ${Math.round(perStep(inputTokens))} in, ${Math.round(perStep(outputTokens))} out`,
  ].join(' ');
}

export async function runBench(): Promise<void> {
  const runsRoot = mkdtempSync(join(tmpdir(), 'codify-bench-replay-'));
  try {
    for (const example of examples) console.log(await replay(example, runsRoot));
  } finally {
    rmSync(runsRoot, { recursive: true, force: true });
  }
}
