import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { listRuns } from '../../src/runs/list-runs.js';
import { readEvents } from '../../src/runs/read-events.js';
import { stopRun } from '../../src/server/run-control.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { launchChromium } from './chromium-context.js';
import { answerExchange, type ExchangeResponder } from './exchange-responder.js';
import { exploreWineArgs } from '../explore/explore-wine-args.js';

/**
 * Steering an interactive run from the page, in Debian's Chromium over the real server and
 * real `codify implement --interactive` processes; the test answers as the model through
 * exchange files, so it can read every prompt the model received.
 */
const repository = resolve(import.meta.dirname, '../..');
const screenshots = join(repository, 'test-output', 'web');
const task = 'test/fixtures/tasks/good-task';
let base = '';
let root = '';
let profile = '';
let ui: UiServer;
let browser: BrowserContext;
const responders: ExchangeResponder[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-steer-browser-'));
  root = join(base, 'runs');
  profile = join(base, 'chromium');
  mkdirSync(screenshots, { recursive: true });
  const app = await ensureWebAppBuilt();
  ui = await startUiServer({
    root,
    port: 0,
    pollMs: 50,
    appDirectory: app,
    workingDirectory: repository,
  });
  browser = await launchChromium(profile);
}, 300_000);

afterAll(async () => {
  for (const responder of responders) responder.stop();
  for (const run of listRuns(root)) {
    if (run.status !== 'running') continue;
    try {
      stopRun(run.dir);
    } catch {
      // already gone
    }
  }
  for (const child of children) child.kill();
  await browser?.close();
  await ui?.close();
  rmSync(base, { recursive: true, force: true });
});

async function signedInPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(ui.url);
  return page;
}

/** Comments on the waiting step from its card; the card goes once the run has the answer. */
async function commentFromPage(page: Page, requestId: string, comment: string): Promise<void> {
  const card = page.locator(`.feedback-card[data-request-id="${requestId}"]`);
  await expect.poll(() => card.count(), { timeout: 60_000 }).toBe(1);
  await card.locator('textarea[aria-label="comment"]').fill(comment);
  await shoot(page, `steer-${requestId}`);
  await card.locator('button:has-text("Comment")').click();
  await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(0);
}

