import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackAnswer, FeedbackRequest } from '../../src/runs/feedback.js';
import { answerFile, recordedFeedback, runFolderOnly } from '../../src/runs/feedback-folder.js';
import { createRun, type Run } from '../../src/runs/run.js';
import type { FeedbackEntry, RunListEntry } from '../../src/server/api-types.js';
import { launchArguments } from '../../src/server/run-launch-request.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet } from './http-client.js';

/**
 * Answering an interactive run through the API: the run waits on its folder (the real
 * channel code, as a run started from the page does), the POST writes the answer file.
 */
let root = '';
let ui: UiServer;
let auth: Record<string, string> = {};
let run: Run;

const stepRequest: FeedbackRequest = {
  id: 'step-1',
  kind: 'approve',
  title: 'step 1: List Files',
  body: 'Observation: a.py',
};
const pickRequest: FeedbackRequest = {
  id: 'experiments',
  kind: 'pick',
  title: 'the ideas to run as experiments',
  body: 'Proposed: I1',
  options: [
    { id: 'I1', label: 'Class-aware mixup' },
    { id: 'I2', label: 'Feature noise' },
  ],
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-ui-feedback-'));
  run = createRun({ root, mode: 'implement', name: 'asks', argv: [] });
  // Another run, whose folder a path trick would aim at.
  createRun({ root, mode: 'implement', name: 'other', argv: [] }).close('completed');
  writeFileSync(join(root, 'secret.request.json'), JSON.stringify(stepRequest));
  ui = await startUiServer({ root, port: 0, pollMs: 20 });
  auth = { authorization: `token ${ui.token}`, 'content-type': 'application/json' };
});

