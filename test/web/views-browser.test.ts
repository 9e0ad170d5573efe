import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { formatTokens } from '../../src/cli/render/format-values.js';
import { defaultConfig } from '../../src/config/default-config.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import type { Suite } from '../../src/eval/suite/suite.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { AnswerRequest } from '../../src/llm/answerer.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { scriptedAnswerer } from '../eval/eval-fixture.js';
import { launchChromium } from './chromium-context.js';
import { codifyOk } from '../llm/codify-cli.js';
import { exploreWineArgs } from '../explore/explore-wine-args.js';

/**
 * The explore and evaluation views in Chromium, on real folders: an explore run replayed from
 * examples/recordings/explore-wine.jsonl by the CLI (two ideas, both run as experiments), and
 * the example suite examples/eval/ci-suite.yaml evaluated with a scripted judge.
 */
const repository = resolve(import.meta.dirname, '../..');
const screenshots = join(repository, 'test-output', 'web');
let base = '';
let root = '';
let ui: UiServer;
let browser: BrowserContext;
let exploreRun = '';

function codify(args: string[]): Promise<string> {
  return codifyOk([...args, '--root', root]);
}

/** Grades every rubric leaf met but the five seeds; scores the repository 4 of 5. */
/** The suite with the scripted judge (the configuration's) instead of its recorded one. */
function withoutRecordedJudge(suite: Suite): Suite {
  return {
    ...suite,
    judge: {
      enabled: suite.judge.enabled,
      samples: suite.judge.samples,
      temperature: suite.judge.temperature,
      includeDocs: suite.judge.includeDocs,
    },
  };
}

