import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { callsBeforeResume } from '../../src/explore/experiments/calls-before-resume.js';
import type { ExperimentRecord } from '../../src/explore/experiments/run-experiments.js';
import type { Exploration } from '../../src/explore/exploration.js';
import { firstDifference, type ComparableRequest } from '../../src/llm/first-difference.js';
import type { RoleName, StoredMessage } from '../../src/llm/types.js';
import type { CodifyEvent, EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { readFirstEvent } from '../../src/runs/read-first-event.js';
import { exploreWineArgs } from './explore-wine-args.js';

/**
 * A real `codify explore` with experiments, interrupted in its experiments (kill -9, SIGTERM)
 * and continued by `codify explore --resume` and `codify resume`. The model is `exchange:`,
 * answered by this test from the explore-wine recording (matched by request, so a request the
 * recording does not hold fails the test), which lets it interrupt the process at an exact
 * call and count what each process asked.
 */
const root = resolve(import.meta.dirname, '../..');
const recording = join(root, 'examples/recordings/explore-wine.jsonl');
const work = mkdtempSync(join(tmpdir(), 'codify-explore-interrupted-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const exploreArgs = ['explore', ...exploreWineArgs];

interface RecordedCall extends ComparableRequest {
  call: number;
  text: string;
}

const recorded = readFileSync(recording, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as RecordedCall);

interface Codify {
  child: ChildProcess;
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null; output: string }>;
}

function codify(args: string[]): Codify {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args],
    {
      cwd: root,
      env: { ...process.env, CI: 'true' },
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{
    status: number | null;
    signal: NodeJS.Signals | null;
    output: string;
  }>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolvePromise({ status, signal, output }));
  });
  return { child, exited };
}

/**
 * Answers the exchange folder's requests with the recording's answers until `interrupt`
 * returns true for a request (its recorded index): that one is left unanswered and the
 * answering stops. Returns the recorded indexes it answered, in order.
 */
async function answerFromRecording(
  folder: string,
  running: Codify,
  interrupt: (index: number) => boolean = () => false,
): Promise<{ answered: number[]; interruptedAt?: number }> {
  mkdirSync(folder, { recursive: true });
  const used = new Set<number>();
  const answered: number[] = [];
  let done = false;
  void running.exited.then(() => (done = true));
  const seen = new Set<string>();
  while (!done) {
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.request.json'))) {
      if (seen.has(name)) continue;
      seen.add(name);
      const { system, ...request } = JSON.parse(readFileSync(join(folder, name), 'utf8')) as {
        role: RoleName;
        system: string | null;
        messages: StoredMessage[];
        response: string;
      };
      const asked = { ...request, ...(system === null ? {} : { system }) };
      // Compared as a replay compares them: numbers (timings, script output) and run names masked.
      const index = recorded.findIndex(
        (call, position) => !used.has(position) && firstDifference(call, asked) === undefined,
      );
      if (index === -1) {
        running.child.kill('SIGKILL');
        throw new Error(`${name} is not a request the recording holds`);
      }
      used.add(index);
      if (interrupt(index)) return { answered, interruptedAt: index };
      const partial = `${request.response}.partial`;
      writeFileSync(partial, `${recorded[index]?.text ?? ''}\n`);
      renameSync(partial, request.response);
      answered.push(index);
    }
    await sleep(25);
  }
  return { answered };
}

/** The run folders under a root: the exploration and the implement runs of its experiments. */
function runsUnder(runsRoot: string): { exploration: string; experiments: string[] } {
  const folders = readdirSync(runsRoot).map((name) => join(runsRoot, name));
  const mode = (dir: string) => {
    const start = readFirstEvent(dir);
    return start?.type === 'run-start' ? start.mode : undefined;
  };
  const exploration = folders.find((dir) => mode(dir) === 'explore');
  if (exploration === undefined) throw new Error(`no exploration under ${runsRoot}`);
  return { exploration, experiments: folders.filter((dir) => mode(dir) === 'implement') };
}

const eventsOf = (dir: string): CodifyEvent[] => readEvents(dir).events;
const llmEnds = (dirs: string[]) =>
  dirs.flatMap(eventsOf).filter((event) => event.type === 'llm-end').length;
const lastEnd = (dir: string) =>
  eventsOf(dir).findLast((event): event is EventOf<'run-end'> => event.type === 'run-end');

/** The stage-ends of the exploration's last process: [stage, reused]. */
function lastProcessStages(dir: string): [string, boolean][] {
  const events = eventsOf(dir);
  return events
    .slice(events.findLastIndex((event) => event.type === 'run-start'))
    .filter((event): event is EventOf<'stage-end'> => event.type === 'stage-end')
    .map((end) => [end.stage, end.reused ?? false]);
}

/** What an exploration found, without the paths of the folders it ran in. */
function findings(dir: string) {
  const exploration = JSON.parse(readFileSync(join(dir, 'ideas.json'), 'utf8')) as Exploration;
  const records = JSON.parse(
    readFileSync(join(dir, 'experiments.json'), 'utf8'),
  ) as ExperimentRecord[];
  // The reviews name the model that gave them: the recording's replay or the test's exchange.
  const ideas = JSON.stringify(exploration.ideas).replace(/"(replay|exchange):[^"]*"/g, '"model"');
  return {
    ideas: JSON.parse(ideas) as unknown,
    experiments: records.map((record) => ({
      idea: record.idea,
      status: record.status,
      outcome: record.outcome,
      value: record.metric?.value,
      baseline: record.metric?.baseline,
      improvement: record.metric?.improvement,
      seeds: record.metric?.seeds?.runs.map((run) => [run.seed, run.value]),
    })),
  };
}

