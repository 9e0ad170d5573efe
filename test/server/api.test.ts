import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/runs/run.js';
import type {
  RunDetail,
  RunEdits,
  RunFileList,
  RunListEntry,
  RunTraces,
} from '../../src/server/api-types.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet, readEventStream } from './http-client.js';
import { editedScript, writeImplementRun } from './run-fixture.js';

let base = '';
let root = '';
let ui: UiServer;
let finished: Run;
let live: Run;
let auth: Record<string, string> = {};

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-api-'));
  root = join(base, 'runs');
  mkdirSync(root);
  writeFileSync(join(base, 'secret.txt'), 'outside the runs folder');
  finished = await writeImplementRun(root, 'digits');
  finished.close('completed', 'the agent gave its final answer');
  live = await writeImplementRun(root, 'live one');
  // A link inside a run that points out of the runs folder.
  symlinkSync(join(base, 'secret.txt'), join(finished.dir, 'workspace', 'leak.txt'));
  // A run-looking folder outside the root, linked into it.
  mkdirSync(join(base, 'elsewhere'));
  writeFileSync(join(base, 'elsewhere', 'events.jsonl'), '');
  symlinkSync(join(base, 'elsewhere'), join(root, 'linked-run'));
  const app = join(base, 'app');
  mkdirSync(join(app, 'assets'), { recursive: true });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>codify</title>');
  writeFileSync(join(app, 'assets', 'main-abc.js'), 'console.log(1)');
  ui = await startUiServer({ root, port: 0, appDirectory: app, pollMs: 20 });
  auth = { authorization: `token ${ui.token}` };
});

afterAll(async () => {
  await ui.close();
  live.close('stopped');
  rmSync(base, { recursive: true, force: true });
});

const get = (path: string, headers = auth) => rawGet(ui.port, path, headers);
const json = async <T>(path: string): Promise<T> => {
  const response = await get(path);
  expect(response.status, response.body).toBe(200);
  return JSON.parse(response.body) as T;
};
const fileUrl = (run: Run, path: string) =>
  `/api/runs/${run.id}/file?path=${encodeURIComponent(path)}`;

