import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../src/agent/final-result.js';
import { defaultConfig } from '../../src/config/default-config.js';
import type { EvalSummary } from '../../src/eval/collection/collect-evaluation.js';
import type { RunRecord } from '../../src/eval/collection/run-record.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import type { CodifyEvent, EventOf } from '../../src/runs/events.js';
import { callsInHistory } from '../../src/llm/calls-from-events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { codify, recordings, repositoryRoot, startCodify } from '../llm/codify-cli.js';
import { agentAnswer, agentSuite } from './agent-script.js';
import { makeEvalFolder, scriptedAnswerer } from './eval-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runFolders(evalDir: string, key: string): string[] {
  const root = join(evalDir, 'runs', key);
  return existsSync(root)
    ? readdirSync(root)
        .filter((id) => existsSync(join(root, id, 'events.jsonl')))
        .map((id) => join(root, id))
    : [];
}

const llmEnds = (dir: string): number =>
  existsSync(join(dir, 'events.jsonl'))
    ? readEvents(dir).events.filter((event) => event.type === 'llm-end').length
    : 0;

function runEnd(runDir: string): EventOf<'run-end'> | undefined {
  return readEvents(runDir).events.findLast(
    (event: CodifyEvent): event is EventOf<'run-end'> => event.type === 'run-end',
  );
}

/** What the recording's calls spent: an uninterrupted replay pays exactly this. */
function recordedSpend(file: string): { calls: number; tokens: number } {
  const calls = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { usage: { inputTokens: number; outputTokens: number } });
  return {
    calls: calls.length,
    tokens: calls.reduce((sum, call) => sum + call.usage.inputTokens + call.usage.outputTokens, 0),
  };
}

/** The report's record of a run agrees with the run's own run-end (and result.json, when it has one). */
function expectOneAccounting(record: RunRecord | undefined): void {
  const runDir = record?.runDir ?? '';
  const totals = runEnd(runDir)?.totals;
  expect(record?.llmCalls).toBe(totals?.llmCalls);
  // The calls a resume did not pay again are every call of the log: none was logged twice.
  expect(callsInHistory(readEvents(runDir).events)).toBe(record?.llmCalls);
  expect((record?.inputTokens ?? 0) + (record?.outputTokens ?? 0)).toBe(
    (totals?.inputTokens ?? 0) + (totals?.outputTokens ?? 0),
  );
  const resultPath = join(runDir, 'result.json');
  if (existsSync(resultPath)) {
    const result = JSON.parse(readFileSync(resultPath, 'utf8')) as ImplementResult;
    expect(record?.inputTokens).toBe(result.tokens.input);
    expect(record?.outputTokens).toBe(result.tokens.output);
    // Wall time: the run's own figure, the same in report.json as in result.json.
    expect(record?.wallTimeMs).toBe(result.wallTimeMs);
  }
}

/** Starts `codify eval SUITE --out DIR`, kills it with -9 once a run under `key` has logged `calls` model calls. */
async function killAfterCalls(suiteFile: string, evalDir: string, key: string, calls: number) {
  const child = startCodify(['eval', suiteFile, '--out', evalDir, '--json']);
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const logged = () => runFolders(evalDir, key).reduce((sum, dir) => sum + llmEnds(dir), 0);
  for (let waited = 0; logged() < calls && waited < 120_000; waited += 20) await sleep(20);
  child.kill('SIGKILL');
  await exited;
  return logged();
}

