// The server against a run folder that sandboxed code (or anyone who can write the runs
// folder) has tampered with: symbolic links where files should be, and a run-start whose pid
// now belongs to an unrelated process. Real server, real HTTP, real processes.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runningProcess } from '../../src/mcp/stop-run.js';
import { processStartTicks } from '../../src/runs/process-identity.js';
import type { Run } from '../../src/runs/run.js';
import type { RunDetail, RunEdits, RunListEntry } from '../../src/server/api-types.js';
import { appContentPolicy } from '../../src/server/content-policy.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet, readEventStream } from './http-client.js';
import { writeImplementRun } from './run-fixture.js';

let base = '';
let root = '';
let ui: UiServer;
let plain: Run;
let linkedLog: Run;
let auth: Record<string, string> = {};
const sleepers: ChildProcess[] = [];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-hostile-'));
  root = join(base, 'runs');
  mkdirSync(root);
  writeFileSync(
    join(base, 'secret.jsonl'),
    '{"seq":1,"time":"2026-01-01T00:00:00.000Z","type":"log","level":"info","message":"SECRET LINE"}\n',
  );
  plain = await writeImplementRun(root, 'plain');
  plain.close('completed', 'done');
  linkedLog = await writeImplementRun(root, 'linked log');
  linkedLog.close('completed', 'done');
  // The run's own log replaced by a link to a file elsewhere (as sandboxed code could do).
  unlinkSync(join(linkedLog.dir, 'events.jsonl'));
  symlinkSync(join(base, 'secret.jsonl'), join(linkedLog.dir, 'events.jsonl'));
  // A link inside the folder to a file inside the folder: still not followed.
  symlinkSync(join(plain.dir, 'result.json'), join(plain.dir, 'result-link.json'));
  const app = join(base, 'app');
  mkdirSync(join(app, 'assets'), { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>codify</title>');
  writeFileSync(join(app, 'assets', 'main-abc.js'), 'console.log(1)');
  ui = await startUiServer({ root, port: 0, appDirectory: app, pollMs: 20 });
  auth = { authorization: `token ${ui.token}` };
});

afterEach(() => {
  for (const sleeper of sleepers.splice(0)) sleeper.kill('SIGKILL');
});

afterAll(async () => {
  await ui.close();
  rmSync(base, { recursive: true, force: true });
});

const get = (path: string, headers = auth) => rawGet(ui.port, path, headers);

describe('symbolic links in a run folder', () => {
  it('refuses a run whose events.jsonl is a link: detail, event stream, and the list', async () => {
    const detail = await get(`/api/runs/${linkedLog.id}`);
    expect(detail.status).toBe(403);
    expect(detail.body).not.toContain('SECRET LINE');
    const stream = await readEventStream(
      ui.port,
      `/api/runs/${linkedLog.id}/events`,
      auth,
      () => true,
    );
    expect(stream.status).toBe(403);
    expect(stream.messages).toEqual([]);
    const list = JSON.parse((await get('/api/runs')).body) as RunListEntry[];
    expect(list.map((run) => run.id)).toEqual([plain.id]);
    // The plain run beside it is untouched.
    expect((await get(`/api/runs/${plain.id}`)).status).toBe(200);
  });

  it('refuses a link even when it points inside the run folder', async () => {
    const response = await get(`/api/runs/${plain.id}/file?path=result-link.json`);
    expect(response.status).toBe(403);
    expect(response.body).toContain('symbolic link');
    const real = await get(`/api/runs/${plain.id}/file?path=result.json`);
    expect(real.status).toBe(200);
  });

  it('skips one linked version in versions.json, with its reason, and shows the others', async () => {
    const run = await writeImplementRun(root, 'linked version');
    run.close('completed', 'done');
    const version = join(run.dir, 'versions', 'main.py', '1');
    unlinkSync(version);
    symlinkSync(join(base, 'secret.jsonl'), version);
    const response = await get(`/api/runs/${run.id}/edits`);
    expect(response.status, response.body).toBe(200);
    const edits = JSON.parse(response.body) as RunEdits;
    expect(edits.edits.map((edit) => `${edit.path}@${edit.version}`)).toEqual(['main.py@0']);
    expect(edits.skipped).toEqual([
      { path: 'main.py', version: 1, reason: expect.stringContaining('symbolic link') as string },
    ]);
    expect(response.body).not.toContain('SECRET LINE');
    rmSync(run.dir, { recursive: true });
  });
});

