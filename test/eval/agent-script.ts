import type { AnswerRequest } from '../../src/llm/answerer.js';
import { plannerAnswer } from './eval-fixture.js';

/**
 * A two-step agent session: copy the starter to the output, then Final Answer. The step is
 * read from the planner request's label (`step N`); summarizers get a fixed line.
 */
export function agentAnswer(request: Pick<AnswerRequest, 'role' | 'label'>): string {
  if (request.role === 'summarizer') return 'Summary of the step.';
  const step = Number((request.label ?? '').replace(/^step /, ''));
  if (step === 1) {
    return plannerAnswer('Copy File', {
      source: 'starter_code.py',
      destination: 'methodology_implementation.py',
    });
  }
  return plannerAnswer('Final Answer', { summary: 'done' });
}

/** The suite the interrupted-evaluation test runs: one task, the agent, three trials. */
export function agentSuite(taskDir: string): string {
  return [
    'name: interrupted',
    'items:',
    `  - task: ${taskDir}`,
    'strategies: [agent]',
    'models:',
    '  - name: scripted',
    '    model: scripted:agent',
    'trials: 3',
    'starter_trials: 0',
    'python: /usr/bin/python3',
    'budgets: { max_steps: 5 }',
    '',
  ].join('\n');
}
