import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import type { EvalSummary } from '../../src/eval/collection/collect-evaluation.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { readEvents } from '../../src/runs/read-events.js';
import { codify, recordings } from '../llm/codify-cli.js';
import { codeAnswer, improved, makeEvalFolder, scriptedAnswerer } from './eval-fixture.js';

const key = 'toy/single-call/m/trial-1';

function runFolders(evalDir: string): string[] {
  const root = join(evalDir, 'runs', key);
  return existsSync(root) ? readdirSync(root).map((id) => join(root, id)) : [];
}

/** A suite of the toy task, single-call, one model given by `model`. */
function toySuite(model: string): { suiteFile: string; evalDir: string; base: string } {
  const { base, taskDir } = makeEvalFolder();
  const suiteFile = join(base, 'suite.yaml');
  writeFileSync(
    suiteFile,
    [
      `items: [{task: ${taskDir}}]`,
      'strategies: [single-call]',
      `models: [{name: m, model: "${model}"}]`,
      'starter_trials: 0',
      'python: /usr/bin/python3',
      '',
    ].join('\n'),
  );
  return { suiteFile, evalDir: join(base, 'evaluation'), base };
}

describe('codify eval: models checked before the start', () => {
  it('a replay: recording that is missing, a recording that does not parse and a bad spec stop the command at once (exit 3), nothing started', async () => {
    const missing = toySuite('replay:no-such-recording.jsonl');
    const run = await codify(['eval', missing.suiteFile, '--out', missing.evalDir]);
    expect(run.status, run.output).toBe(3);
    expect(run.output).toContain(
      `${missing.suiteFile}: ${key} (planner): replay: cannot read the recording`,
    );
    expect(run.output).toContain('no-such-recording.jsonl');
    expect(existsSync(missing.evalDir)).toBe(false);

    const broken = toySuite('replay:broken.jsonl');
    writeFileSync(join(broken.base, 'broken.jsonl'), '{"call": 1, "role": "planner"\n');
    const second = await codify(['eval', broken.suiteFile, '--out', broken.evalDir]);
    expect(second.status, second.output).toBe(3);
    expect(second.output).toContain('broken.jsonl line 1 is not valid JSON');
    expect(existsSync(broken.evalDir)).toBe(false);

    const unknown = toySuite('nosuch:model');
    const third = await codify(['eval', unknown.suiteFile, '--out', unknown.evalDir]);
    expect(third.status, third.output).toBe(3);
    expect(third.output).toContain('unknown provider "nosuch"');
    expect(existsSync(unknown.evalDir)).toBe(false);
  }, 120_000);

  it('a hosted model without its API key stops the command at once (exit 4)', async () => {
    const hosted = toySuite('openai:gpt-4o-mini');
    const { suiteFile, evalDir } = hosted;
    const suite = loadSuite(suiteFile);
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const failure: unknown = await runEvaluation({
        suite,
        evalDir,
        baseConfig: defaultConfig(),
      }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ exitCode: 4 });
      expect(String(failure)).toContain('OPENAI_API_KEY');
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
    expect(existsSync(evalDir)).toBe(false);
  });
});

describe('codify eval: failed runs', () => {
  it('a run an error ends is scored as failed (exit 1), kept with --keep-failures, tried again by the next invocation', async () => {
    // A recording of another task's session: the first request differs, the replay fails the run.
    const { suiteFile, evalDir } = toySuite(
      `replay:${join(recordings, 'yona-digits-single-call.jsonl')}`,
    );
    const first = await codify(['eval', suiteFile, '--out', evalDir]);
    expect(first.status, first.output).toBe(1);
    expect(first.output).toMatch(/failed\s+toy\/single-call\/m\/trial-1/);
    const report = JSON.parse(readFileSync(join(evalDir, 'report.json'), 'utf8')) as EvalSummary;
    expect(report.failed).toEqual([key]);
    expect(report.missing).toEqual([]);
    expect(report.totals).toMatchObject({ runs: 1, finished: 0, failed: 1 });
    const [record] = report.runs;
    expect(record?.status).toBe('failed');
    expect(record?.error).toMatch(/replay: call 1 \(planner\) differs from the recording/);
    // Not silently category D: a failure is in no category.
    expect(record?.implement).toBeUndefined();
    expect(report.implement[0]?.counts).toEqual({ A: 0, B: 0, C: 0, D: 0 });
    expect(readFileSync(join(evalDir, 'report.md'), 'utf8')).toContain('Failed (1;');
    expect(runFolders(evalDir)).toHaveLength(1);

    const kept = await codify(['eval', suiteFile, '--out', evalDir, '--keep-failures']);
    expect(kept.status, kept.output).toBe(1);
    expect(kept.output).toContain('1 failed before (kept: --keep-failures)');
    expect(runFolders(evalDir)).toHaveLength(1);

    const retried = await codify(['eval', suiteFile, '--out', evalDir]);
    expect(retried.status, retried.output).toBe(1);
    expect(retried.output).toContain('1 failed before (tried again)');
    expect(retried.output).not.toContain('already finished, 0 failed');
    // Tried again in a folder of its own; the failed attempt stays beside it.
    expect(runFolders(evalDir)).toHaveLength(2);
  }, 180_000);

  it('the retried run that succeeds is scored, and the failed attempt is listed and counted', async () => {
    const { suiteFile, evalDir } = toySuite('scripted:m');
    const suite = loadSuite(suiteFile);
    const failing = await runEvaluation({
      suite,
      evalDir,
      baseConfig: defaultConfig(),
      answerers: () =>
        scriptedAnswerer(() => {
          throw new Error('the provider is down');
        }),
    });
    expect(failing.summary.failed).toEqual([key]);
    expect(failing.summary.runs[0]?.error).toContain('the provider is down');
    const log = readEvents(evalDir).events;
    expect(log.at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });

    const again = await runEvaluation({
      suite,
      evalDir,
      baseConfig: defaultConfig(),
      answerers: () => scriptedAnswerer(() => codeAnswer(improved)),
    });
    expect(again.started).toBe(1);
    expect(again.summary.failed).toEqual([]);
    const [record] = again.summary.runs;
    // scored like any finished run: no seeds were asked for, so a gain on the fixed seed is B
    expect(record?.implement?.category).toBe('B');
    expect(record?.implement?.verdict).toMatchObject({ fixedSeedGain: true });
    expect(record?.earlierAttempts).toHaveLength(1);
    expect(record?.earlierAttempts?.[0]).toMatchObject({ status: 'failed' });
    expect(runFolders(evalDir)).toHaveLength(2);
    expect(readEvents(evalDir).events.at(-1)).toMatchObject({
      type: 'run-end',
      status: 'completed',
    });
  }, 120_000);
});
