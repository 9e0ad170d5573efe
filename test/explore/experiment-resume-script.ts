// Shared by experiment-resume.test.ts and the child process it kills.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExploreSettings } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { ModelRequest } from '../../src/llm/types.js';
import type { Run } from '../../src/runs/run.js';
import { plannerAnswer, scriptedCaller, type ScriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';

/** Three ideas, run in the judge's order I1, I2, I3; each measures its own accuracy. */
export const titles = ['Class-aware mixup', 'Feature noise', 'Label smoothing'];
const accuracy: Record<string, number> = {
  'Class-aware mixup': 0.6,
  'Feature noise': 0.9,
  'Label smoothing': 0.7,
};

export function exploreSettings(root: string): ExploreSettings {
  const codeDir = join(root, 'prototype');
  mkdirSync(codeDir, { recursive: true });
  writeFileSync(join(codeDir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
  return {
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
      maxSteps: 4,
    },
  };
}

export const ideaOf = (request: ModelRequest) => {
  // the idea's methodology is in the planner's system prompt
  const prompt = [request.system ?? '', ...request.messages.map((message) => message.content)].join(
    '\n',
  );
  return titles.find((title) => prompt.includes(`# ${title}`)) ?? 'unknown';
};

/**
 * The models: the exploration's scripted answers, and per experiment a planner that writes
 * the script at step 1 and answers at step 2. `atStep2` runs before an experiment's step-2
 * answer (the child process uses it to be killed there).
 */
export function exploreModels(
  atStep2?: (idea: string) => void,
  /** The judge's answers (default: three reviews, then a verdict per experiment). */
  judge: string[] = [
    json(review(5)),
    json(review(4)),
    json(review(3)),
    verdictAnswer(),
    verdictAnswer(),
    verdictAnswer(),
  ],
) {
  const experiments: ScriptedCaller[] = [];
  const models = (run: Run) => {
    if (run.mode === 'explore') {
      return createScriptedCaller(
        {
          planner: [
            json(analysisAnswer()),
            json({ ideas: titles.map((title) => ideaCard(title)) }),
          ],
          judge,
        },
        { run },
      ).caller;
    }
    const caller = scriptedCaller({
      planner: (request, step) => {
        const idea = ideaOf(request);
        if (step === 1) {
          return plannerAnswer('Write Script', {
            script_name: 'methodology_implementation.py',
            content: `print("accuracy: ${accuracy[idea] ?? 0}")\n`,
          });
        }
        atStep2?.(idea);
        return plannerAnswer('Final Answer', {
          final_script: 'methodology_implementation.py',
          summary: `accuracy ${accuracy[idea] ?? 0}`,
        });
      },
    });
    experiments.push(caller);
    return caller;
  };
  return { models, experiments };
}
