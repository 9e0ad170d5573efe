import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebAppBuilt } from '../../scripts/build-web.js';
import { createRun } from '../../src/runs/run.js';
import { startUiServer, type UiServer } from '../../src/server/ui-server.js';
import { launchChromium } from './chromium-context.js';
import { codifyOk } from '../llm/codify-cli.js';

/**
 * The web app in Chromium against what other local servers and model-written content can do:
 * two `codify ui` instances and an unrelated server on other ports of 127.0.0.1, and a design
 * diagram whose text tries to load images and CSS from the network.
 */
const repository = resolve(import.meta.dirname, '../..');
const screenshots = join(repository, 'test-output', 'web');
let base = '';
let first: UiServer;
let second: UiServer;
let browser: BrowserContext;
let foreign: Server;
let foreignPort = 0;
/** Every request the unrelated server received, with its headers. */
const foreignRequests: { url: string; headers: IncomingHttpHeaders }[] = [];
let paperRun = '';

function codify(root: string, args: string[]): Promise<string> {
  return codifyOk([...args, '--root', root]);
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'codify-ui-security-'));
  mkdirSync(screenshots, { recursive: true });
  const firstRoot = join(base, 'first');
  const secondRoot = join(base, 'second');
  mkdirSync(firstRoot);
  mkdirSync(secondRoot);
  createRun({ root: firstRoot, mode: 'implement', name: 'first instance run', argv: [] }).close(
    'completed',
    'done',
  );
  createRun({ root: secondRoot, mode: 'implement', name: 'second instance run', argv: [] }).close(
    'completed',
    'done',
  );
  foreign = createServer((request, response) => {
    foreignRequests.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>another local server</title><p>hello');
  });
  await new Promise<void>((done) => foreign.listen(0, '127.0.0.1', done));
  foreignPort = (foreign.address() as AddressInfo).port;
  const [app, paperOutput] = await Promise.all([
    ensureWebAppBuilt(),
    codify(firstRoot, [
      'paper',
      'examples/papers/mixup-tabular/paper.md',
      '--model',
      'replay:examples/recordings/paper-mixup-tabular.jsonl',
    ]),
  ]);
  const paper = readdirSync(firstRoot).find(
    (name) => /^\d{8}-/.test(name) && paperOutput.includes(name),
  );
  if (paper === undefined) throw new Error(`no paper run in:\n${paperOutput}`);
  paperRun = paper;
  injectIntoDesign(join(firstRoot, paperRun, 'plan.json'));
  first = await startUiServer({ root: firstRoot, port: 0, pollMs: 50, appDirectory: app });
  second = await startUiServer({ root: secondRoot, port: 0, pollMs: 50, appDirectory: app });
  browser = await launchChromium(join(base, 'chromium'));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await first?.close();
  await second?.close();
  await new Promise((done) => foreign?.close(done));
  rmSync(base, { recursive: true, force: true });
});

const mathQuote = 'mixing weights $\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)$ with';

/** What a model could write into a design: an image tag, and CSS that loads a URL. */
function injectIntoDesign(planPath: string): void {
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as {
    architecture: { classDiagram: string };
    logic: { sharedKnowledge: string };
    config: { entries: { evidence: string }[] };
  };
  const at = (what: string) => `http://127.0.0.1:${foreignPort}/${what}`;
  plan.architecture.classDiagram = [
    `%%{init: {"themeCSS": ".classGroup rect { fill: url(${at('theme-css-url')}); } svg { background-image: url(${at('theme-background')}); }"}}%%`,
    plan.architecture.classDiagram.replace(
      'classDiagram',
      `classDiagram\n    note "<img src='${at('note-img')}'>"`,
    ),
    `    style SplitData fill:url(${at('style-fill')})`,
    '    SplitData : +__init__(self, seed)',
  ].join('\n');
  const [entry] = plan.config.entries;
  if (entry !== undefined) entry.evidence = `${mathQuote} ${entry.evidence}`;
  plan.logic.sharedKnowledge = `<img src="${at('field-img')}"> ${plan.logic.sharedKnowledge}`;
  writeFileSync(planPath, JSON.stringify(plan, null, 2));
}

