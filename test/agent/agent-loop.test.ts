import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAction } from '../../src/agent/actions/index.js';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { runImplement, type ImplementOptions } from '../../src/agent/implement.js';
import type { CodifyEvent } from '../../src/runs/events.js';
import { echoLong, listFiles, understandFile, writeScript } from './fake-actions.js';
import { plannerAnswer, scriptedCaller, type PlannerScript } from './scripted-caller.js';
import { betterCode, makeTask } from './task-fixture.js';

/** Everything a planner request sends after the system prompt, its messages joined. */
const promptText = (request: { messages: { content: string }[] } | undefined): string =>
  (request?.messages ?? []).map((message) => message.content).join('\n\n');

function realAction(name: string): ActionDefinition {
  const action = findAction(name);
  if (action === undefined) throw new Error(`no action ${name}`);
  return action;
}

const actions: ActionDefinition[] = [
  listFiles,
  understandFile,
  writeScript,
  echoLong,
  realAction('Execute Script'),
  realAction('Final Answer'),
] as ActionDefinition[];

// Tests that write no script name the starter as the final script (Final Answer needs one).
const finalAnswer = plannerAnswer('Final Answer', {
  final_script: 'starter_code.py',
  summary: 'done',
});
const finalOutput = plannerAnswer('Final Answer', { summary: 'done' });

async function implement(
  planner: PlannerScript,
  overrides: Partial<ImplementOptions> & { levels?: number; performance?: boolean } = {},
) {
  const { taskDir, runsRoot } = makeTask({ performance: overrides.performance ?? true });
  const models = scriptedCaller({ planner, levels: overrides.levels ?? 1 });
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
  return { result, events, models, runsRoot };
}

const ofType = <T extends CodifyEvent['type']>(events: CodifyEvent[], type: T) =>
  events.filter((event): event is Extract<CodifyEvent, { type: T }> => event.type === type);

/** A script that prints the next of `values` each time it runs, keeping its place in a file. */
const cyclingScript = (values: number[]) => `import os
values = ${JSON.stringify(values)}
count = int(open("runs.count").read()) if os.path.exists("runs.count") else 0
open("runs.count", "w").write(str(count + 1))
print(f"accuracy: {values[count % len(values)]}")
`;

function writeThenFinish(content: string): PlannerScript {
  return (_request, step) =>
    [
      plannerAnswer('Write Script', { script_name: 'methodology_implementation.py', content }),
      finalOutput,
    ][step - 1] ?? finalOutput;
}

describe('--repeats: the starter and the final script measured the same way', () => {
  it('runs both N times and calls a gain within the spread no improvement', async () => {
    const { result, events } = await implement(writeThenFinish(cyclingScript([0.52, 0.5, 0.48])), {
      performance: false,
      repeats: 3,
    });
    expect(result.execution).toMatchObject({ runs: 3, exitCode: 0 });
    expect(result.metric?.values.slice().sort()).toEqual([0.48, 0.5, 0.52]);
    expect(result.metric?.starterValues).toEqual([0.5, 0.5, 0.5]);
    expect(result.metric?.value).toBeCloseTo(0.5, 10);
    expect(result.metric?.sd).toBeCloseTo(0.02, 10);
    expect(result.metric?.starterSd).toBe(0);
    expect(result.metric?.improved).toBe(false);
    expect(ofType(events, 'execution-end')).toHaveLength(3);
    const performance = readFileSync(join(result.runDir, 'starter_code_performance.txt'), 'utf8');
    expect(performance).toContain('run 3 times');
    expect(performance).toContain('0.5, 0.5, 0.5; mean 0.5, standard deviation 0');
    for (const index of [1, 2, 3]) {
      expect(existsSync(join(result.runDir, `starter-output-${index}.txt`))).toBe(true);
      expect(
        existsSync(
          join(result.runDir, 'outputs', `final-${index}-methodology_implementation.py.txt`),
        ),
      ).toBe(true);
    }
  });

  it('calls a gain beyond two standard errors an improvement, and measures a starter the task states', async () => {
    const { result } = await implement(writeThenFinish(cyclingScript([0.9, 0.91, 0.89])), {
      repeats: 3,
    });
    expect(result.metric).toMatchObject({
      starterSource: 'measured',
      starterValues: [0.5, 0.5, 0.5],
      improved: true,
    });
    expect(result.metric?.margin).toBeCloseTo((2 * 0.01) / Math.sqrt(3), 10);
  });

  it('stops repeating at the first failed run', async () => {
    const { result } = await implement(writeThenFinish('raise SystemExit(3)\n'), { repeats: 4 });
    expect(result.execution).toMatchObject({ runs: 1, exitCode: 3 });
    expect(result.ran).toBe(false);
    expect(result.metric).toMatchObject({ value: null, improved: null });
  });
});

