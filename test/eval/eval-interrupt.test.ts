import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CodifyEvent } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { codify, startCodify } from '../llm/codify-cli.js';
import { makeEvalFolder } from './eval-fixture.js';
import { answerAsAgent, exchangeRequests } from './exchange-agent.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const key = (trial: number) => `toy/agent/exchange/trial-${trial}`;

/**
 * A suite of one task, the agent, three trials, each trial's model an exchange folder
 * (`exchange/trial-N`) the test answers; its evaluation folder is `<base>/evaluation`.
 */
function exchangeSuite(): { suiteFile: string; evalDir: string; exchange: string } {
  const { base, taskDir } = makeEvalFolder();
  const suiteFile = join(base, 'suite.yaml');
  writeFileSync(
    suiteFile,
    [
      'name: interrupted-cli',
      'items:',
      `  - task: ${taskDir}`,
      'strategies: [agent]',
      'models:',
      '  - name: exchange',
      '    model: exchange:exchange/trial-{trial}',
      'trials: 3',
      'starter_trials: 0',
      'python: /usr/bin/python3',
      'budgets: { max_steps: 5 }',
      '',
    ].join('\n'),
  );
  return { suiteFile, evalDir: join(base, 'evaluation'), exchange: join(base, 'exchange') };
}

/** Every run folder under a combination's root. */
function runFolders(evalDir: string, trial: number): string[] {
  const root = join(evalDir, 'runs', key(trial));
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

function eventsOf(runDir: string | undefined): CodifyEvent[] {
  return runDir === undefined || !existsSync(join(runDir, 'events.jsonl'))
    ? []
    : readEvents(runDir).events;
}

/** llm-end events in the evaluation's log and every run folder under it: what was paid. */
function paidCalls(evalDir: string): number {
  const folders = [evalDir, ...[1, 2, 3].flatMap((trial) => runFolders(evalDir, trial))];
  return folders.reduce(
    (sum, dir) => sum + eventsOf(dir).filter((event) => event.type === 'llm-end').length,
    0,
  );
}

/** Trial 2 has finished its first step and now waits on the answer to its second. */
const trialTwoWaits = (evalDir: string) =>
  runFolders(evalDir, 2).some((dir) =>
    eventsOf(dir).some((event) => event.type === 'step-end' && event.step === 1),
  );

/** `codify eval SUITE --out DIR` to its end, every request answered. */
async function evaluate(suiteFile: string, evalDir: string, exchange: string) {
  const agent = answerAsAgent(exchange);
  try {
    return await codify(['eval', suiteFile, '--out', evalDir, '--json']);
  } finally {
    agent.stop();
  }
}

/** Starts `codify eval` with trial 2's second step held, and resolves once it waits there. */
async function waitingInTrialTwo(suiteFile: string, evalDir: string, exchange: string) {
  const agent = answerAsAgent(
    exchange,
    (folder, request) => folder === 'trial-2' && request.label === 'step 2',
  );
  const child = startCodify(['eval', suiteFile, '--out', evalDir, '--json']);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  for (let waited = 0; !trialTwoWaits(evalDir) && waited < 120_000; waited += 50) {
    await sleep(50);
  }
  expect(trialTwoWaits(evalDir), output).toBe(true);
  return {
    agent,
    output: () => output,
    signal: (name: NodeJS.Signals) => {
      child.kill(name);
      return exited.finally(() => agent.stop());
    },
  };
}

describe('codify eval interrupted (CLI)', () => {
  let uninterruptedCalls: number | undefined;
  /** What an evaluation of the suite pays when nothing interrupts it. */
  async function uninterrupted(): Promise<number> {
    if (uninterruptedCalls !== undefined) return uninterruptedCalls;
    const { suiteFile, evalDir, exchange } = exchangeSuite();
    const result = await evaluate(suiteFile, evalDir, exchange);
    expect(result.status, result.output).toBe(0);
    uninterruptedCalls = paidCalls(evalDir);
    return uninterruptedCalls;
  }

  it('killed with -9 mid-way, the same command finishes it: finished runs not redone, no completed call paid twice', async () => {
    const { suiteFile, evalDir, exchange } = exchangeSuite();
    const child = await waitingInTrialTwo(suiteFile, evalDir, exchange);
    expect(await child.signal('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    const [firstRun] = runFolders(evalDir, 1);
    expect(eventsOf(firstRun).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(runFolders(evalDir, 3)).toEqual([]);
    const firstRequests = exchangeRequests(exchange, 'trial-1');

    const again = await evaluate(suiteFile, evalDir, exchange);
    expect(again.status, again.output).toBe(0);
    // Trial 1 was not run again: one folder, one process, no new request to its model.
    expect(runFolders(evalDir, 1)).toEqual([firstRun]);
    expect(eventsOf(firstRun).filter((event) => event.type === 'run-start')).toHaveLength(1);
    expect(exchangeRequests(exchange, 'trial-1')).toBe(firstRequests);
    // Trial 2 was continued in its folder by a second process; trial 3 started.
    expect(runFolders(evalDir, 2)).toHaveLength(1);
    const trialTwo = eventsOf(runFolders(evalDir, 2)[0]);
    expect(trialTwo.filter((event) => event.type === 'run-start')).toHaveLength(2);
    expect(trialTwo.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(runFolders(evalDir, 3)).toHaveLength(1);
    // The evaluation's log was continued, not started again.
    const log = eventsOf(evalDir);
    const starts = log.filter((event) => event.type === 'run-start');
    expect(starts).toHaveLength(2);
    const continued = starts[1];
    expect(continued?.type === 'run-start' && continued.mode === 'eval').toBe(true);
    expect(continued?.type === 'run-start' ? continued.resumedFrom : undefined).toBeGreaterThan(0);
    expect(log.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(paidCalls(evalDir)).toBe(await uninterrupted());
  }, 300_000);

  it('SIGTERM stops the run in flight and ends the evaluation stopped (exit 143), finished runs on disk; running again finishes it', async () => {
    const { suiteFile, evalDir, exchange } = exchangeSuite();
    const child = await waitingInTrialTwo(suiteFile, evalDir, exchange);
    const exit = await child.signal('SIGTERM');
    expect(exit.code, child.output()).toBe(143);
    expect(child.output()).toContain('run the same command again to finish what is missing');
    const [firstRun] = runFolders(evalDir, 1);
    expect(firstRun !== undefined && existsSync(join(firstRun, 'result.json'))).toBe(true);
    expect(eventsOf(firstRun).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    // The run in flight was stopped through the signal, not killed; no run started after it.
    expect(eventsOf(runFolders(evalDir, 2)[0]).at(-1)).toMatchObject({
      type: 'run-end',
      status: 'stopped',
    });
    expect(runFolders(evalDir, 3)).toEqual([]);
    const log = eventsOf(evalDir);
    expect(log.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    expect(log.find((event) => event.type === 'stage-end' && event.stage === 'runs')).toMatchObject(
      { ok: false },
    );
    expect(log.some((event) => event.type === 'stage-start' && event.stage === 'report')).toBe(
      false,
    );

    const again = await evaluate(suiteFile, evalDir, exchange);
    expect(again.status, again.output).toBe(0);
    expect(runFolders(evalDir, 1)).toEqual([firstRun]);
    const trialTwo = eventsOf(runFolders(evalDir, 2)[0]);
    expect(trialTwo.filter((event) => event.type === 'run-start')).toHaveLength(2);
    expect(trialTwo.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(eventsOf(evalDir).at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(paidCalls(evalDir)).toBe(await uninterrupted());
  }, 300_000);
});
