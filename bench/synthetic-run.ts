/**
 * Writes a synthetic implement run of any number of steps, with the event types and sizes of
 * a real long run: each step has a planner call whose prompt carries the task, the research
 * log and the last steps (~24 KB), the planner's answer fields, an action with its
 * observation (a diff for an edit, script output for an execution), an execution-end every
 * few steps, a summarizer call and a checkpoint. About 50 KB of log per step, so 1,000 steps
 * make a log of ~50 MB, as the runs that showed the web app's limits did. Generated at bench
 * time, never committed.
 */
import { createRun, type Run } from '../src/runs/run.js';

export interface SyntheticRun {
  id: string;
  dir: string;
  steps: number;
}

/** Text that JSON-escapes and compresses like prose and code, not like one repeated letter. */
function prose(seed: number, length: number): string {
  const words = [
    'the',
    'model',
    'validation',
    'accuracy',
    'loss',
    'epoch',
    'batch',
    'learning_rate',
    'features',
    'train.py',
    'improved',
    'baseline',
    'scaler',
    'ridge',
    'kernel',
    'result',
    '"quoted"',
    'step',
    'plan',
    '\n',
  ];
  let state = Math.imul(seed, 2654435761) >>> 0;
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const word = words[state % words.length] ?? 'x';
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ').slice(0, length);
}

function diffOf(step: number): string {
  const lines = ['--- a/train.py', '+++ b/train.py', `@@ -${step},12 +${step},14 @@`];
  for (let line = 0; line < 40; line += 1) {
    const mark = line % 7 === 0 ? '-' : line % 5 === 0 ? '+' : ' ';
    lines.push(`${mark}    ${prose(step * 100 + line, 60)}`.replaceAll('\n', ' '));
  }
  return lines.join('\n');
}

const actions = [
  'List Files',
  'Understand File',
  'Edit Script (AI)',
  'Execute Script',
  'Inspect Script Lines',
] as const;

export interface SyntheticRunOptions {
  /** Characters of the planner's prompt (the summarizer's is about half); default 21,000. */
  promptCharacters?: number;
}

/** Creates the run under `root` and returns its folder; the run ends `completed`. */
export function writeSyntheticRun(
  root: string,
  steps: number,
  options: SyntheticRunOptions = {},
): SyntheticRun {
  const promptCharacters = options.promptCharacters ?? 21_000;
  const run = createRun({ root, mode: 'implement', name: `synthetic ${steps} steps`, argv: [] });
  const system = prose(1, 3000);
  for (let step = 1; step <= steps; step += 1) {
    const action = actions[step % actions.length] ?? 'List Files';
    run.emit({ type: 'step-start', step });
    emitPlannerCall(run, step, action, system, promptCharacters);
    emitAction(run, step, action);
    emitSummarizerCall(run, step, promptCharacters);
    run.emit({
      type: 'budget-update',
      steps: step,
      tokens: step * 11_100,
      costUsd: step * 0.015,
      elapsedMs: step * 20_000,
    });
    run.emit({
      type: 'step-end',
      step,
      action,
      checkpoint: { step, researchLog: prose(step * 43, 3500) },
    });
  }
  run.close('completed', 'synthetic');
  return { id: run.id, dir: run.dir, steps };
}

/** The planner's call (callId 2·step − 1) with its prompt, and its answer's fields. */
function emitPlannerCall(
  run: Run,
  step: number,
  action: string,
  system: string,
  promptCharacters: number,
): void {
  const callId = 2 * step - 1;
  run.emit({ type: 'llm-start', callId, role: 'planner', model: 'synthetic:planner' });
  const fields = {
    Reflection: prose(step * 11, 500),
    'Research Plan and Status': `1. read the starter (done)\n2. improve train.py (in progress, step ${step})\n3. measure\n${prose(step * 13, 600)}`,
    'Fact Check': prose(step * 17, 250),
    Thought: prose(step * 19, 250),
  };
  const answer = Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  run.emit({
    type: 'llm-end',
    callId,
    role: 'planner',
    model: 'synthetic:planner',
    system,
    messages: [{ role: 'user', content: prose(step * 23, promptCharacters) }],
    text: `${answer}\nAction: ${action}`,
    usage: { inputTokens: 7000, outputTokens: 450, cachedInputTokens: 5000 },
    costUsd: 0.012,
    latencyMs: 4200,
    attempts: 1,
  });
  run.emit({ type: 'planner-answer', step, level: 0, valid: true, fields });
}

/** The action with its input and observation: a diff for an edit, output for an execution. */
function emitAction(run: Run, step: number, action: string): void {
  const input =
    action === 'Edit Script (AI)'
      ? { script_name: 'train.py', edit_instruction: prose(step * 29, 500), save_name: 'train.py' }
      : action === 'Execute Script'
        ? { script_name: 'train.py' }
        : action === 'Inspect Script Lines'
          ? { script_name: 'train.py', start_line_number: 1, end_line_number: 80 }
          : { dir_path: '.' };
  run.emit({ type: 'action-start', step, action, input });
  const observation =
    action === 'Edit Script (AI)'
      ? `The edited file is saved to train.py. Here is the diff:\n${diffOf(step)}`
      : prose(step * 31, 2500);
  if (action === 'Execute Script') {
    run.emit({
      type: 'execution-end',
      script: 'train.py',
      args: [],
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 12_000 + step,
      outputPath: `${run.dir}/workspace/.codify/outputs/${step}.txt`,
      metric: 0.6 + (step % 97) / 1000,
    });
  }
  run.emit({
    type: 'action-end',
    step,
    action,
    ok: step % 23 !== 0,
    observation,
    display: observation,
    durationMs: action === 'Execute Script' ? 12_000 : 40,
  });
}

/** The summarizer's call (callId 2·step), its prompt about half the planner's. */
function emitSummarizerCall(run: Run, step: number, promptCharacters: number): void {
  const callId = 2 * step;
  run.emit({ type: 'llm-start', callId, role: 'summarizer', model: 'synthetic:summarizer' });
  run.emit({
    type: 'llm-end',
    callId,
    role: 'summarizer',
    model: 'synthetic:summarizer',
    messages: [{ role: 'user', content: prose(step * 37, Math.round(promptCharacters * 0.57)) }],
    text: prose(step * 41, 600),
    usage: { inputTokens: 3500, outputTokens: 150, cachedInputTokens: 0 },
    costUsd: 0.003,
    latencyMs: 1500,
    attempts: 1,
  });
}
