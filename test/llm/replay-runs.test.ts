import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodifyEvent } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { codify, recordings, repositoryRoot, startCodify } from './codify-cli.js';

/**
 * Replays and resume through the real CLI on the yona-digits recording: real agent loop,
 * bubblewrap sandbox and Python; only the model answers come from a recording.
 */
const recording = `replay:${join(recordings, 'yona-digits.jsonl')}`;
const temporary = mkdtempSync(join(tmpdir(), 'codify-replay-runs-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(() => rmSync(temporary, { recursive: true, force: true }));

function onlyRun(root: string): string {
  const [id, ...others] = readdirSync(root);
  if (id === undefined || others.length > 0) throw new Error(`expected one run in ${root}`);
  return join(root, id);
}

function finalScript(runDir: string): string {
  const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as {
    finalScript: string | null;
  };
  if (result.finalScript === null) throw new Error(`${runDir} has no final script`);
  return readFileSync(result.finalScript, 'utf8');
}

const ofType = <T extends CodifyEvent['type']>(events: CodifyEvent[], type: T) =>
  events.filter((event): event is Extract<CodifyEvent, { type: T }> => event.type === type);

let reference = '';
let resumedRun = '';

beforeAll(async () => {
  const root = join(temporary, 'reference');
  const { status, output } = await codify([
    'implement',
    'examples/yona-digits',
    '--model',
    recording,
    '--root',
    root,
  ]);
  expect(status, output).toBe(0);
  reference = onlyRun(root);
});

describe('codify resume with a replay: model', () => {
  it('continues a killed replayed run at the call after its last completed step', async () => {
    const root = join(temporary, 'killed');
    const child = startCodify([
      'implement',
      'examples/yona-digits',
      '--model',
      recording,
      '--root',
      root,
    ]);
    child.stdout?.resume();
    child.stderr?.resume();
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Step 1 (the edit) takes milliseconds; step 2 runs the training script for seconds.
    const stepEnds = (): number => {
      if (!existsSync(root) || readdirSync(root).length === 0) return 0;
      const log = join(onlyRun(root), 'events.jsonl');
      return existsSync(log) ? ofType(readEvents(onlyRun(root)).events, 'step-end').length : 0;
    };
    for (let waited = 0; stepEnds() < 1 && waited < 90_000; waited += 25) await sleep(25);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const runDir = onlyRun(root);
    expect(existsSync(join(runDir, 'result.json'))).toBe(false);
    const before = readEvents(runDir).events;
    const completedSteps = ofType(before, 'step-end').length;
    expect(completedSteps).toBeGreaterThanOrEqual(1);
    expect(completedSteps).toBeLessThan(4);

    const { status, output } = await codify([
      'resume',
      runDir,
      '--model',
      recording,
      '--root',
      root,
    ]);
    expect(output).not.toMatch(/replay: call \d+/);
    expect(status, output).toBe(0);
    expect(finalScript(runDir)).toBe(finalScript(reference));
    const events = readEvents(runDir).events;
    const resumedAt = events.findLastIndex((event) => event.type === 'run-start');
    const resumedCalls = ofType(events.slice(resumedAt), 'llm-end');
    const referenceCalls = ofType(readEvents(reference).events, 'llm-end');
    // Calls 1 .. (those of the completed steps) are not asked again; the rest follow in order.
    const firstAsked = resumedCalls[0]?.callId ?? 0;
    expect(firstAsked).toBeGreaterThan(1);
    expect(resumedCalls.map((call) => call.text)).toEqual(
      referenceCalls.slice(firstAsked - 1).map((call) => call.text),
    );
    expect(resumedCalls.at(-1)?.callId).toBe(referenceCalls.length);
    resumedRun = runDir;
  });

  it('replays the resumed run, counting the calls of the killed step once', async () => {
    // Its log holds the calls of the killed step twice.
    expect(resumedRun).not.toBe('');
    const replay = await codify(['replay', resumedRun]);
    expect(replay.status, replay.output).toBe(0);
    expect(replay.output).toMatch(/divergence\s+no divergence/);
    expect(replay.output).toMatch(/model calls\s+4 replayed of 4 recorded/);
  });
});

describe('codify replay RUN', () => {
  it('re-runs an implement run from its own log as a new run, with no divergence', async () => {
    const { status, output } = await codify(['replay', reference]);
    expect(status, output).toBe(0);
    expect(output).toMatch(/divergence\s+no divergence/);
    expect(output).toMatch(/model calls\s+4 replayed of 4 recorded/);
    const root = join(reference, '..');
    const replay = readdirSync(root)
      .map((id) => join(root, id))
      .find((dir) => dir !== reference);
    expect(replay).toBeDefined();
    const replayDir = replay ?? '';
    expect(finalScript(replayDir)).toBe(finalScript(reference));
    const [start] = readEvents(replayDir).events;
    expect(start).toMatchObject({ type: 'run-start', mode: 'implement' });
    const argv = start?.type === 'run-start' ? start.argv : [];
    expect(argv).toContain(`replay:${join(reference, 'events.jsonl')}`);
    expect(argv.join(' ')).not.toContain('yona-digits.jsonl');
  });

  it('names the first call whose request differs when the log was altered', async () => {
    const root = join(temporary, 'altered');
    const altered = join(root, reference.split('/').at(-1) ?? 'run');
    cpSync(reference, altered, { recursive: true });
    const log = join(altered, 'events.jsonl');
    const lines = readFileSync(log, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => {
        const event = JSON.parse(line) as CodifyEvent;
        if (event.type !== 'llm-end' || event.callId !== 3 || event.system === undefined)
          return line;
        const system = event.system.replace('the actions below', 'the tools below');
        return JSON.stringify({ ...event, system });
      });
    writeFileSync(log, `${lines.join('\n')}\n`);
    const { status, output } = await codify(['replay', altered]);
    expect(status, output).toBe(1);
    expect(output).toContain(
      'divergence    replay: call 3 (planner) differs from the recording at system',
    );
    expect(output).toMatch(/recorded "…[^"]*the tools below[^"]*", live "…[^"]*the actions below/);
  });

  it('re-runs a paper run from its own log, in the folder it ran in, with its config', async () => {
    // A project folder whose config records every session: the replay must not trip on it.
    const project = join(temporary, 'project');
    mkdirSync(project);
    cpSync(
      join(repositoryRoot, 'examples/papers/mixup-tabular/paper.md'),
      join(project, 'paper.md'),
    );
    writeFileSync(join(project, 'codify.config.json'), '{ "record": "session.jsonl" }\n');
    const root = join(temporary, 'paper');
    const paper = await codify(
      [
        'paper',
        'paper.md',
        '--no-verify',
        '--model',
        `replay:${join(recordings, 'paper-mixup-tabular.jsonl')}`,
        '--root',
        root,
      ],
      project,
    );
    expect(paper.status, paper.output).toBe(0);
    expect(existsSync(join(project, 'session.jsonl'))).toBe(true);
    const original = onlyRun(root);
    const { status, output } = await codify(['replay', original, '--json']);
    expect(status, output).toBe(0);
    const report = JSON.parse(output.trimEnd().split('\n').at(-1) ?? '{}') as {
      divergence: { call: number | null; message: string };
      recordedCalls: number;
      replayedCalls: number;
      replayStatus: string;
      replayRun: string;
    };
    expect(report.divergence).toEqual({ call: null, message: 'no divergence' });
    expect(report.recordedCalls).toBe(14);
    expect(report.replayedCalls).toBe(14);
    expect(report.replayStatus).toBe('completed');
    expect(existsSync(join(report.replayRun, 'repo', 'requirements.txt'))).toBe(true);
  });

  it('exits 3 for a run that does not exist', async () => {
    const { status, output } = await codify(['replay', 'no-such-run', '--root', temporary]);
    expect(status).toBe(3);
    expect(output).toContain('codify replay: no run "no-such-run"');
  });
});
