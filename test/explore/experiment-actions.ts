import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { findAction } from '../../src/agent/actions/index.js';
import { writeScript } from '../agent/fake-actions.js';

const finalAnswer = findAction('Final Answer');
if (finalAnswer === undefined) throw new Error('no Final Answer action');

/** What a scripted experiment's agent may do: write the script whole, then give the answer. */
export const experimentActions = [writeScript, finalAnswer] as ActionDefinition[];
