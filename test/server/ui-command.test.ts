import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeImplementRun } from './run-fixture.js';

const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
let root = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-ui-cli-'));
  const run = await writeImplementRun(root, 'cli run');
  run.close('completed');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startUi(args: string[]): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitForUrl(started: Started): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const match = /http:\/\/\S+\?token=[0-9a-f]+/.exec(started.stdout());
    if (match !== null) return match[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`codify ui printed no URL: ${started.stdout()} ${started.stderr()}`);
}

describe('codify ui', () => {
  it('prints a loopback URL with a token, serves the runs with it, refuses without, stops on SIGTERM', async () => {
    const started = startUi(['--root', root, '--port', '0']);
    const url = new URL(await waitForUrl(started));
    expect(url.hostname).toBe('127.0.0.1');
    expect(started.stdout()).toContain(`serving the runs in ${root}`);
    expect(started.stderr()).not.toContain('warning: listening');
    const token = url.searchParams.get('token') ?? '';
    const api = new URL('/api/runs', url);
    const refused = await fetch(api);
    expect(refused.status).toBe(401);
    const listed = await fetch(api, { headers: { authorization: `token ${token}` } });
    expect(listed.status).toBe(200);
    const runs = (await listed.json()) as { name: string }[];
    expect(runs.map((run) => run.name)).toEqual(['cli run']);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('warns when asked to listen on more than loopback', async () => {
    const started = startUi(['--root', root, '--port', '0', '--host', '0.0.0.0']);
    await waitForUrl(started);
    expect(started.stderr()).toContain('warning: listening on 0.0.0.0, not only on this machine');
    started.child.kill('SIGTERM');
    await started.exited;
  });

  it('exits 2 naming --port for a bad port', async () => {
    const started = startUi(['--root', root, '--port', '70000']);
    expect(await started.exited).toBe(2);
    expect(started.stderr()).toContain('--port takes a whole number from 0 to 65535 (got "70000")');
  });

  it('exits 4 saying what to do when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const started = startUi(['--root', root, '--port', String(port)]);
      expect(await started.exited).toBe(4);
      expect(started.stderr()).toContain('pick another with --port N');
    } finally {
      blocker.close();
    }
  });
});
