import type { StrategyName } from '../../agent/strategies/strategy.js';

/** One thing a suite evaluates: a task folder (implement) or a paper. */
export type SuiteItem =
  | {
      kind: 'task';
      name: string;
      path: string;
      strategies: StrategyName[];
      humanMinutes?: number;
      /**
       * Seeds the starter and every final script run on, for a verdict paired by seed; empty
       * when the suite asks for none (the verdict then rests on repeat runs of one seed).
       */
      seeds: number[];
    }
  | {
      kind: 'paper';
      name: string;
      path: string;
      rubric?: string;
      reference?: string;
      /** PaperBench's addendum: clarifications shown with the paper to the rubric's judge. */
      addendum?: string;
    }
  | ExploreItem;

/** Papers explored for ideas (`codify explore`), with the options that shape the exploration. */
export interface ExploreItem {
  kind: 'explore';
  name: string;
  /** The papers, absolute. */
  papers: string[];
  notes?: string;
  related?: string;
  ideas: number;
  reviewers: number;
  refineRounds: number;
  /** Minutes one experiment may take, stated to the idea generator. */
  budgetMinutes: number;
  gpu: boolean;
  /** `--run` and `--code`: the chosen ideas' experiments on the prototype code. */
  experiments?: { select: string; codeDir: string; maxSteps?: number; maxSeeds?: number };
  /** An experiment improved on its baseline only when it beats it by more than this. */
  margin: number;
}

/** Specs per role for one run (the judge comes from the suite's judge: or the configuration). */
export interface RoleSpecs {
  planner?: string[];
  expert?: string;
  worker?: string;
  summarizer?: string;
}

export interface SuiteModel {
  name: string;
  /** The specs of one run (paths of replay: and exchange: specs already absolute). */
  specsFor(item: string, strategy: string, trial: number): RoleSpecs;
  /** Every role comes from the command's configuration (a folder suite). */
  fromConfiguration?: boolean;
}

/** A checked suite, every path absolute. */
export interface Suite {
  file: string;
  name: string;
  items: SuiteItem[];
  strategies: StrategyName[];
  models: SuiteModel[];
  trials: number;
  budgets: { maxSteps?: number; maxMinutes?: number; maxTokens?: number; maxCostUsd?: number };
  paper: { repairSteps?: number; smokeTimeoutS?: number; selfRefine?: boolean };
  starterTrials: number;
  judge: JudgeSettings;
  sandbox: 'bubblewrap' | 'none';
  python?: string;
}

/**
 * How the judge grades paper runs: PaperCoder's protocol by default (8 samples at
 * temperature 1, the whole paper and repository in one prompt, codify's planning documents
 * left out); the optional fields bring back fixed cuts and splits.
 */
export interface JudgeSettings {
  /** The suite has a judge: section, so paper runs get PaperCoder's 1–5 scores. */
  enabled: boolean;
  model?: string;
  samples: number;
  temperature: number;
  contextTokens?: number;
  partChars?: number;
  paperChars?: number;
  referenceChars?: number;
  includeDocs: boolean;
}

/** The strategy label of paper runs, in keys, folders and reports. */
export const paperStrategy = 'paper' as const;

/** The strategy label of explore runs. */
export const exploreStrategy = 'explore' as const;

/** The strategies an item is run with: its own for tasks, one fixed label otherwise. */
export function itemStrategies(
  item: SuiteItem,
): (StrategyName | typeof paperStrategy | typeof exploreStrategy)[] {
  if (item.kind === 'paper') return [paperStrategy];
  if (item.kind === 'explore') return [exploreStrategy];
  return item.strategies;
}

/**
 * Whether a task item's verdict rests on seeds: two or more. One seed is no seed variation,
 * so nothing extra runs and its verdict is a fixed seed's.
 */
export const seedVaried = (item: SuiteItem): item is Extract<SuiteItem, { kind: 'task' }> =>
  item.kind === 'task' && item.seeds.length >= 2;
