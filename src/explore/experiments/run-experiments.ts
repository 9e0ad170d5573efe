import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionDefinition } from '../../agent/actions/types.js';
import type { ImplementResult } from '../../agent/final-result.js';
import type { StrategyName } from '../../agent/strategies/strategy.js';
import type { ModelCaller } from '../../llm/types.js';
import type { RunHost } from '../../runs/run-host.js';
import type { Run } from '../../runs/run.js';
import type { Stages } from '../../runs/stages.js';
import type { SandboxKind } from '../../sandbox/index.js';
import type { ExploredIdea } from '../exploration.js';
import type { NotRunStep } from '../grounding/plan-steps.js';
import type { ExperimentContext, MeasuredBaseline } from './experiment-context.js';
import { inPool, oneAtATime } from './experiment-pool.js';
import { measureBaseline } from './measure-baseline.js';
import { experimentStage } from './run-experiment.js';
import type { SeedSummary } from '../../tasks/seeds/run-seeds.js';
import type { HypothesisVerdict } from './judge-hypothesis.js';
import type { PairedResults } from './paired-results.js';
import { selectIdeas } from './select-ideas.js';

export interface ExperimentSettings {
  /** `--run`: top:K, K, or idea ids. */
  select: string;
  /** `--code`: the prototype code the experiments build on. */
  codeDir: string;
  sandbox: SandboxKind;
  python?: string;
  gpu: boolean;
  /** Agent steps per experiment (default the agent's 50). */
  maxSteps?: number;
  /** `--max-seeds`: each experiment runs the first N seeds of its plan (default all). */
  maxSeeds?: number;
  strategy?: StrategyName;
  /** `--parallel`: experiments run at the same time (default 1, one after another). */
  parallel?: number;
  /** `--retrieve`: list Hugging Face Hub candidates for each experiment. */
  retrieve?: { baseUrl?: string; cacheDir: string; retries?: number; baseDelayMs?: number };
}

/** One idea's experiment, linked to the implement run that produced its numbers. */
export interface ExperimentRecord {
  idea: string;
  title: string;
  hypothesis: string;
  judgeScore: number;
  /** Grounding: the plan's steps the prototype cannot run, left out of the experiment. */
  notRun?: NotRunStep[];
  status: 'ran' | 'skipped' | 'failed';
  reason: string;
  runId?: string;
  runDir?: string;
  /** The run's result.json, where every measured number of this record comes from. */
  resultPath?: string;
  outcome?: ImplementResult['outcome'];
  metric?: {
    name: string;
    goal: 'max' | 'min';
    /** Where the metric came from: the idea's plan, or the prototype's task.json. */
    source: 'plan' | 'task.json';
    /** result.json metric.value */
    value: number | null;
    /** result.json metric.starter: the baseline */
    baseline: number | null;
    /** value − baseline, signed so that positive is better; null when either is missing. */
    improvement: number | null;
    /**
     * The final script run once per seed of the plan (`--seed N`), each run's output in the
     * implement run's outputs/: mean, spread, per-seed values and the effect beyond the
     * margin the ranking uses. Absent when no final script ran or no seed printed a value.
     */
    seeds?: SeedSummary;
  };
  /**
   * The final script and the unchanged baseline on the same seeds, paired per metric (the
   * metric above and any other the plan or the structured result line names).
   */
  paired?: PairedResults;
  /** The judge's verdict on the hypothesis by its stop criteria, against `paired`. */
  verdict?: HypothesisVerdict;
  /** Why no verdict was given although the seeds were paired (a resume asks again). */
  verdictProblem?: string;
}

export interface RunExperimentsOptions {
  /** The exploration's run and stages: the baseline and each experiment are stages of it. */
  run: Run;
  stages: Stages;
  /**
   * The exploration's host: its signal stops the experiments' implement runs, its person
   * (`--interactive`) approves each experiment's plan and budget and steers its steps.
   */
  host: RunHost;
  ideas: readonly ExploredIdea[];
  settings: ExperimentSettings;
  models: (run: Run) => ModelCaller;
  /** The exploration's own caller: the judge role weighs each hypothesis against its seeds. */
  judge: ModelCaller;
  /** The agent's actions (default all); tests give small ones. */
  actions?: readonly ActionDefinition[];
  /** The problem analysis's keywords, for `--retrieve`. */
  keywords?: readonly string[];
  /** The compute the experiments may use, as the ideas were told (shown at the gate). */
  compute?: string;
  /** The baseline already measured (before the ideas, with `--code`); measured first without. */
  baseline?: MeasuredBaseline;
}

/**
 * Each chosen idea becomes an ordinary implement run on the prototype code. The baseline is
 * run once first; each idea's metric (from its plan) is confirmed against that output
 * before any model is asked to implement the idea. Ideas run `parallel` at a time; each
 * record keeps its idea's place, so the result does not depend on which finished first.
 */
export async function runExperiments(options: RunExperimentsOptions): Promise<ExperimentRecord[]> {
  const { run, stages, host, settings } = options;
  const baseline = options.baseline ?? (await measureBaseline(run, stages, settings, host.signal));
  const context: ExperimentContext = {
    run,
    stages,
    host,
    settings,
    models: options.models,
    judge: options.judge,
    baselineSeeds: new Map(),
    folder: join(run.dir, 'experiments'),
    baseline,
    // Experiments running side by side ask the researcher one request at a time.
    ...(host.feedback === undefined ? {} : { channel: oneAtATime(host.feedback) }),
    ...(options.actions === undefined ? {} : { actions: options.actions }),
    ...(options.keywords === undefined ? {} : { keywords: options.keywords }),
    ...(options.compute === undefined ? {} : { compute: options.compute }),
  };
  const chosen = selectIdeas(settings.select, options.ideas);
  const records: (ExperimentRecord | undefined)[] = chosen.map(() => undefined);
  await inPool(chosen, Math.max(1, settings.parallel ?? 1), async (idea, slot) => {
    records[slot] = await experimentStage(context, idea);
  });
  const ranked = rankByMeasurement(
    records.filter((record): record is ExperimentRecord => record !== undefined),
  );
  writeFileSync(join(run.dir, 'experiments.json'), `${JSON.stringify(ranked, null, 2)}\n`);
  return ranked;
}

/**
 * Measured effect first (best first): the seeds' improvement beyond their margin where the
 * seeds were run, else the single run's improvement; then ideas without a measurement, by
 * judge score.
 */
export function rankByMeasurement(records: readonly ExperimentRecord[]): ExperimentRecord[] {
  const measured = (record: ExperimentRecord) =>
    record.metric?.seeds?.effect ?? record.metric?.improvement ?? null;
  return [...records].sort((first, second) => {
    const a = measured(first);
    const b = measured(second);
    if (a !== null && b !== null) return b - a;
    if (a !== null) return -1;
    if (b !== null) return 1;
    return second.judgeScore - first.judgeScore;
  });
}
