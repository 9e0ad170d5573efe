import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showCommandOutput } from '../../src/cli/commands/show.js';
import { createRun, type Run } from '../../src/runs/run.js';

const helper = join(import.meta.dirname, 'cli-helper.ts');
let root = '';
let finished: Run;
let live: Run;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-cli-'));
  finished = createRun({ root, mode: 'implement', name: 'cifar resnet', argv: ['implement'] });
  finished.emit({ type: 'step-start', step: 1 });
  finished.emit({
    type: 'llm-end',
    callId: 1,
    role: 'planner',
    model: 'anthropic:claude-sonnet',
    messages: [],
    text: 'Action: Execute Script',
    usage: { inputTokens: 2000, outputTokens: 150, cachedInputTokens: 0 },
    costUsd: 0.0081,
    latencyMs: 3400,
    attempts: 1,
  });
  finished.emit({ type: 'action-start', step: 1, action: 'Execute Script', input: {} });
  finished.emit({
    type: 'execution-end',
    script: 'train.py',
    args: [],
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 900,
  });
  finished.emit({
    type: 'action-end',
    step: 1,
    action: 'Execute Script',
    ok: true,
    observation: 'Traceback…',
    display: 'train.py failed: NameError',
    durationMs: 950,
  });
  finished.emit({ type: 'step-end', step: 1, action: 'Execute Script' });
  finished.close('failed', 'script never ran');
  // Runs are ordered by their start time; two started in the same millisecond would tie.
  await new Promise((resolve) => setTimeout(resolve, 20));
  live = createRun({ root, mode: 'paper', name: 'attention', argv: ['paper'] });
});
afterAll(() => {
  live.close('stopped');
  rmSync(root, { recursive: true, force: true });
});

function codify(...args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', helper, ...args], {
      env: { ...process.env, CODIFY_RUNS_DIR: root },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('codify show', () => {
  it('formats a run with llm, action and execution events', () => {
    const { out, err } = showCommandOutput(finished.dir, false);
    expect(err).toBe('');
    const [header = '', timeline = ''] = out.split('\n\n');
    expect(header).toContain(`run        ${finished.id}`);
    expect(header).toContain('status     failed');
    expect(header).toContain('tokens     2k in, 150 out');
    expect(header).toContain('cost       $0.0081');
    const lines = timeline
      .trimEnd()
      .split('\n')
      .map((line) => line.slice(10));
    expect(lines).toEqual([
      'run implement "cifar resnet"',
      'step 1',
      '  llm planner anthropic:claude-sonnet 2k→150 tok $0.0081 3.4s',
      '  exec train.py → exit 1 in 900ms',
      '  action Execute Script 950ms: train.py failed: NameError',
      'run failed: script never ran · 1 step, 2.15k tokens, $0.0081',
    ]);
  });

  it('runs through commander: by unique name part, as JSON, and with a helpful miss', async () => {
    const byName = await codify('show', 'cifar');
    expect(byName.code).toBe(0);
    expect(byName.out).toContain('exec train.py → exit 1 in 900ms');

    const asJson = await codify('show', 'last', '--json');
    const events = asJson.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string });
    expect(events[0]).toMatchObject({ type: 'run-start', name: 'attention' });

    const streamed = await codify('show', finished.id, '--output-format', 'stream-json');
    expect(streamed.out.trimEnd().split('\n')).toHaveLength(8);
    const badFormat = await codify('show', 'last', '--output-format', 'xml');
    expect(badFormat.code).not.toBe(0);
    expect(badFormat.err).toContain('stream-json');

    const missing = await codify('show', 'cifar-resnte');
    expect(missing.code).toBe(3);
    expect(missing.err).toContain('no run "cifar-resnte"');
    expect(missing.err).toContain(finished.id);
  });

  it('follows a run until it ends', async () => {
    const following = codify('show', live.id, '--follow');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    live.emit({ type: 'stage-start', stage: 'planning' });
    live.close('completed', 'repository written');
    const result = await following;
    expect(result.code).toBe(0);
    expect(result.out).toContain('stage planning');
    expect(result.out).toContain('run completed: repository written');
  });
});

describe('codify runs', () => {
  it('lists runs newest first with status, steps, tokens and cost', async () => {
    const { code, out } = await codify('runs');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RUN\s+MODE\s+STATUS\s+STEPS\s+TOKENS\s+COST\s+AGE$/);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /cifar-resnet-[0-9a-f]{6}\s+implement\s+failed\s+1\s+2\.15k\s+\$0\.0081\s+\d+s$/,
    );
    const json = await codify('runs', '--json', '--root', root);
    expect((JSON.parse(json.out) as Array<{ name: string }>).map((run) => run.name)).toContain(
      'cifar resnet',
    );
    const bad = await codify('runs', '--limit', 'zero');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--limit');
  });
});
