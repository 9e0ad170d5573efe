import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inPool } from '../../src/explore/experiments/experiment-pool.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { ModelCaller } from '../../src/llm/types.js';
import type { Run } from '../../src/runs/run.js';
import { plannerAnswer, scriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';
import { experimentActions as actions } from './experiment-actions.js';

const titles = ['Class-aware mixup', 'Feature noise', 'Label smoothing'];
const accuracy = [0.6, 0.9, 0.7];

/**
 * The exploration with `parallel` experiments, each with its own caller. Each experiment's
 * first planner call waits until `together` experiments have reached theirs, so the run
 * finishes only if that many really run at the same time.
 */
async function explore(parallel: number, together: number) {
  const root = mkdtempSync(join(tmpdir(), 'explore-parallel-'));
  const codeDir = join(root, 'prototype');
  mkdirSync(codeDir);
  writeFileSync(join(codeDir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
  let arrived = 0;
  let gaveUp = false;
  const ideasPerCaller: Set<number>[] = [];
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  const models = (run: Run): ModelCaller => {
    if (run.mode === 'explore') {
      return createScriptedCaller(
        {
          planner: [json(analysisAnswer()), json({ ideas: titles.map((t) => ideaCard(t)) })],
          judge: [
            json(review(5)),
            json(review(4)),
            json(review(3)),
            verdictAnswer(),
            verdictAnswer(),
            verdictAnswer(),
          ],
        },
        { run },
      ).caller;
    }
    const seen = new Set<number>();
    ideasPerCaller.push(seen);
    const inner = scriptedCaller({
      planner: (request, step) => {
        // the problem (with the idea) is in the planner's system prompt
        const prompt = request.system ?? '';
        const index = titles.findIndex((title) => prompt.includes(`# ${title}`));
        seen.add(index);
        return step === 1
          ? plannerAnswer('Write Script', {
              script_name: 'methodology_implementation.py',
              content: `print("accuracy: ${accuracy[index] ?? 0}")\n`,
            })
          : plannerAnswer('Final Answer', {
              final_script: 'methodology_implementation.py',
              summary: 'done',
            });
      },
    });
    let first = true;
    return {
      levels: (role) => inner.levels(role),
      spec: (role, level) => inner.spec(role, level),
      call: async (request) => {
        if (first && request.role === 'planner') {
          first = false;
          arrived += 1;
          if (arrived >= together) release();
          const waited = await Promise.race([
            all.then(() => 'together'),
            new Promise((resolve) => setTimeout(() => resolve('alone'), 2000)),
          ]);
          if (waited === 'alone') gaveUp = true;
        }
        return inner.call(request);
      },
    };
  };
  const result = await runExplore({
    settings: {
      paperPaths: [mixupPaper],
      ideas: 3,
      reviewers: 1,
      refineRounds: 0,
      budgetMinutes: 5,
      gpu: false,
      paperMaxChars: 60_000,
      experiments: {
        select: 'top:3',
        codeDir,
        sandbox: 'none',
        python: '/usr/bin/python3',
        gpu: false,
        maxSteps: 3,
        parallel,
      },
    },
    models,
    experimentActions: actions,
    host: { runsRoot: join(root, 'runs') },
  });
  return { result, gaveUp, ideasPerCaller };
}

describe('codify explore --parallel N', () => {
  it('runs N experiments at once, each with its own caller, to the same ranking as one at a time', async () => {
    const { result, gaveUp, ideasPerCaller } = await explore(3, 3);
    // All three reached their first planner call before any went on.
    expect(gaveUp).toBe(false);
    // Each experiment had its own caller, which saw only its idea.
    expect(ideasPerCaller.map((seen) => [...seen].length)).toEqual([1, 1, 1]);
    const records = result.experiments ?? [];
    expect(records.map((record) => [record.idea, record.status, record.metric?.value])).toEqual([
      ['I2', 'ran', 0.9],
      ['I3', 'ran', 0.7],
      ['I1', 'ran', 0.6],
    ]);
  });

  it('one at a time, the experiments never meet (the waiting caller gives up)', async () => {
    const { result, gaveUp } = await explore(1, 2);
    expect(gaveUp).toBe(true);
    expect(result.experiments?.map((record) => record.idea)).toEqual(['I2', 'I3', 'I1']);
  }, 30_000);

  it('the pool keeps at most N running and stops starting new ones after an error', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await expect(
      inPool([0, 1, 2, 3, 4, 5], 2, async (item) => {
        started.push(item);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running -= 1;
        if (item === 2) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3]);
  });
});
