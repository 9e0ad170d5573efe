import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/runs/read-events.js';
import { codify, recordings, startCodify } from '../llm/codify-cli.js';
import { answerExchange } from '../web/exchange-responder.js';
import { exploreWineArgs } from '../explore/explore-wine-args.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const replay = `replay:${join(recordings, 'yona-digits.jsonl')}`;

function runFolder(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  const [id] = readdirSync(root).filter((name) => !name.startsWith('.'));
  return id === undefined ? undefined : join(root, id);
}

function stepsStarted(runDir: string | undefined): number {
  if (runDir === undefined || !existsSync(join(runDir, 'events.jsonl'))) return 0;
  return readEvents(runDir).events.filter((event) => event.type === 'step-start').length;
}

/**
 * Starts `codify ARGS --model exchange:… --root ROOT` that nobody answers, and resolves once
 * it waits on its first model call: then it is signalled.
 */
async function waitingOnItsFirstCall(
  args: string[],
  root: string,
): Promise<{ signal: (name: NodeJS.Signals) => Promise<number | null>; output: () => string }> {
  const exchange = join(root, '.exchange');
  const child = startCodify([...args, '--model', `exchange:${exchange}`, '--root', root]);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const asked = () =>
    existsSync(exchange) && readdirSync(exchange).some((name) => name.endsWith('.prompt.md'));
  for (let waited = 0; !asked() && waited < 60_000; waited += 20) await sleep(20);
  expect(asked(), output).toBe(true);
  return {
    signal: (name) => {
      child.kill(name);
      return exited;
    },
    output: () => output,
  };
}

describe('Ctrl-C and SIGTERM', () => {
  it('stop an implement run after cancelling its step, and resume redoes that step', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-interrupt-'));
    const child = startCodify([
      'implement',
      'examples/yona-digits',
      '--model',
      replay,
      '--root',
      root,
    ]);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Step 2 (Execute Script) trains for seconds: the interrupt lands while its script runs.
    for (let waited = 0; stepsStarted(runFolder(root)) < 2 && waited < 90_000; waited += 20) {
      await sleep(20);
    }
    child.kill('SIGINT');
    const status = await exited;
    const runDir = runFolder(root) ?? '';
    const events = readEvents(runDir).events;
    const end = events.findLast((event) => event.type === 'run-end');
    expect(end, output).toMatchObject({ status: 'stopped' });
    expect(end?.type === 'run-end' ? end.reason : '').toMatch(/^interrupted during step \d/);
    expect(output).toContain('stopping; the work in flight is cancelled');
    // README "Exit codes": stopped by Ctrl-C.
    expect(status).toBe(130);
    // The interrupted step left no checkpoint, and the final script was not measured.
    const checkpoints = events.filter((event) => event.type === 'step-end').length;
    const started = events.filter((event) => event.type === 'step-start').length;
    expect(checkpoints).toBe(started - 1);
    const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as {
      outcome: string;
      execution: unknown;
    };
    expect(result).toMatchObject({ outcome: 'stopped', execution: null });

    // A replayed resume continues at the call after the completed steps' calls.
    const resumed = await codify(['resume', runDir, '--model', replay, '--json']);
    expect(resumed.status, resumed.output).toBe(0);
    const final = readEvents(runDir).events.findLast((event) => event.type === 'run-end');
    expect(final).toMatchObject({ status: 'completed' });
    const after = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as {
      ran: boolean;
      steps: number;
    };
    expect(after).toMatchObject({ ran: true, steps: 3 });
  }, 120_000);

  it('stop an interactive run waiting for an answer in its run folder, its step kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-interrupt-asking-'));
    const exchange = join(root, '.exchange');
    const model = answerExchange(exchange);
    // No terminal: the run folder alone is asked (the web app or a file answers it).
    const child = startCodify([
      'implement',
      'test/fixtures/tasks/good-task',
      '--model',
      `exchange:${exchange}`,
      '--interactive',
      '--root',
      root,
    ]);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const asked = () => {
      const runDir = runFolder(root);
      return runDir !== undefined && existsSync(join(runDir, 'feedback', 'step-1.request.json'));
    };
    for (let waited = 0; !asked() && waited < 90_000; waited += 20) await sleep(20);
    expect(asked()).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    model.stop();
    const events = readEvents(runFolder(root) ?? '').events;
    expect(events.findLast((event) => event.type === 'run-end')).toMatchObject({
      status: 'stopped',
      reason: 'interrupted while waiting for feedback on step 1',
    });
    // Step 1 was complete: its checkpoint is there for resume.
    expect(events.filter((event) => event.type === 'step-end')).toHaveLength(1);
  }, 120_000);

  it('end an exploration as stopped at once, and --resume continues it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-interrupt-explore-'));
    // Nobody answers: the run waits on its analysis call.
    const run = await waitingOnItsFirstCall(['explore', ...exploreWineArgs], root);
    expect(await run.signal('SIGINT')).toBe(130);
    const runDir = runFolder(root) ?? '';
    expect(readEvents(runDir).events.findLast((event) => event.type === 'run-end')).toMatchObject({
      status: 'stopped',
    });
    // The recorded session asked the same analysis first, so it answers the resumed run (its
    // experiments too: the recording holds the whole session).
    const resumed = await codify([
      'explore',
      '--resume',
      runDir,
      '--model',
      `replay:${join(recordings, 'explore-wine.jsonl')}`,
    ]);
    expect(resumed.status, resumed.output).toBe(0);
    expect(readEvents(runDir).events.findLast((event) => event.type === 'run-end')).toMatchObject({
      status: 'completed',
    });
    expect(existsSync(join(runDir, 'ideas.json'))).toBe(true);
  }, 240_000);

  it('stop a paper run waiting on its first call, and say that `codify resume` continues it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'codify-interrupt-paper-'));
    const run = await waitingOnItsFirstCall(
      ['paper', 'examples/papers/mixup-tabular/paper.md'],
      root,
    );
    expect(await run.signal('SIGTERM')).toBe(143);
    const runDir = readdirSync(root).find((name) => !name.startsWith('.')) ?? '';
    const end = readEvents(join(root, runDir)).events.findLast((event) => event.type === 'run-end');
    expect(end).toMatchObject({ status: 'stopped' });
    expect(run.output()).toContain('codify paper: interrupted by SIGTERM; `codify resume');
  }, 90_000);
});
