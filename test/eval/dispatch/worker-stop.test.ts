import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/default-config.js';
import { queueDispatch } from '../../../src/eval/dispatch/queue-dispatch.js';
import { runEvaluation } from '../../../src/eval/run-evaluation.js';
import { loadSuite } from '../../../src/eval/suite/load-suite.js';
import type { CodifyEvent } from '../../../src/runs/events.js';
import { readEvents } from '../../../src/runs/read-events.js';
import { startCodify } from '../../llm/codify-cli.js';
import { makeEvalFolder } from '../eval-fixture.js';
import { answerAsAgent } from '../exchange-agent.js';
import { freePort, startRedis } from '../redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `codify worker --queue URL`, its output collected and its exit awaited. */
function startWorkerCli(url: string) {
  const child = startCodify(['worker', '--queue', url]);
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, output: () => output, exited };
}

function eventsOfRun(evalDir: string, key: string): CodifyEvent[] {
  const root = join(evalDir, 'runs', key);
  const [id] = existsSync(root) ? readdirSync(root) : [];
  return id === undefined ? [] : readEvents(join(root, id)).events;
}

describe('codify worker stopped', () => {
  it('SIGTERM stops its run (ended stopped), the worker exits 143 by itself, and another worker continues the run', async () => {
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
        'models: [{name: exchange, model: "exchange:exchange/trial-{trial}"}]',
        'trials: 1',
        'starter_trials: 0',
        'python: /usr/bin/python3',
        '',
      ].join('\n'),
    );
    const evalDir = join(base, 'evaluation');
    const key = 'toy/agent/exchange/trial-1';
    const exchange = join(base, 'exchange');
    // The first worker's run waits for ever on its second step.
    const holding = answerAsAgent(exchange, (_folder, request) => request.label === 'step 2');
    const first = startWorkerCli(url);
    const evaluation = runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      dispatch: queueDispatch({ url, pollMs: 200 }),
    });
    const waiting = () =>
      eventsOfRun(evalDir, key).some((event) => event.type === 'step-end' && event.step === 1);
    for (let waited = 0; !waiting() && waited < 120_000; waited += 50) await sleep(50);
    expect(waiting(), first.output()).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(143);
    holding.stop();
    expect(first.output()).toContain('stopping the runs under way');
    expect(eventsOfRun(evalDir, key).at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });

    const answering = answerAsAgent(exchange);
    const second = startWorkerCli(url);
    try {
      const outcome = await evaluation;
      expect(outcome.summary.missing).toEqual([]);
      const events = eventsOfRun(evalDir, key);
      const starts = events.filter((event) => event.type === 'run-start');
      // Continued in its folder by the second worker, not started again.
      expect(starts.map((event) => (event.type === 'run-start' ? event.pid : 0))).toEqual([
        first.child.pid,
        second.child.pid,
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    } finally {
      answering.stop();
      second.child.kill('SIGTERM');
      expect(await second.exited, second.output()).toBe(143);
    }
  }, 240_000);
});
