import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/runs/read-events.js';
import { fixtureTask } from '../tasks/fixture-paths.js';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'codify-broken-starter-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function implement(name: string, extra: string[]) {
  const runsRoot = join(scratch, `${name}-runs`);
  const exchange = join(scratch, `${name}-exchange`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'src/cli/main.ts'),
      'implement',
      fixtureTask('crashing-task'),
      '--model',
      `exchange:${exchange}`,
      '--root',
      runsRoot,
      ...extra,
    ],
    { cwd: root, env: { ...process.env, CI: 'true' } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  const requests = () => {
    try {
      return readdirSync(exchange).filter((file) => file.endsWith('.json'));
    } catch {
      return [];
    }
  };
  return { child, exited, output: () => output, runsRoot, requests };
}

describe('a starter that fails, before any model call', () => {
  it('stops the run with the message codify check gives, exit code 6, and no request to the model', async () => {
    const run = implement('stop', []);
    expect(await run.exited, run.output()).toBe(6);
    expect(run.output()).toContain('the starter code exited with code 1');
    expect(run.output()).toContain('codify check');
    expect(run.output()).toContain('--allow-broken-starter');
    expect(run.requests()).toEqual([]);
    const [id] = readdirSync(run.runsRoot);
    const events = readEvents(join(run.runsRoot, id ?? '')).events;
    expect(events.some((event) => event.type === 'llm-start')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });
  });

  it('goes on to the agent with --allow-broken-starter', async () => {
    const run = implement('go-on', ['--allow-broken-starter']);
    for (let waited = 0; run.requests().length === 0 && waited < 60_000; waited += 50) {
      await sleep(50);
    }
    expect(run.requests().length, run.output()).toBeGreaterThan(0);
    run.child.kill('SIGKILL');
    await run.exited;
  });
});
