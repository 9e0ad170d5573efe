import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStopped } from '../../src/errors/run-stopped.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { EventOf } from '../../src/runs/events.js';
import { withRun, type RunScope } from '../../src/runs/lifecycle.js';
import { readEvents } from '../../src/runs/read-events.js';
import { readRunSettings } from '../../src/runs/run-settings.js';
import { stageFile } from '../../src/runs/stages.js';

const root = () => mkdtempSync(join(tmpdir(), 'codify-lifecycle-'));

/** Two stages, each one model call; the second fails the first time it is asked to. */
async function twoStages(scope: RunScope, failSecond: { value: boolean }) {
  const first = await scope.stages.run(
    'first',
    async () =>
      (await scope.models.call({ role: 'planner', messages: [{ role: 'user', content: 'one' }] }))
        .text,
    { describe: (text) => `said ${text}` },
  );
  const second = await scope.stages.run('second', async () => {
    const answer = await scope.models.call({
      role: 'planner',
      messages: [{ role: 'user', content: 'two' }],
    });
    if (failSecond.value) throw new Error('the provider went away');
    return answer.text;
  });
  return { status: 'completed' as const, value: [first, second], result: { first, second } };
}

describe('withRun and Stages', () => {
  it('a failed run resumes: a finished stage is returned, a completed call is not paid again', async () => {
    const runsRoot = root();
    let runDir = '';
    await expect(
      withRun(
        { mode: 'paper', name: 'lifecycle', settings: { answer: 42 } },
        { runsRoot, onRun: (run) => (runDir = run.dir) },
        (run) => createScriptedCaller({ planner: ['A', 'B', 'C'] }, { run }).caller,
        (scope) => twoStages(scope, { value: true }),
      ),
    ).rejects.toThrow('the provider went away');
    expect(existsSync(stageFile(runDir, 'first'))).toBe(true);
    expect(existsSync(stageFile(runDir, 'second'))).toBe(false);
    expect(readRunSettings(runDir, 'paper')).toEqual({ answer: 42 });

    let fresh: ReturnType<typeof createScriptedCaller> | undefined;
    const value = await withRun(
      { resume: runDir },
      { runsRoot },
      (run) => {
        fresh = createScriptedCaller({ planner: ['never asked'] }, { run });
        return fresh.caller;
      },
      (scope) => twoStages(scope, { value: false }),
    );
    // "A" from the stored stage, "B" from the log: the resumed process asked the model nothing.
    expect(value).toEqual(['A', 'B']);
    expect(fresh?.requests.planner).toHaveLength(0);
    const { events } = readEvents(runDir);
    expect(events.filter((event) => event.type === 'llm-end')).toHaveLength(2);
    const ends = events.filter(
      (event): event is EventOf<'stage-end'> => event.type === 'stage-end',
    );
    expect(ends.map((end) => [end.stage, end.ok, end.reused ?? false])).toEqual([
      ['first', true, false],
      ['second', false, false],
      ['first', true, true],
      ['second', true, false],
    ]);
    expect(ends[0]?.usage?.llmCalls).toBe(1);
    expect(ends[0]?.detail).toBe('said A');
    const runEnds = events.filter((event): event is EventOf<'run-end'> => event.type === 'run-end');
    expect(runEnds.map((end) => end.status)).toEqual(['failed', 'completed']);
    // Every call paid is counted once, over both processes.
    expect(runEnds[1]?.totals?.llmCalls).toBe(2);
  });

  it('a stop between stages ends the run stopped and throws RunStopped', async () => {
    const runsRoot = root();
    const controller = new AbortController();
    const scripted = createScriptedCaller({ planner: ['A', 'B'] });
    let runDir = '';
    const stopping = withRun(
      { mode: 'explore', name: 'stop' },
      { runsRoot, signal: controller.signal, onRun: (run) => (runDir = run.dir) },
      () => scripted.caller,
      async (scope) => {
        await scope.stages.run('first', () => {
          controller.abort(new Error('interrupted by SIGTERM'));
          return Promise.resolve(1);
        });
        await scope.stages.run('second', () => Promise.resolve(2));
        return { status: 'completed', value: undefined };
      },
    );
    const error = await stopping.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunStopped);
    expect((error as RunStopped).exitCode).toBe(143);
    const { events } = readEvents(runDir);
    expect(events.some((event) => event.type === 'stage-start' && event.stage === 'second')).toBe(
      false,
    );
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
  });

  it('refuses to resume a run that completed', async () => {
    const runsRoot = root();
    let runDir = '';
    await withRun(
      { mode: 'paper', name: 'done' },
      { runsRoot, onRun: (run) => (runDir = run.dir) },
      () => createScriptedCaller({}).caller,
      () => Promise.resolve({ status: 'completed', value: 1 }),
    );
    await expect(
      withRun(
        { resume: runDir },
        { runsRoot },
        () => createScriptedCaller({}).caller,
        () => Promise.resolve({ status: 'completed', value: 2 }),
      ),
    ).rejects.toThrow(/already ended \(completed\)/);
    // The refusal wrote nothing into the run, so it stays completed.
    const ends = readEvents(runDir).events.filter((event) => event.type === 'run-end');
    expect(ends).toEqual([expect.objectContaining({ status: 'completed' })]);
  });
});
