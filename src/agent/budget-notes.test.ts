import { describe, expect, it } from 'vitest';
import { defaultAgentOptions } from './agent-options.js';
import { budgetLines } from './budget-notes.js';
import { emptyBudgetUsage } from './budgets.js';

describe('budgetLines', () => {
  it('tells the planner its steps, expert help, set budgets and the last run time', () => {
    const usage = { ...emptyBudgetUsage(), elapsedMs: 90_000, inputTokens: 900, outputTokens: 100 };
    const lines = budgetLines({
      step: 4,
      options: { ...defaultAgentOptions, maxSteps: 10, maxMinutes: 5, maxTokens: 5000 },
      usage,
      expertHelpLeft: 2,
      lastExecution: {
        script: 'm.py',
        contentHash: '',
        exitCode: 0,
        timedOut: false,
        durationMs: 17_900,
      },
    });
    expect(lines).toEqual([
      'Steps: this is step 4 of at most 10 (6 left after it).',
      'Request Planning Expert Help: 2 of 3 calls left.',
      'Time: 1.5 of 5 minutes used.',
      'Tokens: 1000 of 5000 used.',
      'The last run of m.py took 17.9 s.',
    ]);
  });

  it('leaves out what is not offered or not set, and says when nothing ran yet', () => {
    const lines = budgetLines({
      step: 1,
      options: defaultAgentOptions,
      usage: emptyBudgetUsage(),
      lastExecution: null,
    });
    expect(lines).toEqual([
      'Steps: this is step 1 of at most 50 (49 left after it).',
      'The output script has not been run yet in this session.',
    ]);
  });

  it('tells the planner on the last step that it must give the final answer', () => {
    const state = {
      options: { ...defaultAgentOptions, maxSteps: 4 },
      usage: emptyBudgetUsage(),
      lastExecution: null,
      finalAction: 'Final Answer',
    };
    expect(budgetLines({ ...state, step: 3 })[0]).toBe(
      'Steps: this is step 3 of at most 4 (1 left after it).',
    );
    expect(budgetLines({ ...state, step: 4 })[0]).toBe(
      'Steps: this is step 4 of at most 4, the last: your action must be Final Answer, with the best script you have.',
    );
  });
});
