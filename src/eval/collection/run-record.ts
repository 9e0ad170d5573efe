import type { RunStatus } from '../../runs/events.js';
import type { Category } from './category.js';
import type { PairedEffect } from '../../tasks/seeds/paired-effect.js';
import type { Critique } from '../judging/judge-score.js';
import type { ExploreFigures } from './read-explore.js';

/** A run that counts in the metrics: it ended, and not in an error (a failure is scored apart). */
export const isFinished = (record: Pick<RunRecord, 'status' | 'error'>): boolean =>
  record.status !== 'missing' && record.status !== 'interrupted' && record.error === undefined;

export type VerifyOutcomeLabel =
  'ran as generated' | 'ran after repair' | 'did not run' | 'not verified';

/** One combination of the suite as its run folder shows it; every figure is read from the run. */
export interface RunRecord {
  key: string;
  item: string;
  kind: 'task' | 'paper' | 'explore';
  strategy: string;
  model: string;
  trial: number;
  /** The run folder, or null when the combination has not run yet. */
  runDir: string | null;
  /**
   * `missing`: never started; `interrupted`: started, never ended; `failed` with `error`:
   * an error ended it before it had a result (scored as a failure, not in a category).
   */
  status: RunStatus | 'missing' | 'interrupted';
  /** Why the run failed, when an error ended it (status `failed`, no result). */
  error?: string;
  /**
   * Model calls, tokens, cost and wall time of the run over every process that worked on
   * its folder (each call once: its result.json's and run-end's figures), plus those of
   * earlier attempts in other folders.
   */
  steps: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /**
   * Time the run was worked on, summed over its processes (the wait for a resume left out):
   * result.json's `wallTimeMs` when the run wrote one, else from the log; plus earlier attempts'.
   */
  wallTimeMs: number;
  /** Earlier attempts in other folders (started again after a failure or an early kill), oldest first. */
  earlierAttempts?: {
    runDir: string;
    status: RunStatus | 'interrupted';
    reason?: string;
    llmCalls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    wallTimeMs: number;
  }[];
  implement?: {
    category: Category;
    ran: boolean;
    metricName: string | null;
    /** Which way the metric improves; null without a metric. */
    goal: 'max' | 'min' | null;
    metric: number | null;
    /** The figure the category compared with (starter trials' mean, else the run's own starter). */
    starter: number | null;
    improvement: number | null;
    linesAdded: number;
    linesRemoved: number;
    finalScript: string | null;
    /** What the category rests on, in the report's words. */
    verdict: ImplementVerdict;
    /** The starter and the final script seed by seed, when the suite ran seeds. */
    seeds?: SeedFigures;
  };
  paper?: {
    verify: VerifyOutcomeLabel;
    smokeRuns: number;
    repairSteps: number;
    files: number;
    lines: number;
    /** Lines added or removed by repair, over the repository's lines before it; null if unknown. */
    repairLineShare: number | null;
    repository: string | null;
  };
  /** An exploration's ideas, reviews, novelty and experiments (also of an interrupted run). */
  explore?: ExploreFigures;
  /** PaperCoder's model-based score, averaged over the judge's samples. */
  judge?: {
    score: number;
    samples: number[];
    parts: number;
    critiques: Critique[];
    /** The temperature the samples were drawn at, when the judge record says. */
    temperature?: number;
    /** What the judge did not see whole in one prompt, and why (absent: all of it). */
    split?: string;
    /** Reference-based, when the suite gives the authors' repository. */
    reference?: {
      score: number;
      samples: number[];
      critiques: Critique[];
      split?: string;
    };
  };
  /** The PaperBench rubric's weighted score and its leaves' grades. */
  rubric?: {
    score: number;
    leaves: {
      id: string;
      requirements: string;
      score: number;
      reason: string;
      /** The judge saw the whole code, or the files it picked (the code did not fit its context). */
      selection?: 'whole' | 'picked';
    }[];
    /** What did not fit the judge's context whole (the output or the paper cut). */
    notes?: string[];
  };
}

/** What an implement run's category rests on. */
export interface ImplementVerdict {
  /** `seeds`: paired over two or more seeds; `seed fixed`: one seed, repeat runs only. */
  basis: 'seeds' | 'seed fixed';
  /** The margin the effect had to clear. */
  margin: number;
  /** Where the margin comes from, as the report states it. */
  marginSource: string;
  /** A gain beyond the repeat-run margin measured on one seed: flagged, counted B. */
  fixedSeedGain: boolean;
}

/** Per-seed values and the paired statistics, as report.json keeps them. */
export interface SeedFigures {
  seeds: number[];
  /** Per seed, in the suite's order: the starter's and the final script's metric (null: none printed). */
  values: { seed: number; starter: number | null; final: number | null }[];
  finalFailed: number[];
  /** The paired statistics; null with fewer than two seeds both printed a value on. */
  paired: Omit<PairedEffect, 'pairs'> | null;
}