describe('codify eval: one accounting after a resume', () => {
  it('an agent run killed mid-step and resumed by eval: the report counts what result.json and run-end count', async () => {
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(suiteFile, agentSuite(taskDir));
    const evalDir = join(base, 'evaluation');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/eval/eval-child.ts', suiteFile, evalDir],
      { stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const key = 'toy/agent/scripted/trial-2';
    // Trial 2's planner never answers step 2 (eval-child.ts): killed while it waits there.
    // A run folder exists a moment before its events.jsonl: only a folder with a log is read.
    const waiting = () =>
      runFolders(evalDir, key).some(
        (dir) =>
          existsSync(join(dir, 'events.jsonl')) &&
          readEvents(dir).events.some(
            (event) => event.type === 'llm-start' && event.label === 'step 2',
          ),
      );
    for (let waited = 0; !waiting() && waited < 90_000; waited += 50) await sleep(50);
    child.kill('SIGKILL');
    await exited;
    const outcome = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      answerers: () => scriptedAnswerer(agentAnswer),
    });
    const report = JSON.parse(readFileSync(outcome.reports.json, 'utf8')) as EvalSummary;
    for (const record of report.runs) expectOneAccounting(record);
    // Each trial's run pays what an uninterrupted one does: two steps, a planner call each
    // (no summary: neither step left the steps shown in full).
    expect(report.runs.map((record) => record.llmCalls)).toEqual([2, 2, 2]);
    expect(report.totals.llmCalls).toBe(6);
    expect(report.totals.wallTimeMs).toBe(
      report.runs.reduce((sum, record) => sum + record.wallTimeMs, 0),
    );
  }, 180_000);

  it('a prescribed-plan run (replayed) killed mid-way and resumed by eval in its folder: every recorded call once, the replay continued where it was', async () => {
    const recording = join(recordings, 'yona-digits-prescribed-plan.jsonl');
    const base = mkdtempSync(join(tmpdir(), 'codify-eval-accounting-'));
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(
      suiteFile,
      [
        'name: prescribed',
        `items: [{task: ${join(repositoryRoot, 'examples/yona-digits')}}]`,
        'strategies: [prescribed-plan]',
        `models: [{name: recorded, model: "replay:${recording}"}]`,
        'starter_trials: 0',
        '',
      ].join('\n'),
    );
    const evalDir = join(base, 'evaluation');
    const key = 'yona-digits/prescribed-plan/recorded/trial-1';
    const before = await killAfterCalls(suiteFile, evalDir, key, 3);
    const expected = recordedSpend(recording);
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(expected.calls);
    const again = await codify(['eval', suiteFile, '--out', evalDir]);
    expect(again.status, again.output).toBe(0);
    expect(again.output).toContain(`resume ${key}`);
    expect(runFolders(evalDir, key)).toHaveLength(1);
    const report = JSON.parse(readFileSync(join(evalDir, 'report.json'), 'utf8')) as EvalSummary;
    const [record] = report.runs;
    expectOneAccounting(record);
    expect(record?.llmCalls).toBe(expected.calls);
    expect((record?.inputTokens ?? 0) + (record?.outputTokens ?? 0)).toBe(expected.tokens);
    // The replay went on from the calls answered from the log: no action met a wrong answer.
    const runDir = record?.runDir ?? '';
    const failedActions = readEvents(runDir).events.filter(
      (event) => event.type === 'action-end' && !event.ok && event.action === 'Edit Script',
    );
    expect(failedActions).toEqual([]);
    expect(record?.implement?.ran).toBe(true);
  }, 480_000);

  it("a paper run (replayed) killed mid-way and restarted by eval in its folder keeps the killed attempt's calls: every recorded call once", async () => {
    const recording = join(recordings, 'paper-mixup-tabular.jsonl');
    const base = mkdtempSync(join(tmpdir(), 'codify-eval-accounting-'));
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(
      suiteFile,
      [
        'name: paper',
        `items: [{paper: ${join(repositoryRoot, 'examples/papers/mixup-tabular/paper.md')}}]`,
        `models: [{name: recorded, model: "replay:${recording}"}]`,
        'starter_trials: 0',
        '',
      ].join('\n'),
    );
    const evalDir = join(base, 'evaluation');
    const key = 'mixup-tabular/paper/recorded/trial-1';
    const before = await killAfterCalls(suiteFile, evalDir, key, 5);
    const expected = recordedSpend(recording);
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(expected.calls);
    const again = await codify(['eval', suiteFile, '--out', evalDir]);
    expect(again.status, again.output).toBe(0);
    expect(runFolders(evalDir, key)).toHaveLength(1);
    const report = JSON.parse(readFileSync(join(evalDir, 'report.json'), 'utf8')) as EvalSummary;
    const [record] = report.runs;
    expectOneAccounting(record);
    expect(record?.llmCalls).toBe(expected.calls);
    expect((record?.inputTokens ?? 0) + (record?.outputTokens ?? 0)).toBe(expected.tokens);
    expect(report.totals.llmCalls).toBe(expected.calls);
  }, 480_000);
});
