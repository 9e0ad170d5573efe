import { modelSettings } from '../modes/shared-settings.js';
import { describedShape } from './mode-input.js';
import { parseModelSpec } from '../llm/model-spec.js';

/** The model inputs of the tools that start or resume runs, as the CLI's model flags. */
export const modelInputShape = describedShape(modelSettings);

export interface ModelInput {
  model?: string | undefined;
  planner?: string | undefined;
  expert?: string | undefined;
  worker?: string | undefined;
  summarizer?: string | undefined;
  judge?: string | undefined;
}

/** The CLI flags for the given models; each spec is checked first, so a bad one is named. */
export function modelArguments(input: ModelInput): string[] {
  const flags: string[] = [];
  for (const key of ['model', 'planner', 'expert', 'worker', 'summarizer', 'judge'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    for (const part of key === 'planner' ? value.split(',') : [value]) {
      parseModelSpec(part, key);
    }
    flags.push(`--${key}`, value);
  }
  return flags;
}

/** Budget inputs shared by the tools that start or resume an implement run. */
export interface BudgetInput {
  maxSteps?: number | undefined;
  maxMinutes?: number | undefined;
  maxTokens?: number | undefined;
  maxCost?: number | undefined;
}

/** The CLI's budget flags for the given budgets, only those set. */
export function budgetArguments(input: BudgetInput): string[] {
  const flags: [string, number | undefined][] = [
    ['--max-steps', input.maxSteps],
    ['--max-minutes', input.maxMinutes],
    ['--max-tokens', input.maxTokens],
    ['--max-cost', input.maxCost],
  ];
  return flags.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)]));
}
