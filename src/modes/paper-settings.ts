import { z } from 'zod';
import { paperReaders } from '../reader/paper-reader.js';
import { setting } from './setting-meta.js';
import { gpuSetting, modelSettings, sandboxSettings } from './shared-settings.js';

/** Who reads a PDF paper; shared by paper and explore. */
export const paperReaderSetting = setting(z.enum(paperReaders).default('local'), {
  flag: '--paper-reader',
  valueName: '<kind>',
  help: 'who reads a PDF paper: local (codify, free) or model (the planner reads the PDF itself; anthropic, google or openai; costs tokens)',
  group: 'input',
});

/** `codify paper PAPER`: every setting a paper run takes, from any front end. */
export const paperSettings = z
  .object({
    paper: setting(z.string().min(1), {
      argument: '<paper>',
      help: 'the paper: .pdf, .tex (or a folder with a main .tex), .md or .txt',
      group: 'input',
      path: 'existing',
      form: {
        label: 'paper',
        aria: 'path',
        placeholder: 'examples/papers/mixup-tabular/paper.md',
      },
    }),
    out: setting(z.string().min(1).optional(), {
      flag: '--out',
      valueName: '<dir>',
      help: 'write the repository here (new or empty folder); default <run>/repo',
      group: 'input',
      path: 'new',
    }),
    selfRefine: setting(z.boolean().optional(), {
      flag: '--self-refine',
      help: 'critique and revise the plan and design before generating code',
      group: 'run',
    }),
    selfCheck: setting(z.boolean().default(true), {
      flag: '--self-check',
      help: 'skip the self-check (the code graded against docs/rubric.json, the checklist planning writes, and the files of unmet requirements rewritten once)',
      group: 'run',
      negatable: true,
    }),
    repairSteps: setting(z.number().int().min(0).default(15), {
      flag: '--repair-steps',
      valueName: '<n>',
      help: 'agent steps for repairing a failing smoke run (0: no repair)',
      group: 'budgets',
    }),
    verify: setting(z.boolean().default(true), {
      flag: '--verify',
      help: 'stop after writing the repository, without the smoke run',
      group: 'run',
      negatable: true,
    }),
    smokeTimeoutSeconds: setting(z.number().int().min(1).default(300), {
      flag: '--smoke-timeout',
      valueName: '<s>',
      help: 'time limit of each smoke run, in seconds',
      group: 'budgets',
      suiteKey: 'smoke_timeout_s',
    }),
    paperMaxChars: setting(z.number().int().min(1000).default(60_000), {
      flag: '--paper-max-chars',
      valueName: '<n>',
      help: 'paper characters given to prompts before sections are summarized',
      group: 'input',
    }),
    ...sandboxSettings({
      python: 'the Python interpreter for the smoke run',
      sandbox: 'where generated code runs',
    }),
    gpu: gpuSetting,
    network: setting(z.boolean().optional(), {
      flag: '--network',
      help: 'let the smoke run, the tests and repair reach the network (e.g. to fetch data); default: offline',
      group: 'sandbox',
    }),
    paperReader: paperReaderSetting,
    ...modelSettings,
  })
  .strict();

export type PaperSettings = z.infer<typeof paperSettings>;