describe('the research agent loop', () => {
  it('writes, executes and finishes with result.json comparing against the starter', async () => {
    const { result, events } = await implement(
      (_request, step) =>
        [
          plannerAnswer('List Files', { dir_path: '.' }),
          plannerAnswer('Write Script', {
            script_name: 'methodology_implementation.py',
            content: betterCode,
          }),
          plannerAnswer('Execute Script', { script_name: 'methodology_implementation.py' }),
          finalOutput,
        ][step - 1] ?? finalOutput,
    );
    expect(result.outcome).toBe('completed');
    expect(result.steps).toBe(4);
    expect(result.ran).toBe(true);
    // Measured afresh and untraced, though this very version already ran (traced) in step 3.
    expect(result.execution).toMatchObject({ runs: 1, exitCode: 0 });
    expect(ofType(events, 'execution-end')).toHaveLength(2);
    expect(
      existsSync(join(result.runDir, 'outputs', 'final-methodology_implementation.py.txt')),
    ).toBe(true);
    expect(result.metric).toMatchObject({
      value: 0.9,
      starter: 0.5,
      improved: true,
      starterSource: 'starter_code_performance.txt',
    });
    expect(result.linesEdited).toEqual({ added: 4, removed: 1 });
    expect(result.tokens.total).toBeGreaterThan(0);
    expect(readFileSync(join(result.runDir, 'methodology_implementation.py'), 'utf8')).toBe(
      betterCode,
    );
    const saved = JSON.parse(
      readFileSync(join(result.runDir, 'result.json'), 'utf8'),
    ) as typeof result;
    expect(saved.metric?.value).toBe(0.9);
    const log = readFileSync(join(result.runDir, 'research_log.md'), 'utf8');
    expect(log).toContain('## Step 4: Final Answer');
    expect(ofType(events, 'step-end')).toHaveLength(4);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ status: 'completed' });
  });

  it('runs the final version for the result and measures the starter the same way', async () => {
    const { result, events } = await implement(
      (_request, step) =>
        [
          plannerAnswer('Write Script', {
            script_name: 'methodology_implementation.py',
            content: 'print("accuracy: 0.7")\n',
          }),
          plannerAnswer('Execute Script', { script_name: 'methodology_implementation.py' }),
          plannerAnswer('Write Script', {
            script_name: 'methodology_implementation.py',
            content: betterCode,
          }),
        ][step - 1] ?? finalOutput,
      { performance: false },
    );
    expect(result.execution).toMatchObject({ runs: 1, exitCode: 0 });
    expect(result.metric).toMatchObject({ value: 0.9, starter: 0.5, starterSource: 'measured' });
    expect(ofType(events, 'execution-end').map((event) => event.script)).toEqual([
      'methodology_implementation.py',
      'methodology_implementation.py',
    ]);
    expect(ofType(events, 'stage-end')[0]).toMatchObject({ stage: 'measure-starter', ok: true });
  });

  it('retries an invalid answer with the reason and climbs the cascade', async () => {
    const { result, events, models } = await implement(
      (request, step) => {
        if (step === 1 && (request.level ?? 0) < 2) return 'I think I should list the files.';
        return finalAnswer;
      },
      { levels: 3, agent: { attemptsPerLevel: [3, 2, 1] } },
    );
    expect(result.outcome).toBe('completed');
    const answers = ofType(events, 'planner-answer');
    expect(answers.map((answer) => [answer.level, answer.valid])).toEqual([
      [0, false],
      [0, false],
      [0, false],
      [1, false],
      [1, false],
      [2, true],
    ]);
    expect(answers[0]?.error).toContain('missing the fields "Reflection:"');
    const planner = models.requests.filter((request) => request.role === 'planner');
    // A retry carries the refused answer and the reason; a new level starts afresh.
    expect(promptText(planner[1])).toContain('That answer could not be used');
    // (at step 1 no earlier step and no research log: the step's prompt alone)
    expect(planner[3]?.messages).toHaveLength(1);
    expect(planner[0]?.temperature).toBe(0.8);
  });

  it('ends honestly when no level gives a valid answer', async () => {
    const { result, events } = await implement(() => 'nonsense', {
      levels: 2,
      agent: { attemptsPerLevel: [2, 1], maxFailedSteps: 2 },
    });
    expect(result.outcome).toBe('failed');
    expect(result.reason).toContain('2 steps in a row without a valid planner answer');
    expect(result.finalScript).toBeNull();
    expect(result.steps).toBe(2);
    expect(ofType(events, 'planner-answer')).toHaveLength(6);
    expect(existsSync(join(result.runDir, 'result.json'))).toBe(true);
  });

  it('treats a looping answer as invalid', async () => {
    const { events } = await implement((_request, step, attempt) =>
      step === 1 && attempt === 0 ? `Reflection: ${'I will list files. '.repeat(80)}` : finalAnswer,
    );
    const answers = ofType(events, 'planner-answer');
    expect(answers[0]?.valid).toBe(false);
    expect(answers[0]?.error).toContain('repeats itself');
  });

  it('refuses a consecutive duplicate action', async () => {
    const list = plannerAnswer('List Files', { dir_path: '.' });
    const { events, models } = await implement((_request, step) =>
      step <= 2 ? list : finalAnswer,
    );
    const refusals = ofType(events, 'guard-refusal');
    expect(refusals).toEqual([expect.objectContaining({ step: 2, guard: 'duplicate-action' })]);
    expect(ofType(events, 'action-start').map((event) => event.action)).toEqual([
      'List Files',
      'Final Answer',
    ]);
    const third = models.requests.find((request) => request.label === 'step 3');
    expect(promptText(third)).toContain('Refused: List Files with this same input');
  });

  it('caps consecutive actions from one pool, the cap decaying with steps', async () => {
    const read = (file: string) =>
      plannerAnswer('Read File', { file_name: file, things_to_look_for: 'x' });
    const { events } = await implement(
      (_request, step) =>
        [
          read('starter_code.py'),
          read('methodology_description.txt'),
          read('task.json'),
          plannerAnswer('List Files', { dir_path: '.' }),
        ][step - 1] ?? finalAnswer,
      { agent: { poolCapStart: 3, poolCapDecay: 0.01 } },
    );
    const refusals = ofType(events, 'guard-refusal');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ step: 3, guard: 'pool-cap' });
    expect(refusals[0]?.message).toContain(
      '2 understanding actions in a row reach the limit of 2 at step 3',
    );
  });

  it('shows a refused zero-diff edit as an observation', async () => {
    const same = plannerAnswer('Write Script', { script_name: 'notes.txt', content: 'a' });
    const { events } = await implement(
      (_request, step) =>
        [same, plannerAnswer('List Files', { dir_path: '.' }), same][step - 1] ?? finalAnswer,
    );
    const ends = ofType(events, 'action-end').filter((event) => event.action === 'Write Script');
    expect(ends.map((event) => event.ok)).toEqual([true, false]);
    expect(ends[1]?.observation).toContain('changes nothing');
  });

  it('forces a final answer when the step budget is used up', async () => {
    const { result, events, models } = await implement(
      (_request, step, attempt) =>
        step < 3 || (step === 3 && attempt === 0)
          ? plannerAnswer('List Files', { dir_path: step === 2 ? './' : '.' })
          : finalAnswer,
      { agent: { maxSteps: 2 } },
    );
    expect(ofType(events, 'budget-exhausted')).toEqual([
      expect.objectContaining({ budget: 'steps' }),
    ]);
    const third = models.requests.filter((request) => request.label === 'step 3');
    expect(promptText(third[0])).toContain('The budget of this run is reached');
    // Only Final Answer is accepted on the forced step.
    const answers = ofType(events, 'planner-answer').filter((answer) => answer.step === 3);
    expect(answers[0]?.valid).toBe(false);
    expect(answers[0]?.error).toContain('must be exactly one of: Final Answer');
    expect(result.outcome).toBe('budget-exhausted');
    expect(result.reason).toContain('the agent gave its final answer');
    expect(result.steps).toBe(3);
  });

  it('forces a final answer when the token budget is used up', async () => {
    const { result, events } = await implement(
      (_request, step) => plannerAnswer('Echo Long', { size: step }),
      { agent: { maxTokens: 500 } },
    );
    expect(ofType(events, 'budget-exhausted')[0]).toMatchObject({ budget: 'tokens' });
    expect(result.outcome).toBe('budget-exhausted');
    expect(result.reason).toContain('no valid final answer came');
  });

  it('summarizes a long observation for the planner but keeps the full text in the events', async () => {
    const { events, models } = await implement(
      (_request, step) => (step === 1 ? plannerAnswer('Echo Long', { size: 5000 }) : finalAnswer),
      { agent: { observationCharLimit: 1000 } },
    );
    const end = ofType(events, 'action-end')[0];
    expect(end?.observation.length).toBeGreaterThan(5000);
    const second = models.requests.find((request) => request.label === 'step 2');
    const prompt = promptText(second);
    expect(prompt).toContain('Summary (summarize observation 1).');
    expect(prompt).not.toContain('x'.repeat(2000));
    expect(
      models.requests.some(
        (request) => request.label === 'summarize observation 1' && request.temperature === 0.2,
      ),
    ).toBe(true);
  });

  it('keeps at least three steps in full and folds older ones into the research log', async () => {
    const { models } = await implement((_request, step) =>
      step <= 7
        ? plannerAnswer('Echo Long', { size: step }, `thought of step ${step}`)
        : finalAnswer,
    );
    const text = (step: number) =>
      promptText(models.requests.find((request) => request.label === `step ${step}`));
    // step 6: five steps in full, none folded yet
    expect(text(6)).toContain('thought of step 1');
    expect(text(6)).not.toContain('Summary (summarize step 1).');
    // step 8: steps 1-3 folded into the log (their summaries), 4-7 in full
    const eighth = text(8);
    expect(eighth).toContain('Summary (summarize step 1).');
    expect(eighth).toContain('Summary (summarize step 3).');
    expect(eighth).not.toContain('thought of step 3');
    expect(eighth).not.toContain('Summary (summarize step 4).');
    expect(eighth).toContain('thought of step 4');
    expect(eighth).toContain('thought of step 7');
  });

  it('passes an interactive comment to the next prompt and the log, and stops when asked', async () => {
    const decisions = [
      { decision: 'comment' as const, comment: 'Use a smaller learning rate.' },
      { decision: 'approve' as const },
      { decision: 'stop' as const },
    ];
    const { result, events, models } = await implement(
      (_request, step) => plannerAnswer('Echo Long', { size: step }),
      {
        agent: { interactive: true },
        ask: (summary) => Promise.resolve(decisions[summary.step - 1] ?? { decision: 'stop' }),
      },
    );
    const second =
      models.requests.find((request) => request.label === 'step 2')?.messages.at(-1)?.content ?? '';
    expect(second).toContain('Use a smaller learning rate.');
    const third =
      models.requests.find((request) => request.label === 'step 3')?.messages.at(-1)?.content ?? '';
    expect(third).not.toContain('# Comment from the human');
    expect(result.outcome).toBe('stopped');
    expect(result.steps).toBe(3);
    expect(ofType(events, 'feedback-given').map((event) => event.decision)).toEqual([
      'comment',
      'approve',
      'stop',
    ]);
    expect(readFileSync(join(result.runDir, 'research_log.md'), 'utf8')).toContain(
      'Use a smaller learning rate.',
    );
    expect(existsSync(join(result.runDir, 'result.json'))).toBe(true);
  });
});
