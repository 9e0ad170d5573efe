import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { truncateMiddle } from '../../src/agent/actions/truncate-text.js';
import { createRun, type Run } from '../../src/runs/run.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { VersionStore } from '../../src/workspace/version-store.js';
import { launchChromium } from './chromium-context.js';

/**
 * What the run page shows for runs written by the real run code: a stopped run, a run of
 * one single call, a long run's metric chart, an edit whose reason the store cut short.
 * Screenshots go to test-output/web/.
 */
const repository = resolve(import.meta.dirname, '../..');
const screenshots = join(repository, 'test-output', 'web');
let base = '';
let ui: UiServer;
let browser: BrowserContext;
let stopped: Run;
let singleCall: Run;
let longRun: Run;
let edited: Run;
const instruction = `Replace the model with a two-layer MLP. ${'Keep the data loading as it is and explain every change. '.repeat(12)}Print the accuracy last.`;

const usage = { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 0 };

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-shows-'));
  const root = join(base, 'runs');
  mkdirSync(root);
  mkdirSync(screenshots, { recursive: true });

  stopped = createRun({ root, mode: 'implement', name: 'stopped mid-step', argv: [] });
  stopped.emit({ type: 'step-start', step: 1 });
  stopped.emit({
    type: 'planner-answer',
    step: 1,
    level: 0,
    valid: true,
    fields: { Thought: 'first thought' },
  });
  stopped.close('stopped', 'stopped from the page');

  singleCall = createRun({ root, mode: 'implement', name: 'one call', argv: [] });
  singleCall.emit({ type: 'step-start', step: 1 });
  singleCall.emit({ type: 'llm-start', callId: 1, role: 'planner', model: 'scripted:a' });
  singleCall.emit({
    type: 'llm-end',
    callId: 1,
    role: 'planner',
    model: 'scripted:a',
    messages: [{ role: 'user', content: 'write it' }],
    text: 'done',
    usage,
    costUsd: 0.002,
    latencyMs: 900,
    attempts: 1,
  });
  singleCall.emit({ type: 'step-end', step: 1, action: 'single call' });
  singleCall.close('completed', 'the single call answered');

  longRun = createRun({ root, mode: 'implement', name: 'three hundred executions', argv: [] });
  for (let execution = 1; execution <= 300; execution += 1) {
    longRun.emit({
      type: 'execution-end',
      script: 'train.py',
      args: [],
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 10,
      metric: 0.8 + 0.1 * Math.sin(execution / 20),
    });
  }
  longRun.close('completed', 'done');

  edited = createRun({ root, mode: 'implement', name: 'a long edit', argv: [] });
  edited.emit({ type: 'step-start', step: 1 });
  edited.emit({
    type: 'action-start',
    step: 1,
    action: 'Edit Script',
    input: { script_name: 'main.py', edit_instruction: instruction },
  });
  const versions = await VersionStore.open(edited.dir);
  await versions.record(
    'main.py',
    'print(1)\n',
    'print(2)\n',
    `Edit Script: ${truncateMiddle(instruction, 200)}`,
  );
  edited.emit({ type: 'step-end', step: 1, action: 'Edit Script' });
  edited.close('completed', 'done');
  writeFileSync(join(edited.dir, 'research_log.md'), '');

  const app = await ensureWebAppBuilt();
  ui = await startUiServer({ root, port: 0, pollMs: 50, appDirectory: app });
  browser = await launchChromium(join(base, 'chromium'));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  rmSync(base, { recursive: true, force: true });
});

async function openRun(runId: string, tab?: string): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(ui.url);
  const hash = `#/runs/${encodeURIComponent(runId)}${tab === undefined ? '' : `/${tab}`}`;
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await expect.poll(() => page.locator('.run-facts .status').textContent()).not.toBe('connecting');
  expect(errors).toEqual([]);
  return page;
}

const facts = (page: Page) => page.locator('.run-facts .total').allTextContents();

