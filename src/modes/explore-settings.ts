import { z } from 'zod';
import { literatureServices } from '../explore/literature/services.js';
import { paperReaderSetting } from './paper-settings.js';
import { setting } from './setting-meta.js';
import { modelSettings, sandboxSettings } from './shared-settings.js';

/** `--run`: the K best ideas (`top:K` or `K`) or ideas by id (`I1,I3`), as the pipeline reads it. */
export const ideaSelection = /^\s*((top:)?\d+|I\d+(\s*,\s*I\d+)*)\s*$/i;

/** Settings that only shape experiments, with their flags: refused without `run`. */
export const experimentOnlySettings = { maxSteps: '--max-steps', maxSeeds: '--max-seeds' } as const;

/** `codify explore PAPERS…`: every setting an exploration takes, from any front end. */
export const exploreSettings = z
  .object({
    papers: setting(z.array(z.string().min(1)).min(1), {
      argument: '[papers...]',
      help: 'papers: .pdf, .tex (or a folder with a main .tex), .md or .txt',
      group: 'input',
      path: 'existing',
      suiteKey: 'explore',
      form: { label: 'paper', aria: 'path', placeholder: 'examples/explore/paper.md' },
    }),
    notes: setting(z.string().min(1).optional(), {
      flag: '--notes',
      valueName: '<file>',
      help: "the researcher's notes, given to every prompt",
      group: 'input',
      path: 'existing',
    }),
    related: setting(z.string().min(1).optional(), {
      flag: '--related',
      valueName: '<path>',
      help: 'related work: a folder of papers, a .bib file, or a text list (title line, abstract lines; blank line between items)',
      group: 'input',
      path: 'existing',
      form: {
        label: 'related work (optional)',
        aria: 'related work',
        placeholder: 'examples/explore/related.txt (a folder of papers, BibTeX, or a text list)',
      },
    }),
    ideas: setting(z.number().int().min(1).max(20).default(5), {
      flag: '--ideas',
      valueName: '<n>',
      help: 'idea cards to generate',
      group: 'run',
      form: { label: 'ideas' },
    }),
    reviewers: setting(z.number().int().min(1).max(10).default(3), {
      flag: '--reviewers',
      valueName: '<n>',
      help: 'independent judge reviews per idea, spread over the --judge models in turn; two or more are reconciled by a meta-review',
      group: 'run',
      form: { label: 'reviewers' },
    }),
    refineRounds: setting(z.number().int().min(0).max(5).default(1), {
      flag: '--refine-rounds',
      valueName: '<n>',
      help: 'rounds of refining each idea against its reviews (0: none)',
      group: 'run',
      form: { label: 'refine rounds' },
    }),
    // Fractions are allowed, as in implement's --max-minutes: the budget is only told to the
    // plans ("each experiment run at most 2.5 minutes"), so nothing needs it whole.
    budgetMinutes: setting(z.number().positive().default(10), {
      flag: '--budget',
      valueName: '<minutes>',
      help: 'minutes one experiment run may take, for the plans',
      group: 'budgets',
    }),
    gpu: setting(z.boolean().default(false), {
      flag: '--gpu',
      help: 'plans may use a GPU, and experiments get it',
      group: 'sandbox',
    }),
    paperMaxChars: setting(z.number().int().min(4000).default(60_000), {
      flag: '--paper-max-chars',
      valueName: '<n>',
      help: 'paper characters given to prompts (over all papers) before sections are summarized',
      group: 'input',
    }),
    literature: setting(z.enum(literatureServices).optional(), {
      flag: '--literature',
      valueName: '[service]',
      preset: 'openalex',
      help: 'also check novelty online, the judge comparing each idea with the works found (the flag alone: openalex)',
      group: 'run',
    }),
    noveltyMinWorks: setting(z.number().int().min(1).max(100).default(10), {
      flag: '--novelty-min-works',
      valueName: '<n>',
      help: 'works a novelty check must compare before it may say novel (fewer: unknown)',
      group: 'run',
    }),
    literatureUrl: setting(z.url().optional(), {
      flag: '--literature-url',
      valueName: '<url>',
      help: "the literature service's base URL (a mirror; default its public API)",
      group: 'run',
    }),
    literatureCache: setting(z.string().min(1).optional(), {
      flag: '--literature-cache',
      valueName: '<dir>',
      help: 'where literature answers are cached (default ~/.cache/codify/literature)',
      group: 'run',
      path: 'new',
    }),
    run: setting(
      z
        .string()
        .regex(ideaSelection, {
          error: (issue) =>
            `${String(issue.input)}: give top:K, a number K, or idea ids such as I1,I3`,
        })
        .optional(),
      {
        flag: '--run',
        valueName: '<ideas>',
        help: 'run experiments for top:K ideas (or K, or ids such as I1,I3) as implement runs on --code',
        group: 'experiments',
        form: { label: 'run experiments', placeholder: 'top:1, 2 or I1,I3 (none)' },
      },
    ),
    code: setting(z.string().min(1).optional(), {
      flag: '--code',
      valueName: '<dir>',
      help: 'the prototype code experiments build on (starter_code.py, or an MLAgentBench folder)',
      group: 'experiments',
      path: 'existing',
      form: {
        label: 'prototype code (for experiments)',
        aria: 'prototype code',
        placeholder: 'examples/explore/prototype',
      },
    }),
    maxSteps: setting(z.number().int().positive().optional(), {
      flag: '--max-steps',
      valueName: '<n>',
      help: 'agent steps per experiment (default 50)',
      group: 'experiments',
      form: { label: 'max steps per experiment', aria: 'max steps' },
    }),
    maxSeeds: setting(z.number().int().min(1).max(100).optional(), {
      flag: '--max-seeds',
      valueName: '<n>',
      help: "seeds each experiment's final script and the baseline run: the first N of its plan's (default all); the ideas are told",
      group: 'experiments',
      form: { label: 'max seeds per experiment', aria: 'max seeds' },
    }),
    parallel: setting(z.number().int().min(1).max(16).default(1), {
      flag: '--parallel',
      valueName: '<n>',
      help: 'experiments run at the same time, each with its own model caller',
      group: 'experiments',
    }),
    ...sandboxSettings({
      python: 'the Python interpreter for the experiments',
      sandbox: 'where experiment code runs',
    }),
    retrieve: setting(z.boolean().optional(), {
      flag: '--retrieve',
      help: 'list pretrained models and data sets from the Hugging Face Hub in each experiment',
      group: 'experiments',
    }),
    hubUrl: setting(z.url().optional(), {
      flag: '--hub-url',
      valueName: '<url>',
      help: 'the Hugging Face Hub base URL (a mirror; default huggingface.co)',
      group: 'experiments',
    }),
    interactive: setting(z.boolean().optional(), {
      flag: '--interactive',
      help: "approve or edit the problem analysis, pick the ideas to run, approve each experiment's plan and budget, and steer its steps, in the terminal",
      group: 'run',
      form: {
        label: 'interactive: pause for me to approve the analysis and pick the ideas to run',
        aria: 'interactive',
      },
    }),
    paperReader: paperReaderSetting,
    ...modelSettings,
  })
  .strict()
  .superRefine((settings, context) => {
    if (settings.run !== undefined && settings.code === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['code'],
        message: 'run (--run) needs code (--code): the prototype folder the experiments start from',
      });
    }
    if (settings.code !== undefined && settings.run === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['run'],
        message: 'code (--code) is for experiments: give run (--run) too, e.g. --run top:1',
      });
    }
    for (const [key, flag] of Object.entries(experimentOnlySettings) as [
      keyof typeof experimentOnlySettings,
      string,
    ][]) {
      if (settings[key] !== undefined && settings.run === undefined) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} (${flag}) is for experiments: give run (--run) and code (--code) too`,
        });
      }
    }
    if (
      settings.literature === undefined &&
      (settings.literatureUrl !== undefined || settings.literatureCache !== undefined)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['literature'],
        message:
          'literatureUrl and literatureCache (--literature-url, --literature-cache) need literature (--literature semantic-scholar|openalex|arxiv)',
      });
    }
  });

export type ExploreSettings = z.infer<typeof exploreSettings>;
