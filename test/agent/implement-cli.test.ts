import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allActions } from '../../src/agent/actions/index.js';
import type { ImplementResult } from '../../src/agent/final-result.js';
import { runImplement } from '../../src/agent/implement.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import { plannerAnswer } from './scripted-caller.js';
import { betterCode, makeTask } from './task-fixture.js';

const output = 'methodology_implementation.py';

/** Runs a child without blocking the test worker (a blocked worker misses vitest's RPC). */
function runChild(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

describe('codify implement', () => {
  it('replays a recorded session through the command with the real actions, sandbox and Python', async () => {
    const { taskDir, runsRoot } = makeTask();
    const recording = join(runsRoot, '..', 'session.jsonl');
    // No Execute Script step: its observation states the script's wall time, which differs
    // between the recording and the replay (the final result still runs the script).
    const planner = [
      plannerAnswer('List Files', { dir_path: '.' }),
      plannerAnswer('Edit Script', {
        script_name: 'starter_code.py',
        edit_instruction: 'Add subpart_one and add it to the accuracy.',
        save_name: output,
      }),
      plannerAnswer('Final Answer', { summary: 'Added subpart_one; accuracy 0.9 vs 0.5.' }),
    ];
    const summarizer = Array.from({ length: 8 }, (_, index) => `Step summary ${index + 1}.`);
    const worker = [`\`\`\`python\n${betterCode}\`\`\``];
    const recorded = await runImplement({
      taskDir,
      runsRoot,
      models: (run) =>
        createScriptedCaller({ planner, summarizer, worker }, { run, record: recording }).caller,
      sandbox: 'bubblewrap',
      python: '/usr/bin/python3',
      actions: allActions,
    });
    expect(recorded.outcome).toBe('completed');
    expect(recorded.metric?.value).toBe(0.9);

    const replayRoot = join(runsRoot, '..', 'replayed');
    const child = await runChild([
      '--import',
      'tsx',
      'test/agent/cli-child.ts',
      'implement',
      taskDir,
      '--model',
      `replay:${recording}`,
      '--python',
      '/usr/bin/python3',
      '--root',
      replayRoot,
      '--json',
    ]);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const lines = child.stdout.trim().split('\n');
    const result = JSON.parse(lines.at(-1) ?? '{}') as ImplementResult;
    expect(result).toMatchObject({ outcome: 'completed', ran: true, steps: 3, strategy: 'agent' });
    expect(result.metric).toMatchObject({ value: 0.9, starter: 0.5, improved: true });
    expect(readFileSync(join(result.runDir, output), 'utf8')).toBe(betterCode);
    const events = lines.slice(0, -1).map((line) => JSON.parse(line) as { type: string });
    // three planner calls and a worker edit; no summary, since no step left the steps shown in full
    expect(events.filter((event) => event.type === 'llm-end')).toHaveLength(4);
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('names the bad flag', async () => {
    const child = await runChild([
      '--import',
      'tsx',
      'test/agent/cli-child.ts',
      'implement',
      '.',
      '--max-steps',
      'many',
    ]);
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('--max-steps takes a whole number above 0 (got "many")');
  });
});
