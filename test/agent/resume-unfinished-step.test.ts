import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../src/agent/final-result.js';
import type { CodifyEvent, EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';

const root = resolve(import.meta.dirname, '../..');
const recording = join(root, 'examples/recordings/yona-digits.jsonl');
const runsRoot = mkdtempSync(join(tmpdir(), 'codify-unfinished-step-'));
afterAll(() => rmSync(runsRoot, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function codify(args: string[]) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args, '--root', runsRoot],
    { cwd: root, env: { ...process.env, CI: 'true' } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  return { child, exited, output: () => output };
}

/** A planner call has completed in a step that has not ended: the moment to kill. */
function insideAnsweredStep(events: readonly CodifyEvent[]): boolean {
  const lastStepEnd = events.findLastIndex((event) => event.type === 'step-end');
  return events
    .slice(lastStepEnd + 1)
    .some((event) => event.type === 'llm-end' && event.role === 'planner' && lastStepEnd >= 0);
}

describe('codify resume after a kill inside a step whose planner call had completed', () => {
  it('answers that call from the log: every recorded call paid once, result.json counts them all', async () => {
    const started = codify(['implement', 'examples/yona-digits', '--model', `replay:${recording}`]);
    let runDir: string | undefined;
    for (let waited = 0; waited < 120_000; waited += 10) {
      const [id] = existsSync(runsRoot) ? readdirSync(runsRoot) : [];
      runDir = id === undefined ? undefined : join(runsRoot, id);
      // The folder exists a moment before its events.jsonl does.
      const logged = runDir !== undefined && existsSync(join(runDir, 'events.jsonl'));
      if (logged && insideAnsweredStep(readEvents(runDir ?? '').events)) break;
      await sleep(10);
    }
    started.child.kill('SIGKILL');
    await started.exited;
    expect(runDir, started.output()).toBeDefined();
    const dir = runDir ?? '';
    const before = readEvents(dir).events;
    expect(insideAnsweredStep(before), started.output()).toBe(true);
    const paidBefore = before.filter((event) => event.type === 'llm-end').length;

    const resumed = codify(['resume', dir, '--model', `replay:${recording}`, '--json']);
    expect(await resumed.exited, resumed.output()).toBe(0);
    const events = readEvents(dir).events;
    const calls = events.filter((event): event is EventOf<'llm-end'> => event.type === 'llm-end');
    const recorded = readFileSync(recording, 'utf8').trim().split('\n').length;
    // Every call of the session once: none asked twice, none skipped.
    expect(calls).toHaveLength(recorded);
    expect(new Set(calls.map((call) => call.callId)).size).toBe(calls.length);
    expect(calls.length).toBeGreaterThan(paidBefore);
    expect(resumed.output()).toMatch(/completed model calls are answered from the log/);
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as ImplementResult;
    const end = events.findLast((event): event is EventOf<'run-end'> => event.type === 'run-end');
    expect(end?.status).toBe('completed');
    expect(result.tokens.input).toBe(end?.totals?.inputTokens);
    expect(result.tokens.output).toBe(end?.totals?.outputTokens);
    expect(result.tokens.input).toBe(calls.reduce((sum, call) => sum + call.usage.inputTokens, 0));
    // Wall time covers the starter's and the final script's measurements, split by stage.
    expect(Object.keys(result.stageTimesMs ?? {})).toEqual(
      expect.arrayContaining(['agent', 'final']),
    );
    expect(result.wallTimeMs).toBeGreaterThanOrEqual(result.stageTimesMs?.agent ?? 0);
  });
});
