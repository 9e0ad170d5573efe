import { z } from 'zod';
import { strategyNames } from '../agent/strategies/strategy.js';
import { setting } from './setting-meta.js';
import { budgetSettings, gpuSetting, modelSettings, sandboxSettings } from './shared-settings.js';

/** `codify implement TASK`: every setting an implement run takes, from any front end. */
export const implementSettings = z
  .object({
    task: setting(z.string().min(1), {
      argument: '<task>',
      help: 'the task folder (methodology_description.txt + starter_code.py, or an MLAgentBench folder)',
      group: 'input',
      path: 'existing',
      form: { label: 'task folder', aria: 'path', placeholder: 'examples/yona-digits' },
    }),
    strategy: setting(z.enum(strategyNames).default('agent'), {
      flag: '--strategy',
      valueName: '<name>',
      help: 'agent loop, or a baseline',
      group: 'run',
      form: { label: 'strategy' },
    }),
    ...budgetSettings,
    interactive: setting(z.boolean().optional(), {
      flag: '--interactive',
      help: "pause after every step: approve, comment, answer the planner's questions, or stop",
      group: 'run',
      form: {
        label: 'interactive: pause after every step for me to approve, comment, answer or stop',
        aria: 'interactive',
      },
    }),
    questions: setting(z.boolean().optional(), {
      flag: '--questions',
      help: 'let the planner ask questions (asked with --interactive, otherwise recorded in the run)',
      group: 'run',
    }),
    ...sandboxSettings({
      python: 'the Python interpreter (default: the first that imports what the task requires)',
      sandbox: 'where scripts run',
    }),
    gpu: gpuSetting,
    repeats: setting(z.number().int().positive().optional(), {
      flag: '--repeats',
      valueName: '<n>',
      help: 'untraced runs of the starter and of the final script, compared by mean and spread (default 1)',
      group: 'run',
    }),
    allowBrokenStarter: setting(z.boolean().optional(), {
      flag: '--allow-broken-starter',
      help: 'start the agent even when the starter fails or prints no metric (default: stop before any model call)',
      group: 'run',
    }),
    ...modelSettings,
  })
  .strict();

export type ImplementSettings = z.infer<typeof implementSettings>;
