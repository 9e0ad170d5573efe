import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRun, type SyntheticRun } from '../../bench/synthetic-run.js';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { launchChromium } from './chromium-context.js';

/**
 * A run of a thousand steps in Chromium: it opens, draws only the steps near the screen, and
 * its last step can be reached by scrolling. The steps are those of the bench's synthetic runs
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

describe('a run of 1,000 steps in Chromium', () => {
  it('opens with a few step cards drawn, and scrolls to its last step', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(ui.url);
    await page.goto(`http://127.0.0.1:${ui.port}/#/runs/${run.id}`);
    // Expressions run in the page (the tests are compiled without the DOM's types).
    await page.waitForFunction(
      `document.querySelector('.tab.active .tab-note')?.textContent === '1000'`,
      undefined,
      { timeout: 60_000 },
    );
    const drawn = Number(await page.evaluate(`document.querySelectorAll('.step-card').length`));
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(40);
    expect(await page.textContent('.timeline [data-step="1"] .step-number')).toBe('Step 1');

    // The End key's way down, as a person does it, until the last card is drawn and on screen.
    await page.waitForFunction(
      `(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const last = document.querySelector('[data-step="1000"] .step-card');
        if (last === null) return false;
        const box = last.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      })()`,
      undefined,
      { timeout: 30_000, polling: 200 },
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
      await page.waitForFunction(
        `document.elementFromPoint(300, window.innerHeight / 2)?.closest('.step-card') != null`,
        undefined,
        { timeout: 5_000, polling: 'raf' },
      );
    }

    // Back to the middle: the steps there are drawn in order.
    await page.evaluate(`window.scrollTo(0, document.documentElement.scrollHeight / 2)`);
    await page.waitForFunction(
      `(() => {
        const numbers = [...document.querySelectorAll('.timeline [data-step]')].map((item) => Number(item.dataset.step));
        return numbers.length > 0 && numbers[0] > 300 && numbers.at(-1) < 700 &&
          numbers.every((number, index) => index === 0 || number === numbers[index - 1] + 1);
      })()`,
      undefined,
      { timeout: 10_000, polling: 100 },
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
