import { z } from 'zod';
import { strategyNames } from '../../agent/strategies/strategy.js';
import { exploreSettings } from '../../modes/explore-settings.js';
import { implementSettings } from '../../modes/implement-settings.js';
import { paperSettings } from '../../modes/paper-settings.js';
import { seedsSetting } from '../../modes/seeds-setting.js';

/**
 * The suite's settings of runs are the modes' own (src/modes): the same zod types, limits and
 * defaults as the CLI flags, the MCP tools and the HTTP API, under snake_case keys (a test
 * checks the keys against `suiteKeyOf`).
 */
const explore = exploreSettings.shape;
const implement = implementSettings.shape;
const paper = paperSettings.shape;

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
    /** This task's seeds, instead of the suite's (needs a seed declared in its task.json). */
    seeds: seedsSetting.optional(),
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
    /** Clarifications of the paper for its reproduction, shown with the paper to the rubric's judge (PaperBench's addendum). */
    addendum: z.string().min(1).optional(),
  })
  .strict();

/** `codify explore`'s options that shape an exploration, under its flags' names. */
export const exploreItemSchema = z
  .object({
    /** One paper or several, explored together. */
    explore: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    name: name.optional(),
    notes: explore.notes,
    related: explore.related,
    ideas: explore.ideas,
    reviewers: explore.reviewers,
    refine_rounds: explore.refineRounds,
    /** `--run`: top:K, K, or idea ids such as I1,I3 (YAML may write K as a number); needs code:. */
    run: z.union([explore.run.unwrap(), z.number().int().positive()]).optional(),
    /** `--code`: the prototype code the experiments build on. */
    code: explore.code,
    /** Agent steps per experiment. */
    max_steps: explore.maxSteps,
    /** `--max-seeds`: each experiment runs the first N seeds of its plan. */
    max_seeds: explore.maxSeeds,
    /** `--budget`: minutes one experiment may take, for the plans. */
    budget_minutes: explore.budgetMinutes,
    gpu: explore.gpu,
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
        max_steps: implement.maxSteps,
        max_minutes: implement.maxMinutes,
        max_tokens: implement.maxTokens,
        max_cost: implement.maxCost,
      })
      .strict()
      .default({}),
    paper: z
      .object({
        // Left out, the run takes the mode's default.
        repair_steps: paper.repairSteps.unwrap().optional(),
        smoke_timeout_s: paper.smokeTimeoutSeconds.unwrap().optional(),
        self_refine: paper.selfRefine,
      })
      .strict()
      .default({}),
    /** Extra runs of each task's starter, to measure the metric's noise; 0 turns it off. */
    starter_trials: z.number().int().min(0).default(3),
    /**
     * Seeds every task's starter and final scripts run on, paired seed by seed for the
     * verdict; tasks must declare how their seed is set (task.json "seed").
     */
    seeds: seedsSetting.optional(),
    judge: z
      .object({
        model: z.string().min(1).optional(),
        /** Judge samples averaged for the 1–5 scores (PaperCoder: 8). */
        samples: whole.default(8),
        /** Temperature of the 1–5 score's samples (PaperCoder samples at 1). */
        temperature: z.number().min(0).max(2).default(1),
        /** The judge model's context in tokens, when codify does not know it (src/llm/context-windows.ts). */
        context_tokens: whole.optional(),
        /** A fixed split: judge the repository in parts of at most this many characters (codify used 40 000 before). */
        part_chars: whole.optional(),
        /** Cut the paper to this many characters for the 1–5 score (codify used 60 000 before). */
        paper_chars: whole.optional(),
        /** Cut the reference repository to this many characters (codify used 20 000 before). */
        reference_chars: whole.optional(),
        /** Judge codify's planning documents (docs/plan.md, docs/design.md, docs/analysis/) with the code, as codify did before. */
        include_docs: z.boolean().default(false),
      })
      .strict()
      .optional(),
    sandbox: implement.sandbox,
    python: implement.python,
  })
  .strict();

export type SuiteFile = z.infer<typeof suiteSchema>;
