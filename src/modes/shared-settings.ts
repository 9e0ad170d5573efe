import { z } from 'zod';
import { parseModelSpec } from '../llm/model-spec.js';
import { setting } from './setting-meta.js';

/** A model spec, checked as the CLI checks it, so a bad one is refused by name at once. */
const modelSpec = (key: string, role: string, list: boolean) =>
  z
    .string()
    .min(1)
    .superRefine((value, context) => {
      for (const part of list ? value.split(',') : [value]) {
        try {
          parseModelSpec(part, key);
        } catch (error) {
          context.addIssue({
            code: 'custom',
            message: error instanceof Error ? error.message : String(error),
          });
          return;
        }
      }
    })
    .describe(
      `${list ? 'comma-separated specs, first level first' : 'a spec'} for ${role}, written provider:model (e.g. openai:gpt-4o-mini, replay:FILE)`,
    );

/** The models of a run, role by role, as `--model`, `--planner` … take them. */
export const modelSettings = {
  model: setting(modelSpec('model', 'every role not set otherwise', false).optional(), {
    flag: '--model',
    valueName: '<spec>',
    help: 'model for every role not set otherwise, e.g. openai:gpt-4o-mini',
    group: 'models',
    form: { label: 'model', placeholder: "openai:gpt-4o-mini (default: the configuration's)" },
  }),
  planner: setting(modelSpec('planner', 'the planner cascade', true).optional(), {
    flag: '--planner',
    valueName: '<specs>',
    help: 'planner cascade, comma-separated, first level first',
    group: 'models',
  }),
  expert: setting(modelSpec('expert', 'the planning expert', false).optional(), {
    flag: '--expert',
    valueName: '<spec>',
    help: 'model for the planning expert',
    group: 'models',
  }),
  worker: setting(modelSpec('worker', 'file understanding, edits and checks', false).optional(), {
    flag: '--worker',
    valueName: '<spec>',
    help: 'model for file understanding, edits and checks',
    group: 'models',
  }),
  summarizer: setting(modelSpec('summarizer', 'memory and long outputs', false).optional(), {
    flag: '--summarizer',
    valueName: '<spec>',
    help: 'model for memory and long outputs',
    group: 'models',
  }),
  judge: setting(modelSpec('judge', 'evaluation', true).optional(), {
    flag: '--judge',
    valueName: '<specs>',
    help: "model for evaluation; comma-separated, explore's reviewers take them in turn (other uses: the first)",
    group: 'models',
  }),
};

export const sandboxKinds = ['bubblewrap', 'none'] as const;

/** Where a run's code runs: the sandbox and its interpreter; `help` says what runs there. */
export function sandboxSettings(help: { python: string; sandbox: string }) {
  return {
    python: setting(z.string().min(1).optional(), {
      flag: '--python',
      valueName: '<path>',
      help: help.python,
      group: 'sandbox',
    }),
    sandbox: setting(z.enum(sandboxKinds).default('bubblewrap'), {
      flag: '--sandbox',
      valueName: '<kind>',
      help: help.sandbox,
      group: 'sandbox',
    }),
  };
}

/** `--gpu` / `--no-gpu`; unset, codify.config.json's "gpu" decides. */
export const gpuSetting = setting(z.boolean().optional(), {
  flag: '--gpu',
  help: 'pass NVIDIA devices into the sandbox (default: "gpu" in codify.config.json)',
  negatedHelp: 'run on the CPU even when codify.config.json sets "gpu": true',
  group: 'sandbox',
  negatable: true,
});

/** An implement run's budgets; a final answer is forced when one is spent. */
export const budgetSettings = {
  maxSteps: setting(z.number().int().positive().optional(), {
    flag: '--max-steps',
    valueName: '<n>',
    help: 'steps before a final answer is forced (default 50)',
    group: 'budgets',
    form: { label: 'max steps' },
  }),
  maxMinutes: setting(z.number().positive().optional(), {
    flag: '--max-minutes',
    valueName: '<n>',
    help: 'wall-clock minutes before a final answer is forced',
    group: 'budgets',
    form: { label: 'max minutes' },
  }),
  maxTokens: setting(z.number().int().positive().optional(), {
    flag: '--max-tokens',
    valueName: '<n>',
    help: 'model tokens (input + output) before a final answer is forced',
    group: 'budgets',
  }),
  maxCost: setting(z.number().positive().optional(), {
    flag: '--max-cost',
    valueName: '<usd>',
    help: 'dollars before a final answer is forced',
    group: 'budgets',
    form: { label: 'max cost (USD)', aria: 'max cost' },
  }),
};
