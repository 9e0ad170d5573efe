import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { defaultConfig } from '../../../src/config/default-config.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import { queueConnection, queueName } from '../../../src/eval/dispatch/queue-connection.js';
import { queueDispatch } from '../../../src/eval/dispatch/queue-dispatch.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { readEvents } from '../../../src/runs/read-events.js';
import { makeEvalFolder } from '../eval-fixture.js';
import { freePort, startRedis } from '../redis-server.js';

const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function startWorker(url: string, workDir: string): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/eval/worker-child.ts', url, workDir],
    { stdio: 'ignore' },
  );
  children.push(child);
  return child;
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('codify eval --queue --results queue', () => {
  it('gets every run folder back through the job results, unpacked into the evaluation folder with its paths rewritten; a result over the cap fails its run', async () => {
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
        'models: [{name: scripted, model: scripted:agent}]',
        'trials: 2',
        'starter_trials: 0',
        'python: /usr/bin/python3',
        '',
      ].join('\n'),
    );
    // Nothing shared: each worker makes its runs in a folder of its own.
    const workDirs = [join(base, 'worker-1'), join(base, 'worker-2')];
    const workers = workDirs.map((dir) => startWorker(url, dir));
    const evalDir = join(base, 'evaluation');
    const outcome = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      dispatch: queueDispatch({ url, pollMs: 200, results: 'queue' }),
    });
    expect(outcome.summary.missing).toEqual([]);
    expect(outcome.summary.runs.map((run) => run.implement?.category)).toEqual(['B', 'B']);
    for (const run of outcome.summary.runs) {
      const runDir = run.runDir ?? '';
      expect(runDir.startsWith(join(evalDir, 'runs', run.key))).toBe(true);
      expect(readEvents(runDir).events.filter((event) => event.type === 'run-end')).toHaveLength(1);
      // The result names the folder it is in now, not the worker's.
      const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as {
        runDir: string;
      };
      expect(result.runDir).toBe(runDir);
      expect(readFileSync(join(runDir, 'events.jsonl'), 'utf8')).not.toContain('worker-');
    }
    // Sent and unpacked: nothing left on the workers, no result left in Redis.
    expect(workDirs.flatMap(filesUnder)).toEqual([]);
    const queue = new Queue(queueName, { connection: queueConnection(url) });
    expect(await queue.getJobCounts('completed', 'failed', 'waiting', 'active')).toEqual({
      completed: 0,
      failed: 0,
      waiting: 0,
      active: 0,
    });
    await queue.close();

    // A cap no run folder fits under: the run fails once (no retry can shrink it), and says why.
    const capped = join(base, 'capped');
    const small = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir: capped,
      baseConfig: defaultConfig(),
      dispatch: queueDispatch({ url, pollMs: 200, results: 'queue', maxResultBytes: 64 }),
    });
    expect(small.summary.missing).toHaveLength(2);
    const ends = readEvents(capped).events.filter((event) => event.type === 'eval-run-end');
    expect(ends).toHaveLength(2);
    for (const end of ends) {
      expect(end.type === 'eval-run-end' ? (end.message ?? '') : '').toMatch(
        /over the cap of 0\.0 MB for results sent through the queue/,
      );
    }
    for (const worker of workers) worker.kill('SIGTERM');
  }, 180_000);
});
