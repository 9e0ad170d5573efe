import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/default-config.js';
import { queueDispatch } from '../../../src/eval/dispatch/queue-dispatch.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import type { CodifyEvent } from '../../../src/runs/events.js';
import { readEvents } from '../../../src/runs/read-events.js';
import { codify, startCodify } from '../../llm/codify-cli.js';
import { makeEvalFolder } from '../eval-fixture.js';
import { freePort, startRedis } from '../redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A suite of one task, the scripted agent, `trials` trials. */
function agentSuite(trials: number): { suiteFile: string; evalDir: string } {
  const { base, taskDir } = makeEvalFolder();
  const suiteFile = join(base, 'suite.yaml');
  writeFileSync(
    suiteFile,
    [
      'items:',
      `  - task: ${taskDir}`,
      'strategies: [agent]',
      'models: [{name: scripted, model: scripted:agent}]',
      `trials: ${trials}`,
      'starter_trials: 0',
      'python: /usr/bin/python3',
      '',
    ].join('\n'),
  );
  return { suiteFile, evalDir: join(base, 'evaluation') };
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe('the queue when Redis fails', () => {
  it('an unreachable Redis: one line and a clean exit (4) after --queue-timeout, the runs left to do', async () => {
    const { suiteFile, evalDir } = agentSuite(2);
    const port = await freePort();
    const started = Date.now();
    const { status, output } = await codify([
      'eval',
      suiteFile,
      '--out',
      evalDir,
      '--queue',
      `redis://127.0.0.1:${port}`,
      '--queue-timeout',
      '2',
    ]);
    expect(status, output).toBe(4);
    expect(output).toContain(
      `codify eval: cannot reach Redis at redis://127.0.0.1:${port} (connect ECONNREFUSED`,
    );
    expect(output).toContain('2 runs are left to do');
    // No stack traces of the reconnecting client.
    expect(output).not.toMatch(/^\s+at /m);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readEvents(evalDir).events.at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });
  }, 90_000);

  it('a Redis restarted without its data: the coordinator enqueues the lost jobs again, and a worker runs them', async () => {
    const port = await freePort();
    const first = await startRedis(port, children);
    const url = `redis://127.0.0.1:${port}`;
    const { suiteFile, evalDir } = agentSuite(2);
    const logged: CodifyEvent[] = [];
    const evaluation = runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      host: { sinks: [(event) => logged.push(event)] },
      dispatch: queueDispatch({ url, pollMs: 200 }),
    });
    for (let waited = 0; waited < 30_000; waited += 50) {
      if (logged.some((event) => event.type === 'eval-progress')) break;
      await sleep(50);
    }
    // The jobs are in Redis, no worker has taken them; Redis goes and comes back empty.
    await sleep(500);
    await killed(first);
    await startRedis(port, children);
    const lost = () =>
      logged.filter((event) => event.type === 'log' && event.message.includes('is gone from Redis'))
        .length;
    for (let waited = 0; lost() < 2 && waited < 60_000; waited += 100) await sleep(100);
    expect(lost()).toBe(2);
    const worker = spawn(process.execPath, ['--import', 'tsx', 'test/eval/worker-child.ts', url], {
      stdio: 'ignore',
    });
    children.push(worker);
    const outcome = await evaluation;
    expect(outcome.summary.missing).toEqual([]);
    expect(outcome.summary.runs.map((run) => run.implement?.category)).toEqual(['B', 'B']);
    worker.kill('SIGTERM');
  }, 180_000);

  it('a worker given SIGTERM while Redis is down exits', async () => {
    const port = await freePort();
    const redis = await startRedis(port, children);
    const child = startCodify(['worker', '--queue', `redis://127.0.0.1:${port}`]);
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    for (let waited = 0; !output.includes('waiting for runs') && waited < 60_000; waited += 50) {
      await sleep(50);
    }
    expect(output).toContain('waiting for runs');
    await killed(redis);
    await sleep(500);
    const signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exited, output).toBe(143);
    expect(Date.now() - signalled).toBeLessThan(20_000);
  }, 90_000);
});