/** Which instance's runs a page shows (each root holds one run named for its instance). */
async function instanceShown(page: Page): Promise<string[]> {
  const names = await page.locator('.runs-table tbody tr .run-name').allTextContents();
  return names.filter((name) => name.endsWith('instance run'));
}

describe('the access token in Chromium', () => {
  it('is kept per server: a second instance does not clobber it, and no other port receives it', async () => {
    const firstPage = await browser.newPage();
    await firstPage.goto(first.url);
    await expect.poll(() => instanceShown(firstPage)).toEqual(['first instance run']);
    // The token has left the address bar.
    expect(firstPage.url()).not.toContain(first.token);
    const secondPage = await browser.newPage();
    await secondPage.goto(second.url);
    await expect.poll(() => instanceShown(secondPage)).toEqual(['second instance run']);
    // The first tab, reloaded and opened anew without the token, still reads its own server.
    await firstPage.reload();
    await expect.poll(() => instanceShown(firstPage)).toEqual(['first instance run']);
    const again = await browser.newPage();
    await again.goto(`http://127.0.0.1:${first.port}/`);
    await expect.poll(() => instanceShown(again)).toEqual(['first instance run']);
    // Another server on 127.0.0.1, opened in the same browser, receives neither token.
    const other = await browser.newPage();
    await other.goto(`http://127.0.0.1:${foreignPort}/page`);
    expect(await other.textContent('p')).toBe('hello');
    const visit = foreignRequests.find((request) => request.url === '/page');
    expect(visit).toBeDefined();
    const sent = JSON.stringify(foreignRequests);
    expect(sent).not.toContain(first.token);
    expect(sent).not.toContain(second.token);
    expect(visit?.headers.cookie).toBeUndefined();
    expect(await browser.cookies()).toEqual([]);
    for (const page of [firstPage, secondPage, again, other]) await page.close();
  });
});

describe('the content policy in Chromium', () => {
  it('lets model-written markup in a design diagram or a field fetch nothing', async () => {
    foreignRequests.length = 0;
    const page = await browser.newPage();
    const requested: string[] = [];
    // Chromium reports a request the policy blocks too; only those that got an answer count.
    page.on('requestfinished', (request) => requested.push(request.url()));
    await page.goto(first.url);
    await page.evaluate(
      `window.codifyViolations = []; document.addEventListener('securitypolicyviolation', (event) => window.codifyViolations.push(event.blockedURI))`,
    );
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/runs/${paperRun}/design`)}`);
    await expect
      .poll(() => page.locator('.mermaid-diagram[data-state="drawn"] svg').count(), {
        timeout: 20_000,
      })
      .toBe(2);
    expect(await page.locator('.design pre.plan').first().textContent()).toContain('<img src=');
    await page.waitForTimeout(500);
    // The markup reached the page and the browser tried: the policy refused it.
    const violations: string[] = await page.evaluate('window.codifyViolations');
    expect(violations.some((uri) => uri.includes(`:${foreignPort}/`))).toBe(true);
    expect(requested.filter((url) => !url.startsWith(`http://127.0.0.1:${first.port}/`))).toEqual(
      [],
    );
    expect(foreignRequests).toEqual([]);
    // Python's __init__ is drawn as written, not as a bold "init".
    expect(await page.locator('.mermaid-svg').first().textContent()).toContain(
      '__init__(self, seed)',
    );
    await page.screenshot({ path: join(screenshots, 'paper-design-injected.png') });
    // Config quotes: LaTeX drawn by the bundled KaTeX (its fonts from this server only).
    await page.click('a[role="tab"]:has-text("Config")');
    const quote = page.locator('td.quote').first();
    await expect.poll(() => quote.locator('.katex').count()).toBe(1);
    expect(await quote.locator('.katex-mathml annotation').textContent()).toBe(
      '\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)',
    );
    expect(await quote.textContent()).not.toContain('$');
    await page.waitForTimeout(300);
    expect(requested.filter((url) => !url.startsWith(`http://127.0.0.1:${first.port}/`))).toEqual(
      [],
    );
    await page.screenshot({ path: join(screenshots, 'paper-config-katex.png') });
    await page.close();
  });
});
