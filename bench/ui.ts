/**
 * The web app on long runs. Synthetic implement runs of 4, 100, 400 and 1,000 steps
 * (bench/synthetic-run.ts, ~50 KB of log a step) are served by `codify ui` in its own process;
 * headless Chromium opens each and reports the time to the first step card, the time until
 * the whole run is usable (the Timeline counts every step and the last one is on screen after
 * scrolling to the end), the JS heap after a garbage collection, and the DOM nodes. Then the
 * server's memory (RSS from /proc) while one tab opens the largest run, and while one and five
 * slow readers (each reads 64 KB of the event stream every 100 ms) follow it; and the time and
 * size of one run-detail request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ensureWebAppBuilt } from '../scripts/build-web.js';
import { writeSyntheticRun, type SyntheticRun } from './synthetic-run.js';

const repository = resolve(import.meta.dirname, '..');
const chromiumPath = process.env.CODIFY_CHROMIUM ?? '/usr/bin/chromium';
const sizes = (process.env.CODIFY_BENCH_UI_STEPS ?? '4,100,400,1000').split(',').map(Number);
/** A page still not usable after this long is reported as such, not waited on forever. */
const usableTimeoutMs = 120_000;
const slowReadSeconds = 10;

interface UiProcess {
  child: ChildProcess;
  origin: string;
  token: string;
}

async function startUiProcess(root: string): Promise<UiProcess> {
  // The sources, not dist/, which may be older; the server serves web/dist, built just before.
  const command = ['--import', 'tsx', join(repository, 'src', 'cli', 'main.ts')];
  const child = spawn(process.execPath, [...command, 'ui', '--root', root, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<URL>((resolvePromise, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/\S+\?token=[0-9a-f]+/.exec(output);
      if (match !== null) resolvePromise(new URL(match[0]));
    });
    child.on('exit', () => reject(new Error(`codify ui exited: ${output}`)));
  });
  return { child, origin: url.origin, token: url.searchParams.get('token') ?? '' };
}

function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN') / 1024;
}

/** Samples a process's RSS every 50 ms while `work` runs; the peak in MB. */
async function peakRssDuring(pid: number, work: () => Promise<void>): Promise<number> {
  let peak = rssMegabytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMegabytes(pid));
  }, 50);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rssMegabytes(pid));
}

interface PageFigures {
  firstStepMs: number;
  /** Until the Timeline tab counts every step: the whole log has arrived and been read. */
  countedMs: number | undefined;
  usableMs: number | undefined;
  heapMb: number;
  domNodes: number;
}

async function openRun(page: Page, ui: UiProcess, run: SyntheticRun): Promise<PageFigures> {
  await page.goto('about:blank');
  const started = Date.now();
  await page.goto(`${ui.origin}/#/runs/${run.id}`);
  // Expressions run in the page (this file is compiled without the DOM's types).
  await page.waitForFunction(`document.querySelector('.step-card') !== null`, undefined, {
    polling: 'raf',
    timeout: usableTimeoutMs,
  });
  const firstStepMs = Date.now() - started;
  let usableMs: number | undefined;
  let countedMs: number | undefined;
  try {
    await page.waitForFunction(
      `document.querySelector('.tab.active .tab-note')?.textContent === '${run.steps}'`,
      undefined,
      { polling: 'raf', timeout: usableTimeoutMs },
    );
    countedMs = Date.now() - started;
    // Scroll to the end until the last step's card is drawn (a windowed list draws it only then).
    await page.waitForFunction(
      `(() => { window.scrollTo(0, document.documentElement.scrollHeight); return document.querySelector('[data-step="${run.steps}"] .step-card') !== null; })()`,
      undefined,
      { polling: 'raf', timeout: usableTimeoutMs },
    );
    usableMs = Date.now() - started;
  } catch {
    usableMs = undefined;
  }
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const heap = await session.send('Runtime.getHeapUsage');
  await session.detach();
  const domNodes = Number(await page.evaluate(`document.getElementsByTagName('*').length`));
  return { firstStepMs, countedMs, usableMs, heapMb: heap.usedSize / 1024 / 1024, domNodes };
}

async function launch(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
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
}

