import { existsSync } from 'node:fs';
import { eventLogPath } from '../../runs/event-log-file.js';
import type { CodifyEvent } from '../../runs/events.js';
import { readEvents } from '../../runs/read-events.js';
import { type WorkerLoss, workersLost } from './workers-lost.js';
import { totalsOf } from '../../runs/run-totals.js';
import { starterNoise } from './noise-margin.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import { readRun, type StarterSeeds } from './read-run.js';
import { metricSample } from '../../tasks/seeds/metric-statistics.js';
import { readStarterSeeds } from '../seed-trials.js';
import { isFinished, type RunRecord } from './run-record.js';
import { readStarterTrials } from '../starter-trials.js';
import { seedVaried, type Suite } from '../suite/suite.js';
import {
  comparisons,
  type Comparison,
  implementGroups,
  exploreGroups,
  type ExploreGroup,
  type ImplementGroup,
  type NoiseByItem,
  paperGroups,
  type PaperGroup,
} from './summarize.js';

/** Everything report.json holds: computed from the run folders, never typed in. */
export interface EvalSummary {
  suite: string;
  suiteFile: string;
  evalDir: string;
  generatedAt: string;
  runs: RunRecord[];
  /** Per task: the repeated starter runs and the noise margin they give. */
  noise: NoiseByItem;
  /** Per task run on seeds: the starter's metric on each seed and their spread. */
  starterSeeds: Record<string, StarterSeedFigures>;
  implement: ImplementGroup[];
  papers: PaperGroup[];
  /** Explorations per paper × model: ideas, review scores, novelty, experiments. */
  explore: ExploreGroup[];
  comparisons: Comparison[];
  /** Keys of the combinations not run yet or interrupted. */
  missing: string[];
  /**
   * Keys of the combinations whose run an error ended before it had a result (a model
   * that could not be reached, a missing recording): scored as failures, in no category,
   * and tried again by the next invocation unless failures are kept.
   */
  failed: string[];
  /** With a queue: workers that went while holding runs, and when those were taken again. */
  workersLost: WorkerLoss[];
  /**
   * Every call paid, once: the runs' and the judge's (logged in the evaluation's own
   * events.jsonl), as the run-end, `codify runs`, the web app and the report all show them.
   */
  totals: {
    runs: number;
    finished: number;
    failed: number;
    llmCalls: number;
    tokens: number;
    costUsd: number;
    wallTimeMs: number;
    /** The judge's part of the calls, tokens and cost above. */
    judge: { llmCalls: number; tokens: number; costUsd: number };
  };
}

/** The starter on each seed an item asked for (null: printed no metric or not run yet). */
export interface StarterSeedFigures {
  seeds: number[];
  values: { seed: number; value: number | null }[];
  mean: number | null;
  /** Sample standard deviation over the seeds: the task's seed spread. */
  sd: number | null;
}
/** The evaluation's own log (empty before its first invocation). */
const ownEvents = (evalDir: string): CodifyEvent[] =>
  existsSync(eventLogPath(evalDir)) ? readEvents(evalDir).events : [];

/** What the judge's calls in the evaluation's own log spent. */
function judgeSpend(events: readonly CodifyEvent[]): EvalSummary['totals']['judge'] {
  const totals = totalsOf(events);
  return {
    llmCalls: totals.llmCalls,
    tokens: totals.inputTokens + totals.outputTokens,
    costUsd: totals.costUsd,
  };
}

/** Reads every planned run's folder and the starter trials, and computes the tables. */
export async function collectEvaluation(
  suite: Suite,
  evalDir: string,
  planned: PlannedRun[],
  now: Date = new Date(),
): Promise<EvalSummary> {
  const noise: NoiseByItem = {};
  for (const item of suite.items) {
    if (item.kind !== 'task') continue;
    const trials = readStarterTrials(evalDir, item.name, suite.starterTrials);
    if (trials.length > 0) noise[item.name] = starterNoise(trials);
  }
  const starterSeeds: Record<string, StarterSeedFigures> = {};
  const seededItems: Record<string, StarterSeeds> = {};
  for (const item of suite.items) {
    if (!seedVaried(item)) continue;
    const starter = readStarterSeeds(evalDir, item);
    const sample = metricSample(starter.flatMap((run) => (run.value === null ? [] : [run.value])));
    starterSeeds[item.name] = {
      seeds: item.seeds,
      values: item.seeds.map((seed) => ({
        seed,
        value: starter.find((run) => run.seed === seed)?.value ?? null,
      })),
      mean: sample?.mean ?? null,
      sd: sample === null || sample.values.length < 2 ? null : sample.sd,
    };
    seededItems[item.name] = { evalDir, starter };
  }
  const runs: RunRecord[] = [];
  for (const run of planned)
    runs.push(await readRun(run, noise[run.item.name], seededItems[run.item.name]));
  const humanMinutes: Record<string, number> = {};
  for (const item of suite.items) {
    if (item.kind === 'task' && item.humanMinutes !== undefined)
      humanMinutes[item.name] = item.humanMinutes;
  }
  const finished = runs.filter(isFinished);
  const failed = runs.filter((run) => run.error !== undefined);
  const log = ownEvents(evalDir);
  const judge = judgeSpend(log);
  return {
    suite: suite.name,
    suiteFile: suite.file,
    evalDir,
    generatedAt: now.toISOString(),
    runs,
    noise,
    starterSeeds,
    implement: implementGroups(runs, humanMinutes),
    papers: paperGroups(runs),
    explore: exploreGroups(runs),
    comparisons: comparisons(runs),
    missing: runs
      .filter((run) => !finished.includes(run) && !failed.includes(run))
      .map((run) => run.key),
    failed: failed.map((run) => run.key),
    workersLost: workersLost(log),
    totals: {
      runs: runs.length,
      finished: finished.length,
      failed: failed.length,
      llmCalls: runs.reduce((sum, run) => sum + run.llmCalls, judge.llmCalls),
      tokens: runs.reduce((sum, run) => sum + run.inputTokens + run.outputTokens, judge.tokens),
      costUsd: runs.reduce((sum, run) => sum + run.costUsd, judge.costUsd),
      wallTimeMs: runs.reduce((sum, run) => sum + run.wallTimeMs, 0),
      judge,
    },
  };
}
