import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventLogPath } from '../../src/runs/event-log-file.js';
import { createRun, type Run } from '../../src/runs/run.js';
import type { ModelPrompt } from '../../src/server/api-types.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { rawGet, readEventStream } from './http-client.js';

let root = '';
let ui: UiServer;
let run: Run;
let auth: Record<string, string> = {};
const prompt = 'The task, the research log and the last steps. '.repeat(200);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-ui-lean-'));
  run = createRun({ root, mode: 'implement', name: 'lean', argv: [] });
  run.emit({ type: 'step-start', step: 1 });
  run.emit({ type: 'llm-start', callId: 1, role: 'planner', model: 'scripted:a' });
  run.emit({
    type: 'llm-end',
    callId: 1,
    role: 'planner',
    model: 'scripted:a',
    system: 'You are a research assistant.',
    messages: [
      { role: 'user', content: prompt },
      { role: 'assistant', content: 'Thought: list' },
      { role: 'user', content: 'Go on.' },
    ],
    text: 'Action: List Files',
    usage: { inputTokens: 900, outputTokens: 20, cachedInputTokens: 0 },
    costUsd: null,
    latencyMs: 5,
    attempts: 1,
  });
  run.emit({
    type: 'step-end',
    step: 1,
    action: 'List Files',
    checkpoint: { history: prompt },
  });
  run.close('completed');
  ui = await startUiServer({ root, port: 0, appDirectory: join(root, 'no-app'), pollMs: 20 });
  auth = { authorization: `token ${ui.token}` };
});

afterAll(async () => {
  await ui.close();
  rmSync(root, { recursive: true, force: true });
});

const logLines = () => readFileSync(eventLogPath(run.dir), 'utf8').trim().split('\n');
const stream = (path: string) =>
  readEventStream(ui.port, path, auth, (messages) => messages.length === logLines().length);

describe('the lean event stream the page reads', () => {
  it('leaves out prompts and checkpoints, marks what it left out, and sends the rest as logged', async () => {
    const { messages } = await stream(`/api/runs/${run.id}/events?lean=1`);
    const lines = logLines();
    const events = messages.map((message) => JSON.parse(message.data) as Record<string, unknown>);
    const answer = events.find((event) => event.type === 'llm-end');
    expect(answer).toMatchObject({ messages: [], promptOmitted: true, text: 'Action: List Files' });
    expect(answer).not.toHaveProperty('system');
    const stepEnd = events.find((event) => event.type === 'step-end');
    expect(stepEnd).toMatchObject({ step: 1, action: 'List Files' });
    expect(stepEnd).not.toHaveProperty('checkpoint');
    const sent = messages.reduce((sum, message) => sum + message.data.length, 0);
    expect(sent).toBeLessThan(lines.join('').length / 5);
    // Every other event is the logged line itself.
    messages.forEach((message, index) => {
      if (!['llm-end', 'step-end'].includes(String(events[index]?.type))) {
        expect(message.data).toBe(lines[index]);
      }
    });
  });

  it('sends every event whole without ?lean=1', async () => {
    const { messages } = await stream(`/api/runs/${run.id}/events`);
    expect(messages.map((message) => message.data)).toEqual(logLines());
  });

  it('answers /prompt?seq= with what the call was sent', async () => {
    const seq = (JSON.parse(logLines()[3] ?? '{}') as { seq: number; type: string }).seq;
    const response = await rawGet(ui.port, `/api/runs/${run.id}/prompt?seq=${seq}`, auth);
    expect(response.status, response.body).toBe(200);
    const sent = JSON.parse(response.body) as ModelPrompt;
    expect(sent.system).toBe('You are a research assistant.');
    expect(sent.messages.map((message) => message.content)).toEqual([
      prompt,
      'Thought: list',
      'Go on.',
    ]);
  });

  it.each([
    ['seq=2', 404, 'step-start, not a model call'],
    ['seq=99', 404, 'no event 99'],
    ['seq=x', 400, 'needs ?seq=N'],
    ['', 400, 'needs ?seq=N'],
  ])('refuses /prompt?%s', async (query, status, message) => {
    const response = await rawGet(ui.port, `/api/runs/${run.id}/prompt?${query}`, auth);
    expect(response.status).toBe(status);
    expect(response.body).toContain(message);
  });
});
