import type { RunStatus } from '../../runs/events.js';
import type { Category } from './category.js';
import type { Critique } from '../judging/judge-score.js';
import type { ExploreFigures } from './read-explore.js';

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
  /** `missing`: never started; `interrupted`: started, never ended. */
  status: RunStatus | 'missing' | 'interrupted';
  steps: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Time the run was being worked on, summed over its invocations (a resume's pause excluded). */
  wallTimeMs: number;
  implement?: {
    category: Category;
    ran: boolean;
    metricName: string | null;
    metric: number | null;
    /** The figure the category compared with (starter trials' mean, else the run's own starter). */
    starter: number | null;
    improvement: number | null;
    linesAdded: number;
    linesRemoved: number;
    finalScript: string | null;
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