describe('the access token', () => {
  it('listens on loopback and prints a URL carrying a long random token', () => {
    expect(ui.host).toBe('127.0.0.1');
    expect(ui.token).toMatch(/^[0-9a-f]{48}$/);
    expect(ui.url).toBe(`http://127.0.0.1:${ui.port}/?token=${ui.token}`);
  });

  it.each([
    '/api/runs',
    `/api/runs/RUN`,
    `/api/runs/RUN/events`,
    `/api/runs/RUN/files`,
    `/api/runs/RUN/file?path=result.json`,
    `/api/runs/RUN/edits`,
    `/api/runs/RUN/traces`,
  ])(
    'refuses %s without the token, with a wrong one, and with it as a cookie',
    async (template) => {
      const path = template.replace('RUN', finished.id);
      const without = await get(path, {});
      expect(without.status).toBe(401);
      expect(without.body).toContain('codify ui');
      const wrong = await get(path, { authorization: `token ${'0'.repeat(48)}` });
      expect(wrong.status).toBe(401);
      // A cookie would reach every other server on 127.0.0.1: it is never a credential.
      const cookie = await get(path, { cookie: `codify-ui-token=${ui.token}` });
      expect(cookie.status).toBe(401);
    },
  );

  it('serves the app itself (the same public files for everyone) without the token, and sets no cookie', async () => {
    for (const path of ['/', '/assets/main-abc.js', `/?token=${ui.token}`]) {
      const response = await get(path, {});
      expect(response.status, path).toBe(200);
      expect(response.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('takes the token as a header or in the query', async () => {
    const bearer = await get('/api/runs', { authorization: `Bearer ${ui.token}` });
    expect(bearer.status).toBe(200);
    const query = await get(`/api/runs?token=${ui.token}`, {});
    expect(query.status).toBe(200);
    expect(query.headers['set-cookie']).toBeUndefined();
  });
});

describe('GET /api/runs', () => {
  it('lists the runs newest first with mode, name, status, totals and times, never a folder path', async () => {
    const runs = await json<RunListEntry[]>('/api/runs');
    expect(runs.map((run) => run.id)).toEqual([live.id, finished.id]);
    const [running, done] = runs;
    expect(running).toMatchObject({ name: 'live one', mode: 'implement', status: 'running' });
    expect(done).toMatchObject({
      name: 'digits',
      mode: 'implement',
      status: 'completed',
      outcome: 'accuracy 0.91 (starter 0.88)',
    });
    expect(done?.totals).toMatchObject({
      steps: 1,
      llmCalls: 1,
      inputTokens: 1200,
      outputTokens: 80,
    });
    expect(done?.totals.costUsd).toBeCloseTo(0.002);
    expect(Date.parse(done?.startedAt ?? '')).not.toBeNaN();
    expect(JSON.stringify(runs)).not.toContain(root);
  });
});

describe('GET /api/runs/:id', () => {
  it("answers the run's summary and every event of its log", async () => {
    const detail = await json<RunDetail>(`/api/runs/${finished.id}`);
    expect(detail.summary.status).toBe('completed');
    expect(detail.events.map((event) => event.type)).toEqual([
      'run-start',
      'step-start',
      'llm-end',
      'planner-answer',
      'action-start',
      'action-end',
      'step-end',
      'run-end',
    ]);
    expect(detail.problems).toEqual([]);
  });

  it('answers 404 naming the run for an unknown id, and 400 for something that is no id', async () => {
    const unknown = await get('/api/runs/20990101-000000-nothing-000000');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({
      error: expect.stringContaining('no run "20990101-000000-nothing-000000"') as string,
    });
    for (const id of ['..', '%2e%2e', '.hidden', 'a%2F..%2F..']) {
      const response = await get(`/api/runs/${id}`);
      expect(response.status, id).toBeGreaterThanOrEqual(400);
      expect(response.status, id).toBeLessThan(500);
    }
  });

  it('refuses a run folder that is a link to a folder outside the root', async () => {
    const response = await get('/api/runs/linked-run');
    expect(response.status).toBe(403);
    expect(response.body).toContain('symbolic link');
  });

  it('answers 404 for routes it does not have and 405 for methods it does not take', async () => {
    expect((await get(`/api/runs/${finished.id}/nothing`)).status).toBe(404);
    expect((await get('/api/other')).status).toBe(404);
    expect((await rawGet(ui.port, '/api/runs', auth, 'PUT')).status).toBe(405);
    expect((await rawGet(ui.port, '/api/runs', auth, 'DELETE')).status).toBe(405);
    expect((await rawGet(ui.port, '/', auth, 'POST')).status).toBe(405);
  });
});

describe('GET /api/runs/:id/files and /file', () => {
  it("lists the run's files by relative path, without links that lead outside", async () => {
    const list = await json<RunFileList>(`/api/runs/${finished.id}/files`);
    const paths = list.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'events.jsonl',
        'research_log.md',
        'result.json',
        'versions.json',
        'versions/main.py/0',
        'versions/main.py/1',
        'workspace/main.py',
        'workspace/main_execution_trace.cover',
      ]),
    );
    expect(paths).not.toContain('workspace/leak.txt');
    expect(list.truncated).toBe(false);
  });

  it('sends a file as plain text that may never run as a page', async () => {
    const response = await get(fileUrl(finished, 'workspace/main.py'));
    expect(response.status).toBe(200);
    expect(response.body).toBe(editedScript);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['../' + 'RUN2/events.jsonl', 403],
    ['../../secret.txt', 403],
    ['workspace/../../../secret.txt', 403],
    ['/etc/passwd', 403],
    ['workspace/leak.txt', 403],
    ['', 400],
    ['workspace', 400],
    ['workspace/missing.py', 404],
  ])('refuses path=%s with %i', async (path, status) => {
    const response = await get(fileUrl(finished, path.replace('RUN2', live.id)));
    expect(response.status).toBe(status);
    expect(response.body).not.toContain('outside the runs folder');
    expect(JSON.parse(response.body)).toHaveProperty('error');
  });

  it('refuses traversal however it is encoded', async () => {
    for (const path of [
      `/api/runs/${finished.id}/file?path=%2e%2e%2f%2e%2e%2fsecret.txt`,
      `/api/runs/${finished.id}/file?path=%2E%2E/%2E%2E/secret.txt`,
      `/api/runs/${finished.id}/file?path=..%5c..%5csecret.txt`,
      `/api/runs/${finished.id}/file?path=%2fetc%2fpasswd`,
      `/api/runs/..%2f..%2fsecret.txt/file?path=x`,
      `/api/runs/%2e%2e/file?path=secret.txt`,
      `/api/runs/${finished.id}/%2e%2e/%2e%2e/secret.txt`,
      `/api/runs/${finished.id}/file?path=workspace%00/main.py`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.body, path).not.toContain('outside the runs folder');
    }
  });

  it('refuses a badly percent-encoded path with 400', async () => {
    expect((await get('/api/runs/%E0%A4%A')).status).toBe(400);
  });
});

describe('GET /api/runs/:id/edits and /traces', () => {
  it('answers every saved version with its diff from the one before', async () => {
    const { edits } = await json<RunEdits>(`/api/runs/${finished.id}/edits`);
    expect(edits.map((edit) => [edit.path, edit.version])).toEqual([
      ['main.py', 0],
      ['main.py', 1],
    ]);
    const edit = edits[1];
    expect(edit?.reason).toBe('Edit Script: add a function');
    expect(edit?.diff).toContain('+def unused():');
    expect(edit?.diff).toContain('-print("starter")');
    expect(edit).toMatchObject({ added: 6, removed: 1, undone: false });
  });

  it("answers each script's line trace with counts and never-ran lines", async () => {
    const { traces } = await json<RunTraces>(`/api/runs/${finished.id}/traces`);
    expect(traces).toHaveLength(1);
    const [trace] = traces;
    expect(trace?.script).toBe('main.py');
    expect(trace?.lines.slice(0, 5)).toEqual([
      { line: 1, text: 'import sys', count: 1 },
      { line: 2, text: '', count: null },
      { line: 3, text: '', count: null },
      { line: 4, text: 'def unused():', count: 1 },
      { line: 5, text: '    return 1', count: 0 },
    ]);
  });
});

describe('GET /api/runs/:id/events (server-sent events)', () => {
  it('sends the events already logged, then each one appended by another writer', async () => {
    const { status, messages } = await readEventStream(
      ui.port,
      `/api/runs/${live.id}/events`,
      auth,
      (received) => received.some((message) => message.data.includes('"appended while watched"')),
      () => {
        setTimeout(
          () => live.emit({ type: 'log', level: 'info', message: 'appended while watched' }),
          100,
        );
      },
    );
    expect(status).toBe(200);
    const types = messages.map((message) => (JSON.parse(message.data) as { type: string }).type);
    expect(types.slice(0, 3)).toEqual(['run-start', 'step-start', 'llm-end']);
    expect(types.at(-1)).toBe('log');
    expect(messages.map((message) => message.id)).toEqual(
      messages.map((_, index) => String(index + 1)),
    );
  });

  it('continues after Last-Event-ID instead of sending everything again', async () => {
    const { messages } = await readEventStream(
      ui.port,
      `/api/runs/${finished.id}/events`,
      { ...auth, 'last-event-id': '6' },
      (received) => received.length >= 2,
    );
    expect(messages.map((message) => message.id)).toEqual(['7', '8']);
    expect(JSON.parse(messages[1]?.data ?? '{}')).toMatchObject({ type: 'run-end' });
  });
});

describe('the app', () => {
  it('serves index.html for the root and for every page address, and built assets by name', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toContain('<title>codify</title>');
    expect((await get(`/runs/${finished.id}`)).body).toContain('<title>codify</title>');
    const asset = await get('/assets/main-abc.js');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.body).toBe('console.log(1)');
  });

  it('never serves a file outside the app folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/%2e%2e/secret.txt', '/..%2f..%2fsecret.txt']) {
      const response = await get(path);
      expect(response.body, path).not.toContain('outside the runs folder');
    }
  });

  it('says how to build the app when it is not built', async () => {
    const bare = await startUiServer({ root, port: 0, appDirectory: join(base, 'no-app') });
    try {
      const response = await rawGet(bare.port, '/', { authorization: `token ${bare.token}` });
      expect(response.status).toBe(503);
      expect(response.body).toContain('npm run build');
      const api = await rawGet(bare.port, '/api/runs', { authorization: `token ${bare.token}` });
      expect(api.status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