async function stopFromPage(page: Page, requestId: string): Promise<void> {
  const card = page.locator(`.feedback-card[data-request-id="${requestId}"]`);
  await expect.poll(() => card.count(), { timeout: 60_000 }).toBe(1);
  await card.locator('button:has-text("Stop the run")').click();
  await expect
    .poll(() => page.locator('.run-facts .status').textContent(), { timeout: 30_000 })
    .toBe('stopped');
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

const runIdOf = (page: Page) => decodeURIComponent(page.url().split('#/runs/')[1] ?? '');

describe('steering an interactive run from the page', () => {
  it('starts an interactive run; a comment from the page reaches the next planner prompt', async () => {
    const exchange = join(base, 'exchange-page');
    const model = answerExchange(exchange);
    responders.push(model);
    const page = await signedInPage();
    await page.click('button:has-text("Start a run")');
    await page.fill('input[aria-label="path"]', task);
    await page.fill('input[aria-label="model"]', `exchange:${exchange}`);
    await page.fill('input[aria-label="max steps"]', '4');
    await page.check('input[aria-label="interactive"]');
    await page.click('form[aria-label="start a run"] button[type="submit"]');
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain('#/runs/');
    const runId = runIdOf(page);

    const comment = 'Please look at data.csv before anything else.';
    await commentFromPage(page, 'step-1', comment);
    // The answer shows in the timeline, and the model's next prompt carries it.
    await expect
      .poll(() => page.locator('.step[data-step="1"] .feedback').textContent())
      .toContain(comment);
    await expect.poll(() => model.prompts('planner').length, { timeout: 30_000 }).toBe(2);
    const [first, second] = model.prompts('planner');
    expect(first).not.toContain(comment);
    expect(second).toContain(comment);
    const { events } = readEvents(join(root, runId));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'feedback-given', step: 1, decision: 'comment', comment }),
    );
    await stopFromPage(page, 'step-2');
    expect(model.prompts('planner')).toHaveLength(2);
    await shoot(page, 'steer-stopped');
    await page.close();
  }, 180_000);

  it('answers from the page a run asked in a terminal; the terminal says so', async () => {
    const exchange = join(base, 'exchange-terminal');
    const model = answerExchange(exchange);
    responders.push(model);
    // `script` gives the CLI a real terminal, so it asks there and in the run folder at once.
    const command = [
      process.execPath,
      '--import',
      'tsx',
      join(repository, 'src/cli/main.ts'),
      'implement',
      task,
      '--interactive',
      '--max-steps',
      '4',
      '--model',
      `exchange:${exchange}`,
      '--root',
      root,
    ]
      .map((part) => `'${part}'`)
      .join(' ');
    const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: repository,
      env: { ...process.env, CI: 'true' },
    });
    children.push(terminal);
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => terminal.on('close', done));
    await expect
      .poll(() => output, { timeout: 60_000 })
      .toContain('a comment for the agent, or "stop"');
    const run = listRuns(root).find((entry) => entry.status === 'running');
    expect(run).toBeDefined();
    const page = await signedInPage();
    // The list marks the run that waits for a person.
    const row = page.locator(`tr[data-run-id="${run?.id ?? ''}"]`);
    await expect.poll(() => row.locator('.waiting-badge').count(), { timeout: 20_000 }).toBe(1);
    await row.locator('a.run-name').click();
    const comment = 'Keep the threshold between 0 and 1.';
    await commentFromPage(page, 'step-1', comment);
    await expect
      .poll(() => output, { timeout: 20_000 })
      .toContain(`answered from the browser (the run folder): comment: ${comment}`);
    await expect.poll(() => model.prompts('planner').length, { timeout: 30_000 }).toBe(2);
    expect(model.prompts('planner')[1]).toContain(comment);
    // The terminal asks again at step 2; the page stops the run, and the process ends.
    await expect
      .poll(() => output.split('a comment for the agent, or "stop"').length, { timeout: 30_000 })
      .toBe(3);
    await stopFromPage(page, 'step-2');
    // The process ends (no prompt left reading the terminal), as a stopped run: exit code 1.
    expect(await exited).toBe(1);
    expect(output).toContain('answered from the browser (the run folder): stop');
    await page.close();
  }, 180_000);

  it('starts an exploration from the page and shows its idea cards', async () => {
    const page = await signedInPage();
    await page.click('button:has-text("Start a run")');
    await page.selectOption('select[aria-label="start mode"]', 'explore');
    await page.fill('input[aria-label="path"]', 'examples/explore/paper.md');
    await page.fill('input[aria-label="related work"]', 'examples/explore/related.txt');
    await page.fill('input[aria-label="ideas"]', '2');
    await page.fill('input[aria-label="refine rounds"]', '0');
    // The recorded session is the whole exploration: its two experiments on the prototype too.
    await page.fill('input[aria-label="run experiments"]', 'top:2');
    await page.fill('input[aria-label="prototype code"]', 'examples/explore/prototype');
    await page.fill('input[aria-label="max steps"]', '4');
    await page.fill('input[aria-label="max seeds"]', '3');
    await page.fill('input[aria-label="model"]', 'replay:examples/recordings/explore-wine.jsonl');
    await shoot(page, 'start-explore');
    await page.click('form[aria-label="start a run"] button[type="submit"]');
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain('#/runs/');
    await expect
      .poll(() => page.locator('.run-facts .status').textContent(), { timeout: 90_000 })
      .toBe('completed');
    await expect.poll(() => page.locator('.idea-card').count(), { timeout: 20_000 }).toBe(2);
    const { events } = readEvents(join(root, runIdOf(page)));
    const start = events.find((event) => event.type === 'run-start');
    expect(start?.type === 'run-start' ? start.mode : '').toBe('explore');
    expect(start?.type === 'run-start' ? start.argv : []).toEqual(
      expect.arrayContaining([
        '--ideas',
        '2',
        '--refine-rounds',
        '0',
        '--run',
        'top:2',
        '--max-seeds',
        '3',
      ]),
    );
    await page.close();
  }, 120_000);

  it("answers an explore run's gates from the page: the analysis to edit, the ideas to pick", async () => {
    // Another test of this file may have explored already: this one's run is the live one.
    const liveExploration = () =>
      listRuns(root).find((run) => run.mode === 'explore' && run.status === 'running');
    // No terminal (stdin ignored): the run is answered through its folder alone.
    const explore = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repository, 'src/cli/main.ts'),
        'explore',
        ...exploreWineArgs,
        '--interactive',
        '--model',
        'replay:examples/recordings/explore-wine.jsonl',
        '--root',
        root,
      ],
      { cwd: repository, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(explore);
    let output = '';
    explore.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    explore.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => explore.on('close', done));
    await expect.poll(() => liveExploration()?.id, { timeout: 60_000 }).toBeDefined();
    const runId = liveExploration()?.id ?? '';
    const page = await signedInPage();
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/runs/${runId}`)}`);

    const analysis = page.locator('.feedback-card[data-request-id="problem-analysis"]');
    await expect.poll(() => analysis.count(), { timeout: 60_000 }).toBe(1);
    expect(await analysis.getAttribute('data-kind')).toBe('edit');
    await expect
      .poll(() => analysis.locator('textarea[aria-label="edit the draft"]').inputValue())
      .toContain('### Research tasks');
    // The draft is the body: shown once, in the editable text, not again above it.
    expect(await analysis.locator('.feedback-body').count()).toBe(0);
    await shoot(page, 'steer-explore-analysis');
    await analysis.locator('button:has-text("Approve")').click();
    await expect.poll(() => analysis.count(), { timeout: 20_000 }).toBe(0);

    const pick = page.locator('.feedback-card[data-request-id="experiments"]');
    await expect.poll(() => pick.count(), { timeout: 60_000 }).toBe(1);
    // The card appears a moment before its options are drawn.
    await expect
      .poll(() => pick.locator('.feedback-option').allTextContents())
      .toEqual([
        expect.stringMatching(/^I1: Standardize features/),
        expect.stringMatching(/^I2: Adam's per-parameter step sizes/),
      ]);
    // The proposal (--run top:2) is pre-selected; changing it turns approval into a pick.
    expect(await pick.locator('.feedback-option input:checked').count()).toBe(2);
    await shoot(page, 'steer-explore-pick');
    await pick.locator('.feedback-option input').nth(1).uncheck();
    expect(await pick.locator('button:has-text("Pick")').count()).toBe(1);
    await pick.locator('.feedback-option input').nth(1).check();
    await pick.locator('button:has-text("Approve as proposed")').click();
    await expect.poll(() => pick.count(), { timeout: 20_000 }).toBe(0);
    // Then each experiment's plan and budget, and the steps of its interactive implement run:
    // every card approved once, as it comes, until the exploration ends.
    const approved: string[] = [];
    for (let waited = 0; waited < 150_000; waited += 250) {
      if ((await page.locator('.run-facts .status').textContent()) === 'completed') break;
      const ids: string[] = [];
      for (const card of await page.locator('.feedback-card').all()) {
        // A card answered a moment ago may be gone already: skip it.
        const id = await card.getAttribute('data-request-id', { timeout: 1000 }).catch(() => null);
        if (id !== null) ids.push(id);
      }
      const id = ids.find((candidate) => !approved.includes(candidate));
      const approve = page
        .locator(`.feedback-card[data-request-id="${id ?? ''}"]`)
        .locator('button:has-text("Approve")')
        .first();
      // A card is drawn, then enabled once its request file has been read.
      if (id === undefined || !(await approve.isEnabled({ timeout: 1000 }).catch(() => false))) {
        await page.waitForTimeout(250);
        continue;
      }
      await approve.click({ timeout: 5000 });
      approved.push(id);
    }
    expect(await page.locator('.run-facts .status').textContent()).toBe('completed');
    // The first experiment's plan is asked before it runs. (Its interactive implement run
    // asks the planner for questions, which the recording, made without, does not hold: the
    // replay stops there, so later gates depend on how far it got.)
    expect(approved).toContain('experiment-I1');
    expect(await exited, output).toBe(0);
    const { events } = readEvents(join(root, runId));
    expect(events.flatMap((event) => (event.type === 'log' ? [event.message] : []))).toEqual(
      expect.arrayContaining([
        'problem-analysis: approve',
        'experiments: approve',
        'experiment-I1: approve',
      ]),
    );
    await page.close();
  }, 300_000);
});
