import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRuns } from '../../src/runs/list-runs.js';
import { stopRun } from '../../src/server/run-control.js';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { createRun } from '../../src/runs/run.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { codifyOk } from '../llm/codify-cli.js';

/**
 * The web app as a person uses it: Debian's Chromium, headless, over the real server and runs
 * recorded by the real CLI (replayed model answers, real sandbox and Python). Screenshots of
 * each page go to test-output/web/.
 */
const repository = resolve(import.meta.dirname, '../..');
const screenshots = join(repository, 'test-output', 'web');
const chromiumPath = process.env.CODIFY_CHROMIUM ?? '/usr/bin/chromium';
let root = '';
let profile = '';
let ui: UiServer;
let browser: BrowserContext;
let implementRun = '';
let paperRun = '';

function codify(args: string[]): Promise<string> {
  return codifyOk([...args, '--root', root]);
}

const runIdIn = (output: string) => {
  const id = readdirSync(root).find((name) => /^\d{8}-/.test(name) && output.includes(name));
  if (id === undefined) throw new Error(`no run folder named in:\n${output}`);
  return id;
};

beforeAll(async () => {
  expect(existsSync(chromiumPath), `${chromiumPath} is missing: apt-get install chromium`).toBe(
    true,
  );
  root = mkdtempSync(join(tmpdir(), 'codify-ui-browser-'));
  profile = mkdtempSync(join(tmpdir(), 'codify-chromium-'));
  mkdirSync(screenshots, { recursive: true });
  // web/dist, rebuilt first if a source is newer, so a stale build never passes.
  const [app, implementOutput, paperOutput] = await Promise.all([
    ensureWebAppBuilt(),
    codify([
      'implement',
      'examples/yona-digits',
      '--model',
      'replay:examples/recordings/yona-digits.jsonl',
    ]),
    codify([
      'paper',
      'examples/papers/mixup-tabular/paper.md',
      '--model',
      'replay:examples/recordings/paper-mixup-tabular.jsonl',
    ]),
  ]);
  implementRun = runIdIn(implementOutput);
  paperRun = runIdIn(paperOutput);
  ui = await startUiServer({ root, port: 0, pollMs: 50, appDirectory: app });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  // A build of the app (when a source changed since the last one) can take minutes here.
}, 300_000);

