import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, type Run } from '../../src/runs/run.js';
import type { RunDetail } from '../../src/server/api-types.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet } from './http-client.js';

/**
 * An evaluation keeps its runs inside its own folder (`eval-x/runs/ITEM/…/RUN`); the API
 * names such a run by its path from the root, sent as one segment (`/` as %2F).
 */
let base = '';
let root = '';
let ui: UiServer;
let nested: Run;
let auth: Record<string, string> = {};
const nestedId = () => nested.dir.slice(root.length + 1);

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-nested-'));
  root = join(base, 'runs');
  createRun({ root, mode: 'eval', name: 'suite', argv: [] }).close('completed');
  const evalDir = join(root, 'eval-suite');
  mkdirSync(join(evalDir, 'runs', 'toy', 'agent', 'trial-1'), { recursive: true });
  nested = createRun({
    root: join(evalDir, 'runs', 'toy', 'agent', 'trial-1'),
    mode: 'implement',
    name: 'toy',
    argv: [],
  });
  nested.close('completed', 'done');
  // A run elsewhere, and a link to it from inside the evaluation.
  const outside = createRun({
    root: join(base, 'elsewhere'),
    mode: 'implement',
    name: 'x',
    argv: [],
  });
  outside.close('completed');
  symlinkSync(outside.dir, join(evalDir, 'runs', 'toy', 'linked'));
  ui = await startUiServer({ root, port: 0, pollMs: 20 });
  auth = { authorization: `token ${ui.token}` };
});

afterAll(async () => {
  await ui.close();
  rmSync(base, { recursive: true, force: true });
});

describe('runs nested in an evaluation folder', () => {
  it('serves a nested run by its path from the root', async () => {
    const response = await rawGet(ui.port, `/api/runs/${encodeURIComponent(nestedId())}`, auth);
    expect(response.status).toBe(200);
    const detail = JSON.parse(response.body) as RunDetail;
    expect(detail.summary).toMatchObject({ mode: 'implement', status: 'completed' });
    const events = await rawGet(ui.port, `/api/runs/${encodeURIComponent(nestedId())}/files`, auth);
    expect(events.status).toBe(200);
  });

  it('refuses dot segments, links out, and more depth than an evaluation has', async () => {
    const ids: [string, number][] = [
      [`eval-suite%2F..%2F..%2Felsewhere`, 400],
      [`eval-suite%2Fruns%2Ftoy%2Flinked`, 403],
      [`eval-suite%2F.hidden`, 400],
      [`eval-suite%2F%2Fruns`, 400],
      [`%2Fetc`, 400],
      [Array.from({ length: 9 }, () => 'a').join('%2F'), 400],
    ];
    const statuses: [string, number][] = [];
    for (const [id] of ids)
      statuses.push([id, (await rawGet(ui.port, `/api/runs/${id}`, auth)).status]);
    expect(statuses).toEqual(ids);
  });

  it('will not resume a run of an evaluation from the page', async () => {
    const failed = createRun({
      root: join(nested.dir, '..'),
      mode: 'implement',
      name: 'failed',
      argv: [],
    });
    failed.close('failed', 'crashed');
    const id = encodeURIComponent(failed.dir.slice(root.length + 1));
    const response = await rawGet(
      ui.port,
      `/api/runs/${id}/resume`,
      { ...auth, 'content-type': 'application/json' },
      'POST',
    );
    expect(response.status).toBe(409);
    expect(response.body).toContain('codify eval');
  });
});
