import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import { roleNames } from '../../src/llm/types.js';

/** A separate program that answers every prompt it finds, the way a script driving codify would. */
const answeringProgram = `
const fs = require('node:fs');
const path = require('node:path');
const folder = process.argv[1];
const wanted = Number(process.argv[2]);
const answered = new Set();
const timer = setInterval(() => {
  for (const name of fs.readdirSync(folder)) {
    if (!name.endsWith('.request.json') || answered.has(name)) continue;
    const request = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8'));
    const last = request.messages[request.messages.length - 1].content;
    const temporary = request.response + '.tmp';
    fs.writeFileSync(temporary, 'answer from ' + process.pid + ' to ' + request.role + ': ' + last.toUpperCase() + '\\n');
    fs.renameSync(temporary, request.response);
    answered.add(name);
    if (answered.size === wanted) { clearInterval(timer); }
  }
}, 20);
`;

const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  }
});

function exchangeCaller(folder: string, timeoutMs?: number, stableMs = 300) {
  const config = defaultConfig();
  for (const role of roleNames) config.roles[role].models = [`exchange:${folder}`];
  config.exchange = {
    pollMs: 50,
    stableMs,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  return createModelCaller(config, { env: {} });
}

describe('exchange:DIR', () => {
  it('is answered by another process, two calls in a row', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-'));
    const child = spawn(process.execPath, ['-e', answeringProgram, folder, '2'], {
      stdio: 'ignore',
    });
    if (child.pid !== undefined) children.push(child.pid);
    // Answers that arrive by rename are taken at once, without the 2 s stability wait.
    const caller = exchangeCaller(folder, 15_000, 2000);
    const first = await caller.call({
      role: 'planner',
      system: 'You plan experiments.',
      messages: [{ role: 'user', content: 'first question' }],
      expect: 'One line: the next action.',
      label: 'step 1',
    });
    const second = await caller.call({
      role: 'worker',
      messages: [{ role: 'user', content: 'second question' }],
    });
    expect(first.text).toBe(`answer from ${child.pid} to planner: FIRST QUESTION`);
    expect(second.text).toBe(`answer from ${child.pid} to worker: SECOND QUESTION`);
    expect(second.latencyMs).toBeLessThan(1500);
    expect(first.costUsd).toBe(0);
    expect(first.usage.outputTokens).toBeGreaterThan(0);

    const prompt = readFileSync(join(folder, '0001-planner.prompt.md'), 'utf8');
    expect(prompt).toContain('You plan experiments.');
    expect(prompt).toContain('One line: the next action.');
    expect(prompt).toContain(join(folder, '0001-planner.response.md'));
    const request: unknown = JSON.parse(
      readFileSync(join(folder, '0002-worker.request.json'), 'utf8'),
    );
    expect(request).toMatchObject({
      role: 'worker',
      system: null,
      temperature: 0.2,
      messages: [{ role: 'user', content: 'second question' }],
    });
  });

  it('says when a request repeats an earlier one, so a repeat sampled at a temperature is answered afresh', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-'));
    const child = spawn(process.execPath, ['-e', answeringProgram, folder, '3'], {
      stdio: 'ignore',
    });
    if (child.pid !== undefined) children.push(child.pid);
    const caller = exchangeCaller(folder, 15_000);
    const review = {
      role: 'judge' as const,
      system: 'You review proposals.',
      messages: [{ role: 'user' as const, content: 'review it' }],
      temperature: 0.75,
    };
    await caller.call(review);
    await caller.call(review);
    await caller.call({ ...review, messages: [{ role: 'user', content: 'another proposal' }] });
    const prompt = (number: string) =>
      readFileSync(join(folder, `${number}-judge.prompt.md`), 'utf8');
    expect(prompt('0001')).not.toContain('identical to request');
    expect(prompt('0002')).toContain(
      'This request is identical to request 0001: codify asks again for an independent answer',
    );
    expect(prompt('0003')).not.toContain('identical to request');
  });

  it('waits for a file written in place to stop growing, and numbers after existing files', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-'));
    writeFileSync(join(folder, '0041-judge.prompt.md'), 'from an earlier run');
    const caller = exchangeCaller(folder, 10_000);
    const pending = caller.call({
      role: 'judge',
      messages: [{ role: 'user', content: 'grade it' }],
    });
    const response = join(folder, '0042-judge.response.md');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(join(folder, '0042-judge.prompt.md'))).toBe(true);
    // A person typing: the file grows in three pieces, 150 ms apart.
    const handle = openSync(response, 'w');
    writeSync(handle, 'Score: ');
    await new Promise((resolve) => setTimeout(resolve, 150));
    writeSync(handle, '7 ');
    await new Promise((resolve) => setTimeout(resolve, 150));
    writeSync(handle, 'out of 10');
    closeSync(handle);
    const answer = await pending;
    expect(answer.text).toBe('Score: 7 out of 10');
  });

  it('gives up after its timeout with a message naming the response file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-'));
    const caller = exchangeCaller(folder, 300);
    await expect(
      caller.call({ role: 'summarizer', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/no complete answer in .*0001-summarizer\.response\.md after 300 ms/);
  });

  it('stops waiting when cancelled', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-'));
    const caller = exchangeCaller(folder);
    const controller = new AbortController();
    const pending = caller.call({
      role: 'expert',
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('stopped by the user')), 100);
    await expect(pending).rejects.toThrow('stopped by the user');
  });
});
