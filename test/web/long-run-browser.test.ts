import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRun, type SyntheticRun } from '../../bench/synthetic-run.js';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { createRun } from '../../src/runs/run.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { launchChromium } from './chromium-context.js';

/**
 * Long runs in Chromium: a run of a thousand steps opens, draws only the steps near the screen,
 * and its last step can be reached by scrolling; a page on a live run only appends. The steps are those of the bench's synthetic runs
 * with short prompts (a ~10 MB log instead of ~50 MB), to keep the test quick.
 */
const screenshots = join(resolve(import.meta.dirname, '../..'), 'test-output', 'web');
let root = '';
let profile = '';
let ui: UiServer;
let browser: BrowserContext;
let run: SyntheticRun;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'codify-ui-long-'));
  profile = mkdtempSync(join(tmpdir(), 'codify-chromium-'));
  mkdirSync(screenshots, { recursive: true });
  run = writeSyntheticRun(root, 1000, { promptCharacters: 2000 });
  const app = await ensureWebAppBuilt();
  ui = await startUiServer({ root, port: 0, pollMs: 50, appDirectory: app });
  browser = await launchChromium(profile);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

/**
 * Waits until an expression is true in the page. Evaluated through the browser's debugging
 * protocol, which the app's content policy (no eval) does not stop, unlike waitForFunction.
 */
async function until(page: Page, expression: string, timeout = 30_000): Promise<void> {
  await expect
    .poll(async () => Boolean(await page.evaluate(expression)), { timeout, interval: 100 })
    .toBe(true);
}

describe('long and live runs in Chromium', () => {
  it('opens a 1,000-step run with a few step cards drawn, and scrolls to its last step', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(ui.url);
    await page.goto(`http://127.0.0.1:${ui.port}/#/runs/${run.id}`);
    // Expressions run in the page (the tests are compiled without the DOM's types).
    await until(
      page,
      `document.querySelector('.tab.active .tab-note')?.textContent === '1000'`,
      60_000,
    );
    const drawn = Number(await page.evaluate(`document.querySelectorAll('.step-card').length`));
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(40);
    expect(await page.textContent('.timeline [data-step="1"] .step-number')).toBe('Step 1');

    // The End key's way down, as a person does it, until the last card is drawn and on screen.
    await until(
      page,
      `(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const last = document.querySelector('[data-step="1000"] .step-card');
        if (last === null) return false;
        const box = last.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      })()`,
      30_000,
    );
    expect(await page.textContent('[data-step="1000"] .step-number')).toBe('Step 1000');
    expect(await page.textContent('[data-step="1000"] .step-action')).toBe('List Files');
    // Still only the cards near the screen: the first one is gone from the page.
    expect(await page.$('[data-step="1"] .step-card')).toBeNull();
    expect(
      Number(await page.evaluate(`document.querySelectorAll('.step-card').length`)),
    ).toBeLessThan(40);
    await page.screenshot({ path: join(screenshots, 'long-run-last-step.png') });

    // Wherever the page is scrolled to, a step card is drawn there (no blank stretch where a
    // spacer stands for steps that should have been drawn).
    for (const share of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      await page.evaluate(
        `window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) * ${share})`,
      );
      // The list draws the cards there once it has measured them (slow on a loaded machine).
      await until(
        page,
        `document.elementFromPoint(300, window.innerHeight / 2)?.closest('.step-card') != null`,
        30_000,
      );
    }

    // Back to the middle: the steps there are drawn in order.
    await page.evaluate(`window.scrollTo(0, document.documentElement.scrollHeight / 2)`);
    await until(
      page,
      `(() => {
        const numbers = [...document.querySelectorAll('.timeline [data-step]')].map((item) => Number(item.dataset.step));
        return numbers.length > 0 && numbers[0] > 300 && numbers.at(-1) < 700 &&
          numbers.every((number, index) => index === 0 || number === numbers[index - 1] + 1);
      })()`,
      20_000,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('on a live run, appends what the stream brings and never downloads the run again', async () => {
    const live = createRun({ root, mode: 'implement', name: 'live and long', argv: [] });
    try {
      for (let step = 1; step <= 40; step += 1) {
        live.emit({ type: 'step-start', step });
        live.emit({ type: 'step-end', step, action: 'List Files' });
      }
      const page = await browser.newPage();
      await page.goto(ui.url);
      const asked: { url: string; bytes: number }[] = [];
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (!url.pathname.startsWith('/api/') || url.pathname.endsWith('/events')) return;
        void response
          .body()
          .then((body) => asked.push({ url: url.pathname, bytes: body.length }))
          .catch(() => undefined);
      });
      await page.goto(`http://127.0.0.1:${ui.port}/#/runs/${live.id}`);
      await until(page, `document.querySelector('.tab.active .tab-note')?.textContent === '40'`);
      // Two steps more, written while the page is open, a few seconds apart.
      for (const step of [41, 42]) {
        await new Promise((done) => setTimeout(done, 3_500));
        live.emit({ type: 'step-start', step });
        live.emit({ type: 'step-end', step, action: 'Execute Script' });
      }
      await until(page, `document.querySelector('.tab.active .tab-note')?.textContent === '42'`);
      const detail = `/api/runs/${live.id}`;
      expect(asked.filter((request) => request.url === detail)).toEqual([]);
      // What it asks while live is the run's status, a few hundred bytes each time.
      const summaries = asked.filter((request) => request.url === `${detail}/summary`);
      expect(summaries.length).toBeGreaterThanOrEqual(2);
      for (const summary of summaries) expect(summary.bytes).toBeLessThan(2_000);
      await page.close();
    } finally {
      live.close('completed');
    }
  }, 60_000);

  it('draws only the lines near the screen of a long event timeline', async () => {
    const checked = createRun({ root, mode: 'check', name: 'long check', argv: [] });
    for (let index = 1; index <= 3000; index += 1) {
      checked.emit({ type: 'log', level: 'info', message: `line number ${index}` });
    }
    checked.close('completed');
    const page = await browser.newPage();
    await page.goto(ui.url);
    await page.goto(`http://127.0.0.1:${ui.port}/#/runs/${checked.id}`);
    await until(page, `document.querySelector('.tab.active .tab-note')?.textContent === '3002'`);
    const drawn = Number(await page.evaluate(`document.querySelectorAll('li.event').length`));
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(300);
    await until(
      page,
      `(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return [...document.querySelectorAll('li.event')].some((item) => item.textContent.includes('line number 3000'));
      })()`,
      10_000,
    );
    await page.close();
  }, 60_000);
});
