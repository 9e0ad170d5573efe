import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImplementResult } from '../../src/agent/final-result.js';
import { defaultConfig } from '../../src/config/default-config.js';
import type { EvalSummary } from '../../src/eval/collection/collect-evaluation.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { readEvents } from '../../src/runs/read-events.js';
import { agentAnswer, agentSuite } from './agent-script.js';
import { makeEvalFolder, scriptedAnswerer } from './eval-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runFolders(evalDir: string, key: string): string[] {
  const root = join(evalDir, 'runs', key);
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

describe('codify eval: one accounting', () => {
  it('a run killed mid-way and resumed by eval: the report counts what result.json and run-end count', async () => {
    const { base, taskDir } = makeEvalFolder();
    const suiteFile = join(base, 'suite.yaml');
    writeFileSync(suiteFile, agentSuite(taskDir));
    const evalDir = join(base, 'evaluation');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/eval/eval-child.ts', suiteFile, evalDir],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const key = 'toy/agent/scripted/trial-2';
    const waiting = () =>
      runFolders(evalDir, key).some((dir) =>
        readEvents(dir).events.some((event) => event.type === 'llm-start' && event.label === 'step 2'),
      );
    for (let waited = 0; !waiting() && waited < 90_000; waited += 50) await sleep(50);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const outcome = await runEvaluation({
      suite: loadSuite(suiteFile),
      evalDir,
      baseConfig: defaultConfig(),
      answerers: () => scriptedAnswerer(agentAnswer),
    });
    const report = JSON.parse(readFileSync(outcome.reports.json, 'utf8')) as EvalSummary;
    for (const record of report.runs) {
      const runDir = record.runDir ?? '';
      const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as ImplementResult;
      const end = readEvents(runDir).events.findLast((event) => event.type === 'run-end');
      console.log(record.key, record.llmCalls, record.inputTokens + record.outputTokens, result.tokens, end?.type === 'run-end' ? end.totals : null, record.wallTimeMs, result.wallTimeMs);
    }
  }, 180_000);
});
