import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ExperimentRecord } from '../../src/explore/experiments/run-experiments.js';
import { resumeExplore } from '../../src/explore/run-explore.js';
import type { EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { readFirstEvent } from '../../src/runs/read-first-event.js';
import { experimentActions } from './experiment-actions.js';
import { exploreModels, ideaOf } from './experiment-resume-script.js';
import { verdictAnswer } from './explore-fixtures.js';

const runOf = (exploreDir: string, idea: string) =>
  (
    JSON.parse(readFileSync(join(exploreDir, 'experiments', idea, 'run.json'), 'utf8')) as {
      runDir: string;
    }
  ).runDir;

describe('codify explore --resume with experiments', () => {
  it('keeps the finished experiment, resumes the killed one where it stopped, and starts the one never started', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-exp-resume-'));
    const marker = join(root, 'in-second-experiment');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/explore/experiment-resume-child.ts', root, marker],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    for (let waited = 0; !existsSync(marker) && waited < 60_000; waited += 20) await sleep(20);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const [exploreId] = readdirSync(join(root, 'runs')).filter((name) => {
      const start = readFirstEvent(join(root, 'runs', name));
      return start?.type === 'run-start' && start.mode === 'explore';
    });
    const exploreDir = join(root, 'runs', exploreId ?? '');
    const first = runOf(exploreDir, 'I1');
    const second = runOf(exploreDir, 'I2');
    expect(existsSync(join(first, 'result.json'))).toBe(true);
    expect(existsSync(join(second, 'result.json'))).toBe(false);
    expect(existsSync(join(exploreDir, 'experiments', 'I3'))).toBe(false);
    const firstEvents = readEvents(first).events.length;

    // The judge is asked only the verdicts of the two experiments not finished before the kill.
    const { models, experiments } = exploreModels(undefined, [verdictAnswer(), verdictAnswer()]);
    const result = await resumeExplore(exploreDir, {
      models,
      experimentActions,
      host: { runsRoot: join(root, 'runs') },
    });
    // The exploration's 5 calls (analysis, ideas, 3 reviews) are in finished stages,
    // returned from the run folder: not asked again, not even of the log.
    expect(result.reusedCalls).toBe(0);
    const exploreEvents = readEvents(exploreDir).events;
    const resumed = exploreEvents
      .slice(exploreEvents.findLastIndex((event) => event.type === 'run-start'))
      .filter((event): event is EventOf<'stage-end'> => event.type === 'stage-end')
      .map((end) => [end.stage, end.ok, end.reused ?? false]);
    expect(resumed).toEqual([
      ['ingest', true, true],
      ['analysis', true, true],
      // With --code the baseline and the prototype summary come before the ideas.
      ['baseline', true, true],
      ['prototype', true, true],
      ['ideas', true, true],
      ['review', true, true],
      ['novelty', true, true],
      ['experiment I1', true, true],
      // The finished verdict is kept: not asked again, not even of the log (reusedCalls 0).
      ['verdict I1', true, true],
      ['experiment I2', true, false],
      ['verdict I2', true, false],
      ['experiment I3', true, false],
      ['verdict I3', true, false],
      ['experiments', true, false],
      ['report', true, false],
    ]);
    // Asked again: the killed experiment's step 2 only, then the third experiment's 2 steps.
    const asked = experiments.flatMap((caller) =>
      caller.requests
        .filter((request) => request.role === 'planner')
        .map((request) => `${ideaOf(request)} ${request.label ?? ''}`),
    );
    expect(asked).toEqual([
      'Feature noise step 2',
      'Label smoothing step 1',
      'Label smoothing step 2',
    ]);
    // The finished run is untouched; the killed one continued in its own folder.
    expect(readEvents(first).events).toHaveLength(firstEvents);
    expect(runOf(exploreDir, 'I2')).toBe(second);
    const secondEvents = readEvents(second).events;
    expect(secondEvents.filter((event) => event.type === 'run-start')).toHaveLength(2);
    expect(secondEvents.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });

    const records = JSON.parse(
      readFileSync(join(exploreDir, 'experiments.json'), 'utf8'),
    ) as ExperimentRecord[];
    expect(records.map((record) => record.verdict?.verdict)).toEqual([
      'inconclusive',
      'inconclusive',
      'inconclusive',
    ]);
    expect(records.map((record) => [record.idea, record.metric?.value, record.runDir])).toEqual([
      ['I2', 0.9, second],
      ['I3', 0.7, runOf(exploreDir, 'I3')],
      ['I1', 0.6, first],
    ]);
    expect(readEvents(exploreDir).events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
    });
  }, 120_000);
});
