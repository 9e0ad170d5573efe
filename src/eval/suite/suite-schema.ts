import { z } from 'zod';
import { strategyNames } from '../../agent/strategies/strategy.js';

/** Names become folder names and report labels, so they stay plain. */
const name = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-" (e.g. yona-digits)');

const positive = z.number().positive();
const whole = z.number().int().positive();

export const taskItemSchema = z
  .object({
    task: z.string().min(1),
    name: name.optional(),
    /** A person's stated time to code the method, for the time saving the paper reports. */
    human_minutes: positive.optional(),
    /** This task's strategies, instead of the suite's. */
    strategies: z.array(z.enum(strategyNames)).min(1).optional(),
  })
  .strict();

export const paperItemSchema = z
  .object({
    paper: z.string().min(1),
    name: name.optional(),
    /** A PaperBench rubric.json graded by the judge. */
    rubric: z.string().min(1).optional(),
    /** The authors' repository, for PaperCoder's reference-based judge score. */
    reference: z.string().min(1).optional(),
  })
  .strict();

/** `codify explore`'s options that shape an exploration, under its flags' names. */
export const exploreItemSchema = z
  .object({
    /** One paper or several, explored together. */
    explore: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    name: name.optional(),
    notes: z.string().min(1).optional(),
    related: z.string().min(1).optional(),
    ideas: z.number().int().min(1).max(20).default(5),
    reviewers: z.number().int().min(1).max(10).default(1),
    refine_rounds: z.number().int().min(0).max(5).default(1),
    /** `--run`: top:K, K, or idea ids such as I1,I3; needs code:. */
    run: z.union([z.string().min(1), z.number().int().positive()]).optional(),
    /** `--code`: the prototype code the experiments build on. */
    code: z.string().min(1).optional(),
    /** Agent steps per experiment. */
    max_steps: whole.optional(),
    /** `--budget`: minutes one experiment may take, for the plans. */
    budget_minutes: whole.default(10),
    gpu: z.boolean().default(false),
    /** How much an experiment must beat its baseline by to count as an improvement. */
    margin: z.number().min(0).default(0),
  })
  .strict();

const roleOverrides = z
  .object({
    planner: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    expert: z.string().optional(),
    worker: z.string().optional(),
    summarizer: z.string().optional(),
  })
  .strict();

const model = z
  .object({
    name,
    /** The spec for every role; `{item}`, `{strategy}` and `{trial}` are filled in per run. */
    model: z.string().min(1).optional(),
    /** Specs for particular runs, keyed `ITEM/STRATEGY` (papers: `ITEM/paper`, explorations: `ITEM/explore`); beat `model`. */
    runs: z.record(z.string(), z.string().min(1)).optional(),
    roles: roleOverrides.optional(),
  })
  .strict();

export const suiteSchema = z
  .object({
    name: name.optional(),
    /** Each checked against the task or paper item schema, by which key it has. */
    items: z.array(z.record(z.string(), z.unknown())).min(1),
    strategies: z.array(z.enum(strategyNames)).min(1).default(['agent']),
    models: z.array(model).min(1),
    trials: whole.default(1),
    budgets: z
      .object({
        max_steps: whole.optional(),
        max_minutes: positive.optional(),
        max_tokens: whole.optional(),
        max_cost: positive.optional(),
      })
      .strict()
      .default({}),
    paper: z
      .object({
        repair_steps: z.number().int().min(0).optional(),
        smoke_timeout_s: whole.optional(),
        self_refine: z.boolean().optional(),
      })
      .strict()
      .default({}),
    /** Extra runs of each task's starter, to measure the metric's noise; 0 turns it off. */
    starter_trials: z.number().int().min(0).default(3),
    judge: z
      .object({
        model: z.string().min(1).optional(),
        /** Judge samples averaged for the 1–5 scores. */
        samples: whole.default(1),
      })
      .strict()
      .optional(),
    sandbox: z.enum(['bubblewrap', 'none']).default('bubblewrap'),
    python: z.string().min(1).optional(),
  })
  .strict();

export type SuiteFile = z.infer<typeof suiteSchema>;
