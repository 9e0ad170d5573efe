import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { findAction } from '../../src/agent/actions/index.js';
import { listFiles, writeScript } from './fake-actions.js';
import { plannerAnswer } from './scripted-caller.js';
import { betterCode } from './task-fixture.js';

const output = 'methodology_implementation.py';

/** The planner's answers of the resume test, one per step, the same in every process. */
export function resumePlanner(step: number): string {
  const answers = [
    plannerAnswer('List Files', { dir_path: '.' }),
    plannerAnswer('Write Script', { script_name: output, content: 'print("accuracy: 0.6")\n' }),
    plannerAnswer('Execute Script', { script_name: output }),
    plannerAnswer('Write Script', { script_name: output, content: betterCode }),
    plannerAnswer('Execute Script', { script_name: output }),
  ];
  return answers[step - 1] ?? plannerAnswer('Final Answer', { summary: 'done' });
}

export function resumeActions(): ActionDefinition[] {
  const execute = findAction('Execute Script');
  const final = findAction('Final Answer');
  if (execute === undefined || final === undefined) throw new Error('actions missing');
  return [listFiles, writeScript, execute, final] as ActionDefinition[];
}