/** Reads the run's event stream 64 KB at a time, 100 ms apart, for `seconds`; bytes read. */
function slowReader(ui: UiProcess, run: SyntheticRun, seconds: number): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    let bytes = 0;
    const request = get(
      `${ui.origin}/api/runs/${run.id}/events`,
      { headers: { authorization: `token ${ui.token}` } },
      (response: IncomingMessage) => {
        response.on('readable', function readSlowly() {
          const chunk = response.read(64 * 1024) as Buffer | null;
          if (chunk === null) return;
          bytes += chunk.length;
          response.off('readable', readSlowly);
          setTimeout(() => {
            response.on('readable', readSlowly);
            readSlowly();
          }, 100);
        });
      },
    );
    request.on('error', (error) => (bytes === 0 ? reject(error) : resolvePromise(bytes)));
    setTimeout(() => {
      request.destroy();
      resolvePromise(bytes);
    }, seconds * 1000);
  });
}

function timedGet(ui: UiProcess, path: string): Promise<{ ms: number; bytes: number }> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    get(`${ui.origin}${path}`, { headers: { authorization: `token ${ui.token}` } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolvePromise({ ms: Date.now() - started, bytes }));
    }).on('error', reject);
  });
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function runBench(): Promise<void> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `${chromiumPath} is missing: install Debian's chromium (scripts/setup.sh does)`,
    );
  }
  const root = mkdtempSync(join(tmpdir(), 'codify-bench-ui-'));
  const profile = mkdtempSync(join(tmpdir(), 'codify-bench-chromium-'));
  let ui: UiProcess | undefined;
  try {
    await ensureWebAppBuilt();
    const runs = sizes.map((steps) => writeSyntheticRun(root, steps));
    ui = await startUiProcess(root);
    const pid = ui.child.pid ?? 0;
    await new Promise((done) => setTimeout(done, 500));
    const idleMb = rssMegabytes(pid);
    await measurePages(ui, runs, profile);
    const largest = runs.at(-1);
    if (largest === undefined) return;
    const detail = await timedGet(ui, `/api/runs/${largest.id}`);
    console.log(
      `run detail of the ${largest.steps}-step run: ${detail.ms} ms, ${megabytes(detail.bytes)} sent`,
    );
    await new Promise((done) => setTimeout(done, 1000));
    console.log(
      `server RSS idle: ${idleMb.toFixed(0)} MB (after the pages: ${rssMegabytes(pid).toFixed(0)} MB)`,
    );
    await measureSlowReaders(ui, largest);
  } finally {
    ui?.child.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens each run in one tab, in turn, and prints a line of figures for each. */
async function measurePages(ui: UiProcess, runs: SyntheticRun[], profile: string): Promise<void> {
  const pid = ui.child.pid ?? 0;
  const browser = await launch(profile);
  try {
    const page = await browser.newPage();
    await page.goto(`${ui.origin}/?token=${ui.token}`);
    console.log(
      'steps  log      first step  all counted  usable     JS heap  DOM nodes  server RSS (one tab)',
    );
    for (const run of runs) {
      let figures: PageFigures | undefined;
      const logBytes = statSync(join(run.dir, 'events.jsonl')).size;
      const peak = await peakRssDuring(pid, async () => {
        figures = await openRun(page, ui, run);
      });
      if (figures === undefined) continue;
      console.log(
        [
          String(run.steps).padStart(5),
          megabytes(logBytes).padStart(8),
          `${figures.firstStepMs} ms`.padStart(11),
          (figures.countedMs === undefined ? '-' : `${figures.countedMs} ms`).padStart(11),
          (figures.usableMs === undefined
            ? `>${usableTimeoutMs / 1000} s`
            : `${figures.usableMs} ms`
          ).padStart(9),
          `${figures.heapMb.toFixed(1)} MB`.padStart(9),
          String(figures.domNodes).padStart(10),
          `${peak.toFixed(0)} MB peak`.padStart(21),
        ].join('  '),
      );
    }
    await page.goto('about:blank');
  } finally {
    await browser.close();
  }
}

/** The server's peak RSS while one, then five, slow readers follow the run's event stream. */
async function measureSlowReaders(ui: UiProcess, run: SyntheticRun): Promise<void> {
  for (const readers of [1, 5]) {
    const read: number[] = [];
    const peak = await peakRssDuring(ui.child.pid ?? 0, async () => {
      read.push(
        ...(await Promise.all(
          Array.from({ length: readers }, () => slowReader(ui, run, slowReadSeconds)),
        )),
      );
    });
    console.log(
      `server RSS with ${readers} slow reader${readers === 1 ? '' : 's'} of the ${run.steps}-step run's event stream for ${slowReadSeconds} s: ${peak.toFixed(0)} MB peak (each read ~${megabytes(Math.min(...read))})`,
    );
    await new Promise((done) => setTimeout(done, 1000));
  }
}
