import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAction } from '../../src/agent/actions/index.js';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { FeedbackAnswer, FeedbackRequest } from '../../src/runs/feedback.js';
import {
  answerFile,
  feedbackFolder,
  folderFeedback,
  requestFile,
} from '../../src/runs/feedback-folder.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { listFiles, writeScript } from '../agent/fake-actions.js';
import { plannerAnswer, scriptedCaller, type ScriptedCaller } from '../agent/scripted-caller.js';
import {
  analysisAnswer,
  ideaCard,
  json,
  mixupPaper,
  review,
  verdictAnswer,
} from './explore-fixtures.js';

const finalAnswer = findAction('Final Answer');
if (finalAnswer === undefined) throw new Error('no Final Answer action');
const actions = [listFiles, writeScript, finalAnswer] as ActionDefinition[];

/**
 * A researcher who answers through the run folder only, as the web app does: waits for each
 * request file and writes the answer file.
 */
function researcher(dir: () => string, answer: (request: FeedbackRequest) => FeedbackAnswer) {
  const answered: string[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const folder = dir() === '' ? '' : feedbackFolder(dir());
      if (folder !== '' && existsSync(folder)) {
        for (const name of readdirSync(folder).filter((file) => file.endsWith('.request.json'))) {
          const id = name.slice(0, -'.request.json'.length);
          if (answered.includes(id) || existsSync(answerFile(dir(), id))) continue;
          const request = JSON.parse(readFileSync(join(folder, name), 'utf8')) as FeedbackRequest;
          answered.push(id);
          writeFileSync(answerFile(dir(), id), JSON.stringify(answer(request)));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    answered,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

describe('codify explore --interactive: each experiment approved, then steered step by step', () => {
  it('an edited plan and budget reach the implement run, whose questions are answered through the exploration folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-exp-gates-'));
    const codeDir = join(root, 'prototype');
    mkdirSync(codeDir);
    writeFileSync(join(codeDir, 'starter_code.py'), 'print("accuracy: 0.5")\n');
    let runDir = '';
    const person = researcher(
      () => runDir,
      (request) => {
        if (request.id === 'experiment-I1') {
          expect(request.draft).toContain('Budget: at most 4 agent steps');
          const draft = request.draft ?? '';
          return {
            decision: 'edit',
            text: draft
              .replace('Budget: at most 4 agent steps', 'Budget: at most 3 agent steps')
              .concat('\nONLY-IN-THE-EDIT: keep the mixup alpha at 0.2.\n'),
          };
        }
        if (request.id === 'I1-step-1') {
          expect(request.questions).toEqual(['Which alpha should the sweep centre on?']);
          return { decision: 'answer', answers: ['centre on 0.4'] };
        }
        return { decision: 'approve' };
      },
    );
    let experiment: ScriptedCaller | undefined;
    const models = (run: Run) => {
      if (run.mode === 'explore') {
        return createScriptedCaller(
          {
            planner: [json(analysisAnswer()), json({ ideas: [ideaCard('Class-aware mixup')] })],
            judge: [json(review(4)), verdictAnswer()],
          },
          { run },
        ).caller;
      }
      experiment = scriptedCaller({
        planner: (_request, step) =>
          step === 1
            ? `${plannerAnswer('List Files', { dir_path: '.' })}\nQuestions:\n- Which alpha should the sweep centre on?`
            : step === 2
              ? plannerAnswer('Write Script', {
                  script_name: 'methodology_implementation.py',
                  content: 'print("accuracy: 0.75")\n',
                })
              : plannerAnswer('Final Answer', {
                  final_script: 'methodology_implementation.py',
                  summary: 'accuracy 0.75',
                }),
      });
      return experiment;
    };
    let result;
    try {
      result = await runExplore({
        settings: {
          paperPaths: [mixupPaper],
          ideas: 1,
          reviewers: 1,
          refineRounds: 0,
          budgetMinutes: 5,
          gpu: false,
          paperMaxChars: 60_000,
          experiments: {
            select: 'top:1',
            codeDir,
            sandbox: 'none',
            python: '/usr/bin/python3',
            gpu: false,
            maxSteps: 4,
          },
        },
        models,
        experimentActions: actions,
        host: {
          runsRoot: join(root, 'runs'),
          onRun: (run) => {
            runDir = run.dir;
          },
          // The exploration's folder is the channel: the requests of its experiments land there too.
          feedback: { ask: (request) => folderFeedback(runDir, { pollMs: 20 }).ask(request) },
        },
      });
    } finally {
      await person.stop();
    }
    expect(person.answered).toEqual([
      'problem-analysis',
      'experiments',
      'experiment-I1',
      'I1-step-1',
      'I1-step-2',
    ]);
    const record = result.experiments?.[0];
    expect(record).toMatchObject({ idea: 'I1', status: 'ran', outcome: 'completed' });
    const childDir = record?.runDir ?? '';
    // The edited plan is the experiment's methodology; its budget line became the step budget.
    const methodology = readFileSync(
      join(runDir, 'experiments', 'I1', 'task', 'methodology_description.txt'),
      'utf8',
    );
    expect(methodology).toContain('ONLY-IN-THE-EDIT: keep the mixup alpha at 0.2.');
    expect(methodology).not.toContain('Budget:');
    const childSettings = JSON.parse(readFileSync(join(childDir, 'implement.json'), 'utf8')) as {
      agent: { maxSteps: number; interactive: boolean; questions: boolean };
    };
    expect(childSettings.agent).toMatchObject({ maxSteps: 3, interactive: true, questions: true });
    // The planner was offered the Questions field, and its question's answer reached step 2.
    const prompts = (experiment?.requests ?? [])
      .filter((request) => request.role === 'planner')
      .map((request) =>
        [request.system ?? '', ...request.messages.map((message) => message.content)].join('\n'),
      );
    expect(prompts[0]).toContain('ONLY-IN-THE-EDIT');
    expect(prompts[0]).toContain('Questions:');
    expect(prompts[1]).toContain('Which alpha should the sweep centre on? → centre on 0.4');
    // Kept in both folders: the implement run's own, and the exploration's under the idea's name.
    expect(existsSync(requestFile(childDir, 'step-1'))).toBe(true);
    expect(JSON.parse(readFileSync(answerFile(childDir, 'step-1'), 'utf8'))).toEqual({
      decision: 'answer',
      answers: ['centre on 0.4'],
    });
    expect(
      (JSON.parse(readFileSync(requestFile(runDir, 'I1-step-1'), 'utf8')) as FeedbackRequest).title,
    ).toBe('experiment I1, step 1: List Files');
    const kinds = readEvents(runDir)
      .events.filter((event) => event.type === 'feedback-request')
      .map((event) => (event.type === 'feedback-request' ? event.id : ''));
    expect(kinds).toEqual(['problem-analysis', 'experiments', 'experiment-I1']);
  });
});