function judgeAnswer(request: AnswerRequest): string {
  const label = request.label ?? '';
  if (label.startsWith('rubric ')) {
    const leaf = label.slice('rubric '.length);
    const met = leaf !== 'five-seeds';
    return `\`\`\`json\n{"score": ${met ? 1 : 0}, "reason": "${met ? 'shown' : 'not shown'}: ${leaf}"}\n\`\`\``;
  }
  return '```json\n{"critiques": [{"file": "train.py", "function": "train_mlp", "severity": "low", "critique": "no early stopping option"}], "score": 4}\n```';
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-views-'));
  root = join(base, 'runs');
  mkdirSync(screenshots, { recursive: true });
  const config = defaultConfig();
  config.roles.judge.models = ['scripted:judge'];
  const [app, exploreOutput] = await Promise.all([
    ensureWebAppBuilt(),
    codify([
      'explore',
      ...exploreWineArgs,
      '--model',
      'replay:examples/recordings/explore-wine.jsonl',
    ]),
    runEvaluation({
      suite: withoutRecordedJudge(loadSuite(join(repository, 'examples/eval/ci-suite.yaml'))),
      evalDir: join(root, 'eval-examples-ci'),
      parallel: 2,
      baseConfig: config,
      answerers: (spec) => (spec === 'scripted:judge' ? scriptedAnswerer(judgeAnswer) : undefined),
    }),
  ]);
  const explore = readdirSync(root).find(
    (name) => name.includes('full-batch-gradient') && exploreOutput.includes(name),
  );
  if (explore === undefined) throw new Error(`no explore run in:\n${exploreOutput}`);
  exploreRun = explore;
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
  await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('completed');
  expect(errors).toEqual([]);
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

describe('the explore and evaluation views in Chromium', () => {
  it('shows an explore run: idea cards with reviews, novelty and measured results', async () => {
    const page = await openRun(exploreRun);
    const cards = page.locator('.idea-card');
    await expect.poll(() => cards.count()).toBe(2);
    // Ranked by the judge: I1 (3.93) before I2 (3.67).
    expect(await cards.locator('.idea-id').allTextContents()).toEqual(['I1', 'I2']);
    const first = page.locator('.idea-card[data-idea="I1"]');
    expect(await first.locator('h3').textContent()).toBe(
      'Standardize features before full-batch gradient descent',
    );
    expect(await first.locator('.idea-fields').first().textContent()).toContain('Hypothesis');
    expect(await first.locator('.idea-result').textContent()).toContain(
      "accuracy 0.9938 ± 0.01069 over 3 seeds vs the baseline's 0.6605 on the same seeds (+0.3333, beyond the margin 0.09207)",
    );
    // The paired effect per metric, and the judge's verdict on the hypothesis.
    expect(await first.locator('.paired-effects caption').textContent()).toBe(
      'Paired with the baseline on seeds 0, 1, 2',
    );
    expect(await first.locator('.hypothesis-verdict').textContent()).toMatch(
      /^Hypothesis supported by its stop criteria: ./,
    );
    expect(
      await page.locator('.idea-card[data-idea="I2"] .hypothesis-verdict').textContent(),
    ).toMatch(/^Hypothesis supported by its stop criteria: ./);
    // Fifteen criteria, each with its score and the reviewer's reason.
    expect(await first.locator('.review-scores tr').count()).toBe(15);
    expect(
      await first
        .locator('.review-scores tr[data-criterion="problem.clarity"] .reason')
        .textContent(),
    ).not.toBe('');
    // The closest work named once: in the line, not again in the reason after it.
    const novelty = (await first.locator('.novelty').first().textContent()) ?? '';
    expect(novelty).toMatch(
      /^Novelty \(offline\): (novel|overlaps|unknown) · closest of \d+: “.+” \(similarity 0\.\d\d\)/,
    );
    const closest = /“(.+)”/.exec(novelty)?.[1] ?? '';
    expect(novelty.split(closest).length - 1).toBe(1);
    // Review aspects by name, not by key.
    expect(await first.locator('.review-scores th').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Experiment plan \d/)]),
    );
    expect(await first.locator('.review-scores').textContent()).not.toContain('experimentPlan');
    // The reviewers' spread and the meta-review (three reviewers by default).
    expect(await first.locator('.review-spread .review-agreement').textContent()).toMatch(
      /^Reviewers' spread: \d+% of criteria within one point across 3 reviewers/,
    );
    expect(await first.locator('.review-spread .review-meta').textContent()).toMatch(
      /^Meta-review \d\.\d\d: ./,
    );
    // One figure and verdict: this idea's seeds beat the baseline beyond their margin.
    expect(await first.locator('.idea-result').getAttribute('class')).toContain(
      'verdict-supported',
    );
    await shoot(page, 'explore-ideas');

    await page.click('a[role="tab"]:has-text("Analysis")');
    await expect
      .poll(() => page.locator('.quote-check').textContent())
      .toMatch(/Quote check: \d+ quotes checked/);
    expect(await page.locator('.citation').count()).toBeGreaterThan(0);

    await page.click('a[role="tab"]:has-text("Experiments")');
    const rows = page.locator('.experiments-table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('.bar-chart .bar').count()).toBe(2);
    expect(await page.locator('.bar-chart .bar-reference').count()).toBe(2);
    // The chart shows the figure the table and the card show: the seeds' mean.
    expect(await page.locator('.bar-row[data-label^="I1 "] text').last().textContent()).toMatch(
      /^0\.9938 mean \(\+0\.3333\)$/,
    );
    expect(await page.locator('tr[data-idea="I1"] td.measured').textContent()).toContain(
      'accuracy 0.9938 ± 0.01069 over 3 seeds',
    );
    await shoot(page, 'explore-experiments');
    // Each experiment links to its own implement run.
    await rows.first().locator('a').click();
    await expect.poll(() => page.locator('.run-page').getAttribute('data-mode')).toBe('implement');
    await expect.poll(() => page.locator('.step-card').count()).toBeGreaterThan(0);
    await page.close();
  });

  it("shows an evaluation's tables and charts, and opens its runs", async () => {
    const page = await openRun('eval-examples-ci');
    const implement = page.locator('table.implement-groups tbody tr');
    await expect.poll(() => implement.count()).toBe(1);
    const cells = await implement.first().locator('td').allTextContents();
    // yona-digits, single-call, recorded; metric 0.9742 (a gain on the fixed seed: B), to two
    // decimals since torch's arithmetic differs between CPUs (0.9728 on an AMD EPYC)
    expect(cells.slice(0, 4)).toEqual(['yona-digits', 'single-call', 'recorded', '0']);
    expect(cells.filter((cell) => /^0\.97\d\d$/.test(cell))).toHaveLength(1);
    const papers = page.locator('table.paper-groups tbody tr');
    await expect.poll(() => papers.count()).toBe(1);
    const paperCells = await papers.first().locator('td').allTextContents();
    expect(paperCells.slice(0, 3)).toEqual(['mixup-tabular', 'recorded', '1']);
    // The scripted judge: 4 of 5; the rubric: every leaf but five-seeds, (3+1+1+0)/6.
    expect(paperCells[5]).toBe('4');
    expect(paperCells[7]).toBe('0.8333');
    expect(await page.locator('.bar-chart').count()).toBeGreaterThanOrEqual(3);
    await shoot(page, 'eval-report');
    // One total everywhere: the page header, the report's line and the runs list.
    const reportTokens = Number(
      /([\d,]+) tokens/
        .exec((await page.locator('.eval-report > p').first().textContent()) ?? '')?.[1]
        ?.replace(/,/g, ''),
    );
    expect(reportTokens).toBeGreaterThan(0);
    expect(await page.locator('.run-facts .total').allTextContents()).toContain(
      `${formatTokens(reportTokens)} tokens`,
    );
    // At 700 pixels the tables scroll in their own box; the page does not get wider.
    await page.setViewportSize({ width: 700, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(700);
    await shoot(page, 'eval-report-700');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(ui.url);
    const listed = page.locator('tr[data-run-id="eval-examples-ci"]');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain(formatTokens(reportTokens));
    await page.evaluate(`window.location.hash = '#/runs/eval-examples-ci'`);
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('completed');

    await page.click('a[role="tab"]:has-text("Runs")');
    const runs = page.locator('table.eval-runs tbody tr');
    await expect.poll(() => runs.count()).toBe(2);
    // The paper run's judge: its score with the spread of its samples (the suite asks for 2).
    expect(await page.locator('table.eval-runs').textContent()).toMatch(
      /judge 4\.00 \(2 samples, 4–4\)/,
    );
    await page.locator('tr[data-key="yona-digits/single-call/recorded/trial-1"] a').click();
    await expect.poll(() => page.locator('.run-page').getAttribute('data-mode')).toBe('implement');
    await expect.poll(() => page.locator('.run-facts .status').textContent()).toBe('completed');
    expect(decodeURIComponent(page.url())).toContain('#/runs/eval-examples-ci/runs/yona-digits/');
    await expect.poll(() => page.locator('.metric-result').textContent()).toMatch(/0\.97\d\d/);
    await page.close();
  });
});