afterAll(async () => {
  // Runs this file started and a failed assertion left going are stopped, not left waiting.
  for (const run of listRuns(root)) {
    if (run.status !== 'running') continue;
    try {
      stopRun(run.dir);
    } catch {
      // written by this test process itself (it ends with it)
    }
  }
  await browser?.close();
  await ui?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

/** A page that has opened the printed URL, so its origin's storage holds the token. */
async function signedInPage(): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(ui.url);
  expect(errors).toEqual([]);
  return page;
}

/** Goes to a run's page the way a click on its link does (a hash change, no reload). */
async function openRun(page: Page, runId: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/runs/${runId}`)}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

describe('codify ui in Chromium', () => {
  it('refuses a browser without the token', async () => {
    const page = await browser.newPage();
    // The app's files are public; what it asks the API for is refused, and it says why.
    await page.goto(`http://127.0.0.1:${ui.port}/`);
    await expect.poll(() => page.textContent('body')).toContain('needs its access token');
    expect(await page.locator('.runs-table tbody tr').count()).toBe(0);
    const api = await page.goto(`http://127.0.0.1:${ui.port}/api/runs`);
    expect(api?.status()).toBe(401);
    await page.close();
  });

  it('lists the runs, filters them by mode and finds them by name', async () => {
    const page = await signedInPage();
    expect(new URL(page.url()).search).toBe('');
    const rows = page.locator('.runs-table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // torch's arithmetic differs between CPUs (the final script printed 0.9721 on the AMD
    // EPYC this session was recorded on, 0.9707 on an earlier machine), so its figure is
    // matched to two decimals
    expect(await page.locator(`tr[data-run-id="${implementRun}"]`).textContent()).toMatch(
      /test_accuracy 0\.97\d\d \(starter 0\.9563\)/,
    );
    await shoot(page, 'runs-list');
    await page.selectOption('select[aria-label="mode"]', 'paper');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-run-id')).toBe(paperRun);
    await page.selectOption('select[aria-label="mode"]', 'all');
    await page.fill('input[aria-label="search"]', 'yona');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-run-id')).toBe(implementRun);
    await page.close();
  });

  it("shows an implement run's timeline, edits, trace and model calls", async () => {
    const page = await signedInPage();
    await page.click(`a[href="#/runs/${implementRun}"]`);
    const steps = page.locator('.step-card .step-action');
    await expect
      .poll(() => steps.allTextContents())
      .toEqual(['Edit Script', 'Execute Script', 'Final Answer']);
    expect(await page.locator('.run-facts .status').textContent()).toBe('completed');
    expect(await page.locator('.field-reflection').first().textContent()).toContain(
      'This is the first step',
    );
    expect(await page.locator('.metric-result').textContent()).toMatch(
      /0\.97\d\d vs the starter's 0\.9563/,
    );
    await shoot(page, 'implement-timeline');

    await page.click('a[role="tab"]:has-text("Edits")');
    await page.click('input[type="radio"] >> nth=1');
    // The one edit saved the starter, edited, as the output: its diff is against the starter.
    const edit = page.locator('article.edit').filter({ hasText: 'version 1' });
    expect(await edit.locator('p.muted').textContent()).toBe(
      'made from starter_code.py: the diff is against it',
    );
    await expect.poll(() => edit.locator('.diff-added').count()).toBeGreaterThan(20);
    expect(await edit.locator('td.diff-added').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('def yona(')]),
    );
    await shoot(page, 'implement-edits');

    await page.click('a[role="tab"]:has-text("Executions")');
    const trace = page.locator('section.trace[data-script="methodology_implementation.py"]');
    await expect.poll(() => trace.locator('.code-line.never-ran').count()).toBe(4);
    // the recorded session's final script: every executable line ran but the three of the
    // noise mode it does not use ("mask") and the guard for a shift as large as the half (the translation never draws one)
    const [, ran, total] = /(\d+) of (\d+) executable lines ran/.exec(
      (await trace.locator('h3').textContent()) ?? '',
    ) ?? ['', '0', '0'];
    expect(Number(total) - Number(ran)).toBe(4);
    expect(await page.locator('.file-view').first().textContent()).toMatch(
      /test_accuracy: 0\.97\d\d/,
    );
    await trace.locator('.code-line.never-ran').first().scrollIntoViewIfNeeded();
    await shoot(page, 'implement-trace');

    await page.click('a[role="tab"]:has-text("Model calls")');
    await expect.poll(() => page.locator('tr.model-call').count()).toBe(4);
    await page.click('tr.model-call[data-call-id="1"]');
    const detail = page.locator('.model-call-detail');
    // the planner's stable text is its system prompt; at step 1 no step came before, so what
    // changes, the budgets, is its one message, with no cache mark
    expect(await detail.locator('.message-system').textContent()).toContain('research assistant');
    const users = detail.locator('.message-user');
    expect(await users.count()).toBe(1);
    expect(await users.first().textContent()).toContain('# Budgets');
    expect(await detail.locator('.message-user .cache-mark').count()).toBe(0);
    // at step 2 the steps in full come first, a block ending in a cache mark
    await page.click('tr.model-call[data-call-id="3"]');
    await expect.poll(() => users.count()).toBe(3);
    expect(await users.first().textContent()).toContain('# Previous steps in full');
    expect(await users.last().textContent()).toContain('# Budgets');
    expect(await detail.locator('.message-user .cache-mark').count()).toBe(1);
    expect(await users.last().locator('.cache-mark').count()).toBe(0);
    expect(await detail.locator('.message-answer').textContent()).toContain('Action:');
    await shoot(page, 'implement-model-calls');
    await page.close();
  });

  it("shows a paper run's stages, design and config with quotes", async () => {
    const page = await signedInPage();
    await openRun(page, paperRun);
    await expect
      .poll(() => page.locator('.stage .stage-name').allTextContents())
      .toEqual([
        'ingest',
        'plan',
        'target-environment',
        'generate',
        'self-check',
        'environment',
        'install',
        'verify',
      ]);
    await shoot(page, 'paper-stages');
    await page.click('a[role="tab"]:has-text("Design")');
    // Both diagrams drawn by the bundled mermaid (no network), their source kept beside them.
    await expect
      .poll(() => page.locator('.mermaid-diagram[data-state="drawn"] svg').count(), {
        timeout: 20_000,
      })
      .toBe(2);
    expect(await page.locator('.mermaid-svg').first().textContent()).toContain('mixup_batch');
    expect(await page.locator('.mermaid-source').first().textContent()).toContain('classDiagram');
    await shoot(page, 'paper-design');
    await page.click('a[role="tab"]:has-text("Config")');
    await expect.poll(() => page.locator('table.config tbody tr').count()).toBeGreaterThan(3);
    expect(await page.locator('td.quote').first().textContent()).toMatch(/^“.+”$/);
    await page.click('a[role="tab"]:has-text("Verify")');
    await expect.poll(() => page.locator('.verify').textContent()).toContain('The repository runs');
    await page.close();
  });

  it('starts a run from the page, stops it and resumes it', async () => {
    const page = await signedInPage();
    await page.click('button:has-text("Start a run")');
    await page.fill('input[aria-label="path"]', 'test/fixtures/tasks/good-task');
    // The model answers through exchange files nobody writes: the run waits, live.
    await page.fill('input[aria-label="model"]', `exchange:${join(root, '.exchange')}`);
    await page.fill('input[aria-label="max steps"]', '3');
    await page.click('form[aria-label="start a run"] button[type="submit"]');
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain('#/runs/');
    const runId = decodeURIComponent(page.url().split('#/runs/')[1] ?? '');
    expect(runId).toContain('threshold-classifier');
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('live');
    await shoot(page, 'started-run');
    await page.click('.run-controls button:has-text("Stop")');
    // Asked once more before the process is ended; Cancel keeps it running.
    await page.click('.confirm-stop button:has-text("Cancel")');
    expect(await page.locator('.run-facts .status').textContent()).toBe('live');
    await page.click('.run-controls button:has-text("Stop")');
    await shoot(page, 'confirm-stop');
    await page.click('.confirm-stop button:has-text("Yes, stop it")');
    await expect
      .poll(() => page.locator('.run-facts .status').textContent(), { timeout: 20_000 })
      .toBe('stopped');
    await page.click('.run-controls button:has-text("Resume")');
    await expect
      .poll(() => page.locator('.run-facts .status').textContent(), { timeout: 20_000 })
      .toBe('live');
    const starts = await page.evaluate(
      `fetch('/api/runs/${runId}', { headers: { authorization: 'token ' + localStorage.getItem('codify-ui-token') } }).then((r) => r.json()).then((d) => d.events.filter((e) => e.type === 'run-start').length)`,
    );
    expect(starts).toBe(2);
    await page.click('.run-controls button:has-text("Stop")');
    await page.click('.confirm-stop button:has-text("Yes, stop it")');
    await expect
      .poll(() => page.locator('.run-facts .status').textContent(), { timeout: 20_000 })
      .toBe('stopped');
    await page.close();
  });

  it('shows why a run could not start', async () => {
    const page = await signedInPage();
    await page.click('button:has-text("Start a run")');
    await page.fill('input[aria-label="path"]', 'no/such/task');
    await page.click('form[aria-label="start a run"] button[type="submit"]');
    await expect
      .poll(() => page.locator('.start-error').textContent())
      .toContain('does not exist on this machine');
    await page.close();
  });

  it('follows a run in progress without a reload', async () => {
    const live = createRun({ root, mode: 'implement', name: 'watched live', argv: [] });
    const page = await signedInPage();
    await openRun(page, live.id);
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('live');
    expect(await page.locator('.step-card').count()).toBe(0);
    // Expressions run in the page (this file is compiled without the DOM's types).
    const marker = await page.evaluate('window.codifyTestMarker = Math.random()');
    for (const step of [1, 2]) {
      live.emit({ type: 'step-start', step });
      live.emit({
        type: 'planner-answer',
        step,
        level: 0,
        valid: true,
        fields: { Thought: `thought of step ${step}`, 'Research Plan and Status': `plan ${step}` },
      });
      live.emit({ type: 'action-start', step, action: 'List Files', input: { dir_path: '.' } });
      live.emit({
        type: 'action-end',
        step,
        action: 'List Files',
        ok: true,
        observation: 'a.py',
        display: 'a.py',
        durationMs: 3,
      });
      live.emit({ type: 'step-end', step, action: 'List Files' });
      await expect.poll(() => page.locator('.step-card').count()).toBe(step);
    }
    expect(await page.locator('.field-thought').last().textContent()).toContain(
      'thought of step 2',
    );
    await shoot(page, 'live-run');
    live.close('completed', 'finished while watched');
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('completed');
    expect(await page.locator('.run-reason').textContent()).toBe('finished while watched');
    // Same document all along: the page was updated, never reloaded.
    expect(await page.evaluate('window.codifyTestMarker')).toBe(marker);
    await page.close();
  });
});
