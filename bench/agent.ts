/**
 * The research agent's own cost per step: a scripted session through the real loop, router,
 * actions, run log and workspace, with models that answer at once and no script executed, so
 * all the time measured is harness overhead (prompt building, parsing, guards, memory,
 * events, checkpoints). Prints milliseconds and estimated tokens per step.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImplement } from '../src/agent/implement.js';
import type { ScriptedRequest } from '../src/llm/scripted-model.js';
import { createScriptedCaller } from '../src/llm/scripted-model.js';
import type { CodifyEvent } from '../src/runs/events.js';

const steps = 40;

function answer(action: string, input: unknown): string {
  return `Reflection: the last observation shows what I needed.
Research Plan and Status: 1. read the starter (in progress) 2. implement 3. measure
Fact Check: the file list is confirmed by the observation
Thought: look further
Action: ${action}
Action Input: ${JSON.stringify(input)}`;
}

function plannerAnswer(step: number): string {
  if (step >= steps)
    return answer('Final Answer', { final_script: 'starter_code.py', summary: 'bench' });
  if (step % 2 === 1) return answer('List Files', { dir_path: step % 4 === 1 ? '.' : './' });
  return answer('Inspect Script Lines', {
    script_name: 'starter_code.py',
    start_line_number: 1,
    end_line_number: step,
  });
}

function makeTask(base: string): string {
  const taskDir = join(base, 'task');
  mkdirSync(taskDir, { recursive: true });
  writeFileSync(
    join(taskDir, 'methodology_description.txt'),
    'Replace the model with a two-layer MLP.\n',
  );
  const body = Array.from({ length: 80 }, (_, index) => `value_${index} = ${index} * 2`).join('\n');
  writeFileSync(join(taskDir, 'starter_code.py'), `${body}\nprint("accuracy: 0.5")\n`);
  writeFileSync(join(taskDir, 'starter_code_performance.txt'), 'accuracy: 0.5\n');
  return taskDir;
}

export async function runBench(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'codify-bench-agent-'));
  try {
    const taskDir = makeTask(base);
    const planner = Array.from({ length: steps }, (_, index) => () => plannerAnswer(index + 1));
    const summarizer = Array.from(
      { length: steps * 2 },
      () => (request: ScriptedRequest) =>
        // about the length of a real summarizer's entry (a few sentences)
        `Summary of a step (${request.messages.length} message read). ${'The action listed or inspected the files as planned and confirmed the layout; nothing failed. '.repeat(5)}`,
    );
    const events: CodifyEvent[] = [];
    const started = process.hrtime.bigint();
    const result = await runImplement({
      taskDir,
      runsRoot: join(base, 'runs'),
      models: (run) => createScriptedCaller({ planner, summarizer }, { run }).caller,
      sandbox: 'none',
      python: '/usr/bin/python3',
      sinks: [(event) => events.push(event)],
      measureStarter: false,
    });
    const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
    const modelMs = events
      .filter((event) => event.type === 'llm-end')
      .reduce((sum, event) => sum + (event.type === 'llm-end' ? event.latencyMs : 0), 0);
    const executionMs = events
      .filter((event) => event.type === 'execution-end')
      .reduce((sum, event) => sum + (event.type === 'execution-end' ? event.durationMs : 0), 0);
    const overhead = totalMs - modelMs - executionMs;
    const stepsDone = result.steps;
    console.log(`steps: ${stepsDone} (${result.outcome})`);
    console.log(
      `total: ${totalMs.toFixed(0)} ms; scripted model latency ${modelMs.toFixed(0)} ms; final execution ${executionMs.toFixed(0)} ms`,
    );
    console.log(`harness overhead per step: ${(overhead / stepsDone).toFixed(1)} ms`);
    console.log(
      `tokens per step: ${(result.tokens.input / stepsDone).toFixed(0)} in, ${(result.tokens.output / stepsDone).toFixed(0)} out (estimated by the scripted model)`,
    );
    const planners = events.flatMap((event) =>
      event.type === 'llm-end' && event.role === 'planner' ? [event] : [],
    );
    // Each step appears once: in full (three to five of them) after the research log, or as
    // its log entry once folded; both blocks only grow between folds, so a prefix cache
    // serves them. What follows the last cache mark is the uncached part.
    const sizes = planners.map((event) => {
      const marked = event.messages.findLastIndex((message) => message.cacheMark === true);
      const chars = (from: number, to: number) =>
        event.messages.slice(from, to).reduce((sum, message) => sum + message.content.length, 0);
      return { history: chars(0, marked + 1), after: chars(marked + 1, event.messages.length) };
    });
    const shown = [1, 5, 10, 20, 30, 40].filter((step) => step <= sizes.length);
    console.log(
      `planner messages by step (characters, up to the last cache mark + after it): ${shown
        .map((step) => {
          const size = sizes[step - 1] ?? { history: 0, after: 0 };
          return `${step}: ${size.history} + ${size.after}`;
        })
        .join(', ')}`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