afterAll(async () => {
  run.close('completed');
  await ui.close();
  rmSync(root, { recursive: true, force: true });
});

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = auth,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: ui.port, path, method: 'POST', headers },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const waitFor = async (check: () => boolean) => {
  for (let tries = 0; tries < 300 && !check(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('POST /api/runs/ID/feedback/REQUEST', () => {
  it('answers a waiting request: the run gets the comment, the folder keeps it, GET lists it', async () => {
    const asked = recordedFeedback(run.dir, runFolderOnly, { pollMs: 20 }).ask(stepRequest);
    await waitFor(() => existsSync(join(run.dir, 'feedback', 'step-1.request.json')));
    const listed = await rawGet(ui.port, `/api/runs/${run.id}/feedback`, auth);
    expect(JSON.parse(listed.body)).toEqual([{ request: stepRequest }]);

    const path = `/api/runs/${run.id}/feedback/step-1`;
    expect((await post(path, { decision: 'comment', comment: 'x' }, {})).status).toBe(401);
    const comment: FeedbackAnswer = { decision: 'comment', comment: 'scale the features first' };
    const answered = await post(path, comment);
    expect(answered.status).toBe(202);
    expect(JSON.parse(answered.body)).toEqual({ runId: run.id });
    await expect(asked).resolves.toEqual(comment);

    // The first answer stands: a second one (another tab, the terminal) is refused.
    const again = await post(path, { decision: 'stop' });
    expect(again.status).toBe(409);
    expect(again.body).toContain('answered already');
    expect(JSON.parse(readFileSync(answerFile(run.dir, 'step-1'), 'utf8'))).toEqual(comment);
    const after = await rawGet(ui.port, `/api/runs/${run.id}/feedback`, auth);
    expect((JSON.parse(after.body) as FeedbackEntry[])[0]?.answer).toEqual(comment);
    // Nothing is left beside the answer (the temporary file is gone).
    expect(readdirSync(join(run.dir, 'feedback')).sort()).toEqual([
      'step-1.answer.json',
      'step-1.request.json',
    ]);
  });

  it('refuses bad bodies and answers that do not fit the request', async () => {
    const asked = recordedFeedback(run.dir, runFolderOnly, { pollMs: 20 }).ask(pickRequest);
    await waitFor(() => existsSync(join(run.dir, 'feedback', 'experiments.request.json')));
    const path = `/api/runs/${run.id}/feedback/experiments`;
    const listed = async () =>
      (JSON.parse((await rawGet(ui.port, '/api/runs', auth)).body) as RunListEntry[]).find(
        (entry) => entry.id === run.id,
      )?.waiting;
    expect(await listed()).toEqual(['experiments']);
    const cases: [unknown, number, string][] = [
      ['{not json', 400, 'not valid JSON'],
      [{ decision: 'maybe' }, 400, 'not an answer'],
      [{ decision: 'comment', comment: '' }, 400, 'comment'],
      [{ decision: 'pick', picked: [] }, 400, 'picked'],
      [{ decision: 'pick', picked: ['I9'] }, 400, 'no option I9'],
      [{ decision: 'edit', text: 'new text' }, 400, 'asks to pick'],
      [[1, 2], 400, 'not an answer'],
    ];
    for (const [body, status, message] of cases) {
      const response = await post(path, body);
      expect([response.status, response.body]).toEqual([status, expect.stringContaining(message)]);
    }
    expect(existsSync(answerFile(run.dir, 'experiments'))).toBe(false);
    const asText = await post(
      path,
      { decision: 'pick', picked: ['I2'] },
      {
        authorization: auth.authorization ?? '',
        'content-type': 'text/plain',
      },
    );
    expect(asText.status).toBe(415);
    const elsewhere = await post(
      path,
      { decision: 'pick', picked: ['I2'] },
      { ...auth, origin: 'http://evil.example' },
    );
    expect(elsewhere.status).toBe(403);
    expect((await post(path, { decision: 'pick', picked: ['I2'] })).status).toBe(202);
    await expect(asked).resolves.toEqual({ decision: 'pick', picked: ['I2'] });
    expect(await listed()).toBeUndefined();
  });

  it('refuses requests the run never made, and path tricks in the run or request id', async () => {
    const unknown = await post(`/api/runs/${run.id}/feedback/step-9`, { decision: 'approve' });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toContain('has not asked');
    const tricks: [string, number][] = [
      // URL parsing removes dot segments, encoded or not: these reach no route.
      [`/api/runs/${run.id}/feedback/..`, 404],
      [`/api/runs/${run.id}/feedback/%2e%2e`, 404],
      [`/api/runs/${run.id}/feedback/..%2F..%2Fsecret`, 400],
      [`/api/runs/${run.id}/feedback/..%2Fsecret`, 400],
      [`/api/runs/${run.id}/feedback/.hidden`, 400],
      [`/api/runs/${run.id}/feedback/step-1%00`, 400],
      [`/api/runs/..%2F${run.id}/feedback/step-1`, 400],
      ['/api/runs/../feedback/secret', 404],
      ['/api/runs/%2e%2e/feedback/secret', 404],
      [`/api/runs/${run.id}/feedback/a..b`, 400],
      [`/api/runs/${run.id}/feedback/step-1/more`, 404],
    ];
    const statuses: [string, number][] = [];
    for (const [path] of tricks) {
      statuses.push([path, (await post(path, { decision: 'approve' })).status]);
    }
    expect(statuses).toEqual(tricks);
    // Nothing was written anywhere but the one answered request.
    expect(readdirSync(root).filter((name) => name.endsWith('.json'))).toEqual([
      'secret.request.json',
    ]);
    expect(existsSync(answerFile(run.dir, 'step-9'))).toBe(false);
  });

  it('starts runs from the page with --interactive when asked', () => {
    const task = tmpdir();
    expect(launchArguments({ mode: 'implement', task, interactive: true }, '/')).toEqual([
      'implement',
      task,
      '--interactive',
    ]);
    expect(launchArguments({ mode: 'implement', task, interactive: false }, '/')).toEqual([
      'implement',
      task,
    ]);
    expect(() => launchArguments({ mode: 'implement', task, interactive: 'yes' }, '/')).toThrow(
      'interactive (--interactive): Invalid input: expected boolean',
    );
  });

  it('starts explorations from the page, with their experiments and gates', () => {
    const root = process.cwd();
    const paper = join(root, 'examples/explore/paper.md');
    const code = join(root, 'examples/explore/prototype');
    expect(
      launchArguments(
        {
          mode: 'explore',
          papers: ['examples/explore/paper.md'],
          related: 'examples/explore/related.txt',
          ideas: 2,
          refineRounds: 0,
          run: 'top:1',
          code: 'examples/explore/prototype',
          maxSteps: 4,
          interactive: true,
        },
        root,
      ),
    ).toEqual([
      'explore',
      paper,
      '--related',
      join(root, 'examples/explore/related.txt'),
      '--ideas',
      '2',
      '--refine-rounds',
      '0',
      '--run',
      'top:1',
      '--code',
      code,
      '--max-steps',
      '4',
      '--interactive',
    ]);
    const refused = (body: Record<string, unknown>) => () =>
      launchArguments({ mode: 'explore', papers: [paper], ...body }, root);
    expect(refused({ run: 'top:1' })).toThrow('run (--run) needs code');
    expect(refused({ run: 'all', code })).toThrow('all: give top:K, a number K, or idea ids');
    expect(refused({ ideas: 21 })).toThrow('ideas (--ideas): takes a whole number from 1 to 20');
    expect(refused({ related: 'no/such/file' })).toThrow('does not exist on this machine');
    expect(refused({ code: '--help', run: '1' })).toThrow('does not exist on this machine');
  });
});