describe('a linked feedback folder', () => {
  it('is neither read nor answered into', async () => {
    const run = await writeImplementRun(root, 'linked feedback');
    const elsewhere = join(base, 'elsewhere-feedback');
    mkdirSync(elsewhere);
    writeFileSync(
      join(elsewhere, 'step-1.request.json'),
      JSON.stringify({ id: 'step-1', kind: 'approve', title: 'SECRET LINE', body: '' }),
    );
    symlinkSync(elsewhere, join(run.dir, 'feedback'));
    const list = await get(`/api/runs/${run.id}/feedback`);
    expect(list.status).toBe(403);
    expect(list.body).not.toContain('SECRET LINE');
    const answer = await rawGet(
      ui.port,
      `/api/runs/${run.id}/feedback/step-1`,
      { ...auth, 'content-type': 'application/json' },
      'POST',
    );
    expect(answer.status).toBe(403);
    expect(readdirSync(elsewhere)).toEqual(['step-1.request.json']);
    run.close('stopped');
    rmSync(run.dir, { recursive: true });
  });
});

describe('the content policy', () => {
  it('is on every response: the app, its assets, the API, errors', async () => {
    for (const [path, headers] of [
      ['/', {}],
      ['/assets/main-abc.js', {}],
      ['/api/runs', auth],
      ['/api/runs', {}],
      [`/api/runs/${plain.id}`, auth],
      ['/api/nothing', auth],
    ] as const) {
      const response = await get(path, headers);
      expect(response.headers['content-security-policy'], path).toBe(appContentPolicy);
    }
    expect(appContentPolicy).toContain("default-src 'self'");
    expect(appContentPolicy).toContain("img-src 'self' data:");
    expect(appContentPolicy).toContain("connect-src 'self'");
    expect(appContentPolicy).not.toMatch(/https?:|\*/);
  });
});

/** A run folder whose latest run-start names `pid`, recorded as the fields say. */
function runNamingProcess(name: string, fields: Record<string, unknown>): string {
  const id = `20260101-000000-${name}-abcdef`;
  const directory = join(root, id);
  mkdirSync(directory);
  const start = {
    seq: 1,
    time: new Date(Date.now() - 60_000).toISOString(),
    type: 'run-start',
    runId: id,
    mode: 'implement',
    name,
    argv: ['implement', name],
    models: {},
    host: hostname(),
    ...fields,
  };
  writeFileSync(join(directory, 'events.jsonl'), `${JSON.stringify(start)}\n`);
  return id;
}

async function startSleeper(): Promise<ChildProcess> {
  const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
  sleepers.push(sleeper);
  await new Promise((resolve) => sleeper.once('spawn', resolve));
  return sleeper;
}

const stop = (id: string) =>
  rawGet(ui.port, `/api/runs/${id}/stop`, { ...auth, 'content-type': 'application/json' }, 'POST');

const statusOf = async (id: string) =>
  (JSON.parse((await get(`/api/runs/${id}`)).body) as RunDetail).summary.status;

describe('a run-start whose pid another process now has', () => {
  it('is neither live nor signalled when the recorded process start differs', async () => {
    const sleeper = await startSleeper();
    const id = runNamingProcess('reused', { pid: sleeper.pid, processStart: '1' });
    expect(await statusOf(id)).toBe('killed');
    const response = await stop(id);
    expect(response.status).toBe(409);
    expect(() => runningProcess(join(root, id))).toThrow(/killed/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sleeper.exitCode).toBeNull();
    expect(sleeper.signalCode).toBeNull();
  });

  it('is neither live nor signalled, in a run recorded without a start, when the process began after the run', async () => {
    const sleeper = await startSleeper();
    const id = runNamingProcess('older', { pid: sleeper.pid });
    expect(await statusOf(id)).toBe('killed');
    expect((await stop(id)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sleeper.signalCode).toBeNull();
  });

  it('is live and stopped when it is the recorded process (the check lets the real one through)', async () => {
    const sleeper = await startSleeper();
    const start = processStartTicks(sleeper.pid ?? 0);
    expect(start).toMatch(/^\d+$/);
    const id = runNamingProcess('genuine', { pid: sleeper.pid, processStart: start });
    expect(await statusOf(id)).toBe('running');
    const exited = new Promise((resolve) =>
      sleeper.once('exit', (_code, signal) => resolve(signal)),
    );
    expect((await stop(id)).status).toBe(202);
    expect(await exited).toBe('SIGTERM');
  });
});

describe('a wildcard host', () => {
  it("prints this machine's addresses, not 0.0.0.0, and each one answers", async () => {
    const open = await startUiServer({
      root,
      host: '0.0.0.0',
      port: 0,
      appDirectory: join(base, 'app'),
    });
    try {
      expect(open.urls.length).toBeGreaterThan(0);
      for (const url of open.urls) {
        expect(url).not.toContain('0.0.0.0');
        expect(url).toMatch(new RegExp(`^http://[^/]+:${open.port}/\\?token=${open.token}$`));
      }
      expect(open.url).toBe(open.urls[0]);
      const address = new URL(open.url);
      const response = await fetch(`http://${address.host}/api/runs`, {
        headers: { authorization: `token ${open.token}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
