import { existsSync, readFileSync, writeFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { findAction } from '../../src/agent/actions/index.js';
import { runImplement, type ImplementOptions } from '../../src/agent/implement.js';
import { plannerPrompt } from '../../src/agent/planner-prompt.js';
import { parseResponse } from '../../src/agent/response-format.js';
import type { CodifyEvent } from '../../src/runs/events.js';
import type { FeedbackRequest } from '../../src/runs/feedback.js';
import { answerFile, folderFeedback, requestFile } from '../../src/runs/feedback-folder.js';
import { echoLong, listFiles } from './fake-actions.js';
import { plannerAnswer, scriptedCaller } from './scripted-caller.js';
import { makeTask } from './task-fixture.js';

const finalAction = findAction('Final Answer');
if (finalAction === undefined) throw new Error('no Final Answer action');
const actions = [listFiles, echoLong, finalAction] as ActionDefinition[];
const finalAnswer = plannerAnswer('Final Answer', {
  final_script: 'starter_code.py',
  summary: 'done',
});
const withQuestions = `${plannerAnswer('List Files', { dir_path: '.' })}
Questions:
- Which learning rate should the sweep centre on?
2. May I use 10 of the 30 minutes on a baseline?`;

async function implement(overrides: Partial<ImplementOptions>) {
  const { taskDir, runsRoot } = makeTask({ performance: true });
  const models = scriptedCaller({
    planner: (_request, step) => (step === 1 ? withQuestions : finalAnswer),
  });
  const events: CodifyEvent[] = [];
  const result = await runImplement({
    taskDir,
    runsRoot,
    models,
    sandbox: 'none',
    python: '/usr/bin/python3',
    actions,
    sinks: [(event) => events.push(event)],
    ...overrides,
  });
  return { result, events, models };
}

describe("the planner's Questions field and the feedback channel", () => {
  it('reads an optional Questions field after the Action Input, and only there', () => {
    const parsed = parseResponse(withQuestions, actions);
    expect(parsed.ok && parsed.response.questions).toEqual([
      'Which learning rate should the sweep centre on?',
      'May I use 10 of the 30 minutes on a baseline?',
    ]);
    expect(parsed.ok && parsed.response.input).toEqual({ dir_path: '.' });
    const none = parseResponse(
      `${plannerAnswer('List Files', { dir_path: '.' })}\nQuestions: none`,
      actions,
    );
    expect(none.ok && none.response.questions).toEqual([]);
    const misplaced = parseResponse(
      plannerAnswer('List Files', { dir_path: '.' }).replace(
        'Action: ',
        'Questions: why?\nAction: ',
      ),
      actions,
    );
    expect(misplaced.ok).toBe(false);
    expect(!misplaced.ok && misplaced.reason).toContain('"Questions:" is optional and comes last');
  });

  it('leaves the planner prompt unchanged unless questions are on', () => {
    const input = {
      step: 1,
      problem: 'p',
      actions,
      researchLog: [],
      recentSteps: [],
      shortTermSteps: 3,
      budgets: [],
      notes: [],
      comment: null,
    };
    const plain = plannerPrompt(input).system;
    expect(plannerPrompt({ ...input, questions: false }).system).toBe(plain);
    expect(plain).not.toContain('Questions');
    const asking = plannerPrompt({ ...input, questions: true }).system;
    expect(asking).toContain('Questions: one question per line');
    expect(
      asking.startsWith(plain.slice(0, plain.indexOf('Write nothing after the Action Input'))),
    ).toBe(true);
  });

  it('asks the questions through the channel; the answers reach the next prompt, the log and the run folder', async () => {
    const asked: FeedbackRequest[] = [];
    const { result, events, models } = await implement({
      agent: { interactive: true, questions: true },
      feedback: {
        ask: (request) => {
          asked.push(request);
          return Promise.resolve({ decision: 'answer', answers: ['around 0.01', 'yes'] });
        },
      },
    });
    expect(result.outcome).toBe('completed');
    expect(asked[0]).toMatchObject({ id: 'step-1', kind: 'answer', title: 'step 1: List Files' });
    expect(models.requests[0]?.system).toContain('Questions: one question per line');
    const second =
      models.requests.find((request) => request.label === 'step 2')?.messages.at(-1)?.content ?? '';
    expect(second).toContain(
      'Answers to your questions:\n- Which learning rate should the sweep centre on? → around 0.01\n- May I use 10 of the 30 minutes on a baseline? → yes',
    );
    expect(readFileSync(join(result.runDir, 'research_log.md'), 'utf8')).toContain('→ around 0.01');
    expect(JSON.parse(readFileSync(requestFile(result.runDir, 'step-1'), 'utf8'))).toMatchObject({
      kind: 'answer',
      questions: [
        'Which learning rate should the sweep centre on?',
        'May I use 10 of the 30 minutes on a baseline?',
      ],
    });
    expect(JSON.parse(readFileSync(answerFile(result.runDir, 'step-1'), 'utf8'))).toEqual({
      decision: 'answer',
      answers: ['around 0.01', 'yes'],
    });
    const requested = events.filter((event) => event.type === 'feedback-request');
    expect(requested).toEqual([expect.objectContaining({ id: 'step-1', waiting: true })]);
    const given = events.filter((event) => event.type === 'feedback-given');
    expect(given[0]).toMatchObject({ decision: 'comment' });
  });

  it('records the questions without asking when the run is not interactive', async () => {
    const { result, events, models } = await implement({
      agent: { questions: true },
      feedback: { ask: () => Promise.reject(new Error('must not be asked')) },
    });
    expect(result.outcome).toBe('completed');
    expect(events.filter((event) => event.type === 'feedback-request')).toEqual([
      expect.objectContaining({
        id: 'step-1',
        waiting: false,
        questions: [
          'Which learning rate should the sweep centre on?',
          'May I use 10 of the 30 minutes on a baseline?',
        ],
      }),
    ]);
    expect(events.some((event) => event.type === 'feedback-given')).toBe(false);
    const second =
      models.requests.find((request) => request.label === 'step 2')?.messages.at(-1)?.content ?? '';
    expect(second).not.toContain('Answers to your questions');
    expect(existsSync(join(result.runDir, 'feedback'))).toBe(false);
  });

  it('takes answers from the run folder, setting aside one that does not fit', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'feedback-'));
    const channel = folderFeedback(runDir, { pollMs: 20 });
    const request: FeedbackRequest = {
      id: 'ideas',
      kind: 'pick',
      title: 'pick the ideas to run',
      body: 'I1, I2',
      options: [
        { id: 'I1', label: 'Class-aware mixup' },
        { id: 'I2', label: 'Feature noise' },
      ],
    };
    const answered = channel.ask(request);
    // Another program (the web app) reads the request and answers: first wrongly, then well.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(JSON.parse(readFileSync(requestFile(runDir, 'ideas'), 'utf8'))).toMatchObject({
      kind: 'pick',
    });
    writeFileSync(answerFile(runDir, 'ideas'), '{"decision":"pick","picked":[]}');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(readFileSync(`${answerFile(runDir, 'ideas')}.problem.txt`, 'utf8')).toContain('picked');
    writeFileSync(answerFile(runDir, 'ideas'), '{"decision":"pick","picked":["I2"]}');
    await expect(answered).resolves.toEqual({ decision: 'pick', picked: ['I2'] });
    expect(readdirSync(join(runDir, 'feedback')).some((name) => name.includes('.rejected-'))).toBe(
      true,
    );
  });
});
