import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExplorationStopped, pickExperiments } from '../../src/explore/explore-gates.js';
import type { ExploredIdea } from '../../src/explore/exploration.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller, type ScriptedCaller } from '../../src/llm/scripted-model.js';
import type { FeedbackRequest } from '../../src/runs/feedback.js';
import { answerFile } from '../../src/runs/feedback-folder.js';
import { readEvents } from '../../src/runs/read-events.js';
import { createRun } from '../../src/runs/run.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';

describe('codify explore --interactive: the researcher at the gates', () => {
  it('an edited problem analysis reaches the idea prompt; stop before the experiments ends the run as stopped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-gates-'));
    const codeDir = join(root, 'prototype');
    mkdirSync(codeDir);
    writeFileSync(join(codeDir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
    const asked: FeedbackRequest[] = [];
    let built: ScriptedCaller | undefined;
    let runDir = '';
    await expect(
      runExplore({
        settings: {
          paperPaths: [mixupPaper],
          ideas: 1,
          reviewers: 1,
          refineRounds: 0,
          budgetMinutes: 5,
          gpu: false,
          paperMaxChars: 60_000,
          experiments: { select: 'top:1', codeDir, sandbox: 'none', gpu: false },
        },
        models: (run) => {
          built = createScriptedCaller(
            {
              planner: [json(analysisAnswer()), json({ ideas: [ideaCard('Class-aware mixup')] })],
              judge: [json(review(4)), verdictAnswer()],
            },
            { run },
          );
          return built.caller;
        },
        host: {
          runsRoot: join(root, 'runs'),
          onRun: (run) => {
            runDir = run.dir;
          },
          feedback: {
            ask: (request) => {
              asked.push(request);
              return Promise.resolve(
                request.id === 'problem-analysis'
                  ? { decision: 'edit', text: 'EDITED: focus on calibration, not accuracy.' }
                  : { decision: 'stop' },
              );
            },
          },
        },
      }),
    ).rejects.toSatisfy(
      (error: unknown) => error instanceof ExplorationStopped && error.exitCode === 130,
    );
    expect(asked.map((request) => [request.id, request.kind])).toEqual([
      ['problem-analysis', 'edit'],
      ['experiments', 'pick'],
    ]);
    expect(asked[0]?.draft).toContain('### Gaps and limitations');
    const ideasPrompt = built?.requests.planner[1]?.messages[0]?.content ?? '';
    expect(ideasPrompt).toContain('EDITED: focus on calibration, not accuracy.');
    expect(ideasPrompt).not.toContain('### Gaps and limitations');
    expect(JSON.parse(readFileSync(answerFile(runDir, 'problem-analysis'), 'utf8'))).toMatchObject({
      decision: 'edit',
    });
    // The ideas were written before the stop; no experiment ran.
    expect(existsSync(join(runDir, 'ideas.json'))).toBe(true);
    // The baseline ran before the ideas (grounding); nothing else in experiments/.
    expect(readdirSync(join(runDir, 'experiments'))).toEqual(['baseline']);
    expect(readEvents(runDir).events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    // A stop like Ctrl-C (exit 130); its answer is not kept, so a resume asks at the gate again.
    expect(existsSync(answerFile(runDir, 'experiments'))).toBe(false);
  });

  it('a pick replaces the ideas --run chose', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-gates-'));
    const run = createRun({ mode: 'explore', name: 'gates', root });
    const idea = (id: string): ExploredIdea => ({
      id,
      card: ideaCard(id),
      earlierVersions: [],
      reviews: [],
      score: 3,
      novelty: [],
    });
    const ranked = [idea('I1'), idea('I2'), idea('I3')];
    const picked = await pickExperiments(
      run,
      { ask: () => Promise.resolve({ decision: 'pick', picked: ['I3', 'I2'] }) },
      ranked,
      ranked.slice(0, 1),
    );
    expect(picked).toBe('I3,I2');
    expect(await pickExperiments(run, undefined, ranked, ranked.slice(0, 1))).toBeUndefined();
    run.close('completed');
  });
});
