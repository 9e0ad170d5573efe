import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/default-config.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import { queueDispatch } from '../../../src/eval/dispatch/queue-dispatch.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { readEvents } from '../../../src/runs/read-events.js';
import { makeEvalFolder } from '../eval-fixture.js';
import { freePort, startRedis } from '../redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function startWorker(url: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/eval/worker-child.ts', url], {
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

/** Every run folder of a combination, with its run-start pids and run-end count. */
function folders(evalDir: string, key: string) {
  const root = join(evalDir, 'runs', key);
  if (!existsSync(root)) return [];
  // A run folder exists a moment before its events.jsonl: such a folder is not counted yet.
  return readdirSync(root)
    .filter((id) => existsSync(join(root, id, 'events.jsonl')))
    .map((id) => {
      const events = readEvents(join(root, id)).events;
      return {
        pids: events.flatMap((event) =>
          event.type === 'run-start' && event.pid !== undefined ? [event.pid] : [],
        ),
        ends: events.filter((event) => event.type === 'run-end').length,
        steps: events.filter((event) => event.type === 'step-end').length,
      };
    });
}

describe('codify eval --queue with codify worker', () => {
  it('spreads the runs over two workers; a worker killed mid-run has its run finished by the other, every run exactly once', async () => {
    const port = await freePort();
    await startRedis(port, children);
    const url = `redis://127.0.0.1:${port}`;
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(
      suiteFile,
      [
        'items:',
        `  - task: ${taskDir}`,
        'strategies: [agent]',
        'models: [{name: scripted, model: scripted:agent}]',
        'trials: 4',
        'starter_trials: 0',
        'python: /usr/bin/python3',
        '',
      ].join('\n'),
    );
    const evalDir = join(base, 'evaluation');
    const keys = [1, 2, 3, 4].map((trial) => `toy/agent/scripted/trial-${trial}`);
    const first = startWorker(url);
    const second = startWorker(url);
    const evaluation = runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      dispatch: queueDispatch({ url, pollMs: 200 }),
    });
    // Kill the first worker once a run of its own has completed a step but not ended.
    let killed = false;
    for (let waited = 0; !killed && waited < 90_000; waited += 50) {
      await sleep(50);
      const mine = keys
        .flatMap((key) => folders(evalDir, key))
        .find(
          (folder) =>
            folder.pids.includes(first.pid ?? -1) && folder.steps >= 1 && folder.ends === 0,
        );
      if (mine !== undefined) {
        first.kill('SIGKILL');
        killed = true;
      }
    }
    expect(killed).toBe(true);
    const outcome = await evaluation;
    expect(outcome.summary.missing).toEqual([]);
    const all = keys.map((key) => folders(evalDir, key));
    for (const runFolders of all) {
      // One folder per run, ended once: the interrupted run was resumed, not started again.
      expect(runFolders).toHaveLength(1);
      expect(runFolders[0]?.ends).toBe(1);
    }
    const resumed = all.flat().filter((folder) => folder.pids.length === 2);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.pids).toEqual([first.pid, second.pid]);
    expect(
      all.flat().some((folder) => folder.pids.length === 1 && folder.pids[0] === second.pid),
    ).toBe(true);
    expect(outcome.summary.runs.map((run) => run.implement?.category)).toEqual([
      'B',
      'B',
      'B',
      'B',
    ]);
    // The dead worker is reported with the run it held, and that run's taking up by the other.
    const log = readEvents(evalDir).events;
    const firstName = `${hostname()}:${first.pid}`;
    const secondName = `${hostname()}:${second.pid}`;
    const resumedKey = keys.find((key) => folders(evalDir, key)[0]?.pids.length === 2);
    const lost = log.filter((event) => event.type === 'eval-worker-lost');
    expect(lost).toEqual([expect.objectContaining({ worker: firstName, runs: [resumedKey] })]);
    const retaken = log.find((event) => event.type === 'eval-run-retaken');
    expect(retaken).toMatchObject({ key: resumedKey, worker: secondName, lostWorker: firstName });
    // The progress counts the live workers: two, then one once the first is gone.
    const workers = log.flatMap((event) =>
      event.type === 'eval-progress' && event.workers !== undefined ? [event.workers] : [],
    );
    expect(workers).toContain(2);
    expect(workers.at(-1)).toBe(1);
    expect(log.find((event) => event.type === 'eval-start')).toMatchObject({ dispatch: 'queue' });
    // The report lists the loss too.
    expect(outcome.summary.workersLost).toEqual([
      {
        worker: firstName,
        at: expect.any(String) as string,
        runs: [
          {
            key: resumedKey,
            takenAgain: expect.objectContaining({ worker: secondName }) as object,
          },
        ],
      },
    ]);
    expect(readFileSync(outcome.reports.markdown, 'utf8')).toContain('Workers lost (1;');
    second.kill('SIGTERM');
  }, 180_000);
});