describe('what the run page shows', () => {
  it("a stopped run's unfinished step is cut short, not in progress, and nothing streams", async () => {
    const page = await openRun(stopped.id);
    expect(await page.locator('.run-facts .status').textContent()).toBe('stopped');
    const card = page.locator('.step-card');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('.step-cut-short').textContent()).toBe(
      'stopped before the step ended',
    );
    expect(await card.textContent()).not.toContain('in progress');
    expect(await card.textContent()).not.toContain('thinking…');
    expect(await page.locator('.run-facts .stream').count()).toBe(0);
    expect(await facts(page)).toEqual(['0 steps', '0 model calls', '0 tokens', '$0']);
    await page.screenshot({ path: join(screenshots, 'implement-stopped.png') });
    await page.close();
  });

  it("a killed run's last step (its process gone, no end written) is not in progress", async () => {
    // The run-start names this very process, but a start it never had: another process.
    const id = '20260101-000000-killed-mid-step-abcdef';
    const directory = join(base, 'runs', id);
    mkdirSync(directory);
    const lines = [
      {
        type: 'run-start',
        runId: id,
        mode: 'implement',
        name: 'killed mid-step',
        argv: [],
        models: {},
        pid: process.pid,
        processStart: '1',
        host: hostname(),
      },
      { type: 'step-start', step: 1 },
    ].map((body, index) =>
      JSON.stringify({ seq: index + 1, time: new Date().toISOString(), ...body }),
    );
    writeFileSync(join(directory, 'events.jsonl'), `${lines.join('\n')}\n`);
    const page = await openRun(id);
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('killed');
    await expect
      .poll(() => page.locator('.step-card .step-cut-short').textContent())
      .toBe('killed before the step ended');
    expect(await page.locator('.step-card').textContent()).not.toContain('in progress');
    await page.close();
  });

  it("a single-call run's budgets and totals count its call, in the singular", async () => {
    const page = await openRun(singleCall.id);
    await expect
      .poll(() => facts(page))
      .toEqual(['1 step', '1 model call', '1.28k tokens', '$0.0020']);
    const budget = (name: string) =>
      page.locator('.budget').filter({ hasText: name }).locator('.budget-value').textContent();
    await expect.poll(() => budget('steps')).toMatch(/^1( of \d+)?$/);
    expect(await budget('tokens')).toMatch(/^1\.28k/);
    expect(await budget('cost')).toMatch(/^\$0\.002/);
    expect(await page.locator('.step-card header').textContent()).toContain('1 model call,');
    await page.screenshot({ path: join(screenshots, 'implement-single-call.png') });
    await page.close();
  });

  it('labels a 300-execution metric chart without overlapping numbers', async () => {
    const page = await openRun(longRun.id);
    // Every execution in first (the log streams in), then the labels are final.
    await expect.poll(() => page.locator('.metric-chart .metric-point').count()).toBe(300);
    const ticks = page.locator('.metric-chart .execution-tick');
    expect(await ticks.count()).toBeLessThanOrEqual(9);
    const boxes: { x: number; width: number }[] = [];
    for (const tick of await ticks.all()) {
      const box = await tick.boundingBox();
      if (box !== null) boxes.push(box);
    }
    expect(boxes.length).toBe(await ticks.count());
    // Each label ends before the next begins.
    boxes.reduce((left, right) => {
      expect(left.x + left.width).toBeLessThan(right.x);
      return right;
    });
    await page
      .locator('.metric-chart')
      .screenshot({ path: join(screenshots, 'metric-chart-300.png') });
    await page.close();
  });

  it("opens an edit's cut reason to the whole instruction", async () => {
    const page = await openRun(edited.id, 'edits');
    const reason = page.locator('article.edit details.edit-reason');
    await expect.poll(() => reason.count()).toBe(1);
    expect(await reason.locator('.edit-reason-full').isVisible()).toBe(false);
    await reason.locator('summary').click();
    expect(await reason.locator('.edit-reason-full').textContent()).toBe(
      `Edit Script: ${instruction}`,
    );
    await page.screenshot({ path: join(screenshots, 'implement-edit-reason.png') });
    await page.close();
  });

  it('asks before stopping a live run', async () => {
    const live = createRun({ root: join(base, 'runs'), mode: 'implement', name: 'live', argv: [] });
    const page = await openRun(live.id);
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('live');
    expect(await page.locator('.run-facts .stream').count()).toBe(1);
    await page.click('.run-controls button:has-text("Stop")');
    expect(await page.locator('.confirm-stop').textContent()).toContain('Stop this run?');
    await page.screenshot({ path: join(screenshots, 'confirm-stop.png') });
    await page.click('.confirm-stop button:has-text("Cancel")');
    expect(await page.locator('.confirm-stop').count()).toBe(0);
    expect(await page.locator('.run-facts .status').textContent()).toBe('live');
    live.close('completed', 'done');
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('completed');
    expect(await page.locator('.run-facts .stream').count()).toBe(0);
    await page.close();
  });
});
