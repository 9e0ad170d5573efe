import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../src/llm/read-recording.js';
import type { CodifyEvent, EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { stageFile } from '../../src/runs/stages.js';
import { codify, recordings, startCodify } from '../llm/codify-cli.js';

/**
 * `codify paper` killed or stopped in its write stage (analysis and code per file), then `codify resume`: the real CLI
 * in child processes, answered first through an exchange folder by this test (from the
 * recorded session, so it can hold back the call it is killed on), then by the recording.
 */
const paper = 'examples/papers/mixup-tabular/paper.md';
const recording = join(recordings, 'paper-mixup-tabular.jsonl');
const replay = `replay:${recording}`;
const recorded = readRecording(recording);
/** The number of the call that asks for the second file (plan calls come first). */
const heldBack =
  recorded
    .map((call, index) => ({ call, number: index + 1 }))
    .filter(({ call }) => (call.messages.at(-1)?.content ?? '').startsWith('Write the file `'))[1]
    ?.number ?? 0;

const temporary = mkdtempSync(join(tmpdir(), 'codify-paper-resume-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function onlyRun(root: string): string {
  const [id, ...others] = readdirSync(root).filter((name) => !name.startsWith('.'));
  if (id === undefined || others.length > 0) throw new Error(`expected one run in ${root}`);
  return join(root, id);
}

const ofType = <T extends CodifyEvent['type']>(events: CodifyEvent[], type: T) =>
  events.filter((event): event is EventOf<T> => event.type === type);

/** The events each process of a run wrote, split at its run-start events. */
function byProcess(runDir: string): CodifyEvent[][] {
  const processes: CodifyEvent[][] = [];
  for (const event of readEvents(runDir).events) {
    if (event.type === 'run-start') processes.push([]);
    processes.at(-1)?.push(event);
  }
  return processes;
}

/** Every file of a repository but its git folder, with its text. */
/**
 * The repository's files and their text, as git sees them (tracked, or untracked and not
 * ignored): what the smoke run writes under `outputs/` holds paths and timings of its run.
 */
function repositoryFiles(dir: string): Record<string, string> {
  const listed = execFileSync(
    'git',
    ['-C', dir, 'ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    { encoding: 'utf8' },
  );
  const files: Record<string, string> = {};
  for (const path of listed
    .split('\0')
    .filter((name) => name !== '')
    .sort())
    files[path] = readFileSync(join(dir, path), 'utf8');
  return files;
}

const commitSubjects = (repo: string) =>
  execFileSync('git', ['-C', repo, 'log', '--format=%s'], { encoding: 'utf8' }).trim().split('\n');

/**
 * Starts `codify paper` on an exchange folder and answers its requests with the recorded
 * answers, up to the held-back call; resolves once that call is asked.
 */
async function paperWaitingOnSecondFile(root: string) {
  const exchange = join(root, '.exchange');
  const child = startCodify(['paper', paper, '--model', `exchange:${exchange}`, '--root', root]);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const answered = new Set<string>();
  let asked = false;
  for (let waited = 0; !asked && waited < 90_000; waited += 50) {
    await sleep(50);
    if (!existsSync(exchange)) continue;
    for (const name of readdirSync(exchange).sort()) {
      const match = /^(\d{4,})-([a-z-]+)\.request\.json$/.exec(name);
      if (match === null || answered.has(name)) continue;
      const number = Number(match[1]);
      if (number >= heldBack) {
        asked = true;
        continue;
      }
      answered.add(name);
      const response = join(exchange, `${match[1] ?? ''}-${match[2] ?? ''}.response.md`);
      writeFileSync(`${response}.tmp`, recorded[number - 1]?.text ?? '');
      renameSync(`${response}.tmp`, response);
    }
  }
  expect(asked, output).toBe(true);
  return { child, exited, output: () => output };
}

describe('codify paper: kill, stop and resume', () => {
  it('resumes a run killed -9 while writing the files without redoing a finished stage or a completed call', async () => {
    const baselineRoot = join(temporary, 'baseline');
    const baseline = await codify(['paper', paper, '--model', replay, '--root', baselineRoot]);
    expect(baseline.status, baseline.output).toBe(0);
    const baselineRun = onlyRun(baselineRoot);
    const baselineCalls = ofType(readEvents(baselineRun).events, 'llm-end').length;
    expect(baselineCalls).toBe(recorded.length);

    const root = join(temporary, 'killed');
    const started = await paperWaitingOnSecondFile(root);
    started.child.kill('SIGKILL');
    expect((await started.exited).signal).toBe('SIGKILL');
    const runDir = onlyRun(root);
    const [killed] = byProcess(runDir);
    expect(ofType(killed ?? [], 'run-end')).toHaveLength(0);
    expect(ofType(killed ?? [], 'llm-end')).toHaveLength(heldBack - 1);
    expect(existsSync(stageFile(runDir, 'plan'))).toBe(true);
    expect(existsSync(stageFile(runDir, 'generate'))).toBe(false);

    const resumed = await codify(['resume', runDir, '--model', replay, '--root', root]);
    expect(resumed.status, resumed.output).toBe(0);
    const processes = byProcess(runDir);
    expect(processes).toHaveLength(2);
    const second = processes[1] ?? [];
    const ends = ofType(second, 'stage-end');
    // Ingest, plan and the target environment had finished: returned from their stored
    // results, not done again.
    expect(ends.filter((end) => end.reused === true).map((end) => end.stage)).toEqual([
      'ingest',
      'plan',
      'target-environment',
    ]);
    expect(ends.filter((end) => end.reused !== true).map((end) => end.stage)).toEqual([
      'generate',
      'self-check',
      'environment',
      'install',
      'verify',
    ]);
    expect(ends.every((end) => end.ok)).toBe(true);
    // The completed calls were answered from the log: no call is paid twice.
    expect(ofType(second, 'llm-end')).toHaveLength(recorded.length - (heldBack - 1));
    expect(ofType(readEvents(runDir).events, 'llm-end')).toHaveLength(baselineCalls);
    expect(
      ofType(second, 'log').some((log) =>
        log.message.startsWith(`resuming: ${heldBack - 1} completed model calls`),
      ),
    ).toBe(true);
    expect(ofType(second, 'run-end')).toMatchObject([{ status: 'completed' }]);

    // The same repository as the uninterrupted run's, stage commit by stage commit.
    expect(repositoryFiles(join(runDir, 'repo'))).toEqual(
      repositoryFiles(join(baselineRun, 'repo')),
    );
    expect(commitSubjects(join(runDir, 'repo'))).toEqual(commitSubjects(join(baselineRun, 'repo')));
    // The report counts every call once, the ones of the killed process included.
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as {
      totals: { calls: number };
      stages: { stage: string; calls: number }[];
    };
    expect(report.totals.calls).toBe(baselineCalls);
    const writes = recorded.filter((call) =>
      (call.messages.at(-1)?.content ?? '').startsWith('Write the file `'),
    );
    expect(report.stages.find((stage) => stage.stage === 'generate')?.calls).toBe(writes.length);
  }, 240_000);

  it('ends a run stopped by SIGTERM as stopped, exit 143, with its finished stages on disk', async () => {
    const root = join(temporary, 'stopped');
    const started = await paperWaitingOnSecondFile(root);
    started.child.kill('SIGTERM');
    expect((await started.exited).code, started.output()).toBe(143);
    const runDir = onlyRun(root);
    const events = readEvents(runDir).events;
    expect(ofType(events, 'run-end')).toMatchObject([{ status: 'stopped' }]);
    // The file in flight was cancelled; plan had finished, stored and committed.
    expect(ofType(events, 'stage-end').map((end) => [end.stage, end.ok])).toEqual([
      ['ingest', true],
      ['plan', true],
      ['target-environment', true],
      ['generate', false],
    ]);
    expect(existsSync(stageFile(runDir, 'plan'))).toBe(true);
    expect(existsSync(join(runDir, 'repo', 'config.yaml'))).toBe(true);
    expect(existsSync(join(runDir, 'repo', 'docs', 'plan.md'))).toBe(true);
    expect(commitSubjects(join(runDir, 'repo'))).toEqual(['plan: plan, design and config.yaml']);
    expect(started.output()).toContain(`\`codify resume ${runDir}\` continues it`);
  }, 120_000);

  it('cancels the smoke run in flight on SIGTERM, and resume runs only verify again', async () => {
    const root = join(temporary, 'smoke');
    const child = startCodify(['paper', paper, '--model', replay, '--root', root]);
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const smoking = () =>
      existsSync(root) &&
      readdirSync(root).some((id) => existsSync(join(root, id, 'outputs', 'smoke-1.txt')));
    for (let waited = 0; !smoking() && waited < 120_000; waited += 20) await sleep(20);
    child.kill('SIGTERM');
    expect(await exited, output).toBe(143);
    const runDir = onlyRun(root);
    const [stopped] = byProcess(runDir);
    expect(ofType(stopped ?? [], 'stage-end').at(-1)).toMatchObject({ stage: 'verify', ok: false });
    // The smoke run was cut off, not waited for: no outcome of it is recorded.
    expect(ofType(stopped ?? [], 'execution-end')).toHaveLength(0);
    expect(ofType(stopped ?? [], 'run-end')).toMatchObject([{ status: 'stopped' }]);

    const resumed = await codify(['resume', runDir, '--model', replay, '--root', root]);
    expect(resumed.status, resumed.output).toBe(0);
    const second = byProcess(runDir)[1] ?? [];
    expect(
      ofType(second, 'stage-end')
        .filter((end) => end.reused !== true)
        .map((end) => end.stage),
    ).toEqual(['verify']);
    expect(ofType(second, 'llm-end')).toHaveLength(0);
    // The smoke run, then the repository's tests (their outcome depends on pytest being
    // installable here, so only that they ran is checked).
    const runs = ofType(second, 'execution-end');
    expect(runs.map((end) => end.script)).toEqual(['main.py', expect.stringMatching(/^-m /)]);
    expect(runs[0]).toMatchObject({ exitCode: 0 });
  }, 240_000);

  it('refuses to resume a paper run that completed, and leaves it as it was', async () => {
    const root = join(temporary, 'completed');
    const done = await codify(['paper', paper, '--no-verify', '--model', replay, '--root', root]);
    expect(done.status, done.output).toBe(0);
    const runDir = onlyRun(root);
    const before = readFileSync(join(runDir, 'events.jsonl'), 'utf8');
    const again = await codify(['resume', runDir, '--model', replay, '--root', root]);
    expect(again.status).toBe(3);
    expect(again.output).toContain(
      `codify resume: ${runDir} has already ended completed; there is nothing to resume`,
    );
    expect(readFileSync(join(runDir, 'events.jsonl'), 'utf8')).toBe(before);
  }, 120_000);
});