describe('codify explore interrupted in its experiments', () => {
  // Both interrupted explorations are compared with this one.
  const uninterrupted = (async () => {
    const runsRoot = join(work, 'uninterrupted');
    const run = codify([...exploreArgs, '--model', `replay:${recording}`, '--root', runsRoot]);
    const { status, output } = await run.exited;
    if (status !== 0) throw new Error(`the uninterrupted exploration failed:\n${output}`);
    return runsUnder(runsRoot);
  })();
  // Awaited by each test; a failure is reported there, not as an unhandled rejection.
  uninterrupted.catch(() => undefined);

  it('kill -9 in the second experiment; `codify explore --resume` finishes it without a finished stage or a completed call again', async () => {
    const runsRoot = join(work, 'killed');
    const first = codify([
      ...exploreArgs,
      '--model',
      `exchange:${join(work, 'x-killed-1')}`,
      '--root',
      runsRoot,
    ]);
    // Call 18 of the recording (index 17) is the second experiment's step-2 plan: its step 1 is done.
    const before = await answerFromRecording(
      join(work, 'x-killed-1'),
      first,
      (index) => index === 17,
    );
    if (before.interruptedAt === undefined) throw new Error((await first.exited).output);
    expect(before.interruptedAt).toBe(17);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(before.answered).toEqual([...Array(17).keys()]);
    const killed = runsUnder(runsRoot);
    expect(lastEnd(killed.exploration)).toBeUndefined();
    // Where a replayed resume would continue: after the exploration's 10 calls (analysis,
    // ideas, three reviews and a meta-review per idea), the first experiment's 4, its verdict
    // and the 2 of the second experiment's step 1 (its planner and the edit's worker).
    expect(callsBeforeResume(killed.exploration)).toBe(17);

    const second = codify([
      ...['explore', '--resume', killed.exploration],
      ...['--model', `exchange:${join(work, 'x-killed-2')}`, '--root', runsRoot],
    ]);
    const after = await answerFromRecording(join(work, 'x-killed-2'), second);
    const { status, output } = await second.exited;
    expect(status, output).toBe(0);
    // Only the calls after the second experiment's step 1 were asked again.
    expect(after.answered).toEqual([17, 18, 19]);
    expect(lastProcessStages(killed.exploration)).toEqual([
      ['ingest', true],
      ['analysis', true],
      ['baseline', true],
      ['prototype', true],
      ['ideas', true],
      ['review', true],
      ['novelty', true],
      ['experiment I1', true],
      ['verdict I1', true],
      ['experiment I2', false],
      ['verdict I2', false],
      ['experiments', false],
      ['report', false],
    ]);
    const finished = runsUnder(runsRoot);
    expect(finished.experiments).toHaveLength(2);
    expect(lastEnd(finished.exploration)?.status).toBe('completed');
    const reference = await uninterrupted;
    // Every call paid once: as many as the uninterrupted exploration made, over all its runs.
    expect(llmEnds([finished.exploration, ...finished.experiments])).toBe(recorded.length);
    expect(llmEnds([reference.exploration, ...reference.experiments])).toBe(recorded.length);
    expect(findings(finished.exploration)).toEqual(findings(reference.exploration));
  }, 240_000);

  it('SIGTERM in the first experiment ends it `stopped` (exit 143) with ideas.json written; `codify resume` finishes it from the recording', async () => {
    const runsRoot = join(work, 'terminated');
    const first = codify([
      ...exploreArgs,
      ...['--model', `exchange:${join(work, 'x-term-1')}`, '--root', runsRoot],
    ]);
    // Call 11 of the recording is the first experiment's first plan.
    const before = await answerFromRecording(
      join(work, 'x-term-1'),
      first,
      (index) => index === 10,
    );
    expect(before.answered).toEqual([...Array(10).keys()]);
    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    expect(stopped.status, stopped.output).toBe(143);
    expect(stopped.output).toContain('codify resume');
    const { exploration, experiments } = runsUnder(runsRoot);
    expect(lastEnd(exploration)?.status).toBe('stopped');
    expect(existsSync(join(exploration, 'ideas.json'))).toBe(true);
    expect(existsSync(join(exploration, 'report.md'))).toBe(false);
    // The experiment's implement run was stopped too (its model call cancelled), not killed.
    expect(experiments).toHaveLength(1);
    expect(lastEnd(experiments[0] ?? '')?.status).toBe('stopped');

    // Continued from the recording: a replay answers strictly in order, so it must start
    // after the 10 calls of the session that the resume does not ask again.
    const second = codify([
      ...['resume', exploration],
      ...['--model', `replay:${recording}`, '--root', runsRoot],
    ]);
    const { status, output } = await second.exited;
    expect(output).not.toMatch(/replay: call \d+/);
    expect(status, output).toBe(0);
    const finished = runsUnder(runsRoot);
    expect(finished.experiments).toHaveLength(2);
    expect(lastEnd(finished.exploration)?.status).toBe('completed');
    const reference = await uninterrupted;
    expect(llmEnds([finished.exploration, ...finished.experiments])).toBe(recorded.length);
    expect(findings(finished.exploration)).toEqual(findings(reference.exploration));
  }, 240_000);
});
