import { join, relative } from 'node:path';
import type { ImplementResult } from '../../agent/final-result.js';
import { resumeAgent } from '../../agent/resume.js';
import { errorMessage } from '../../errors/codify-error.js';
import { RunStopped, throwIfStopped } from '../../errors/run-stopped.js';
import type { TaskMetric } from '../../tasks/types.js';
import type { ExploredIdea } from '../exploration.js';
import { experimentChannel } from '../explore-gates.js';
import { splitPlan } from '../grounding/plan-steps.js';
import { confirmMetric, type MetricChoice } from './confirm-metric.js';
import type { ExperimentContext } from './experiment-context.js';
import { earlierExperimentRun } from './experiment-runs.js';
import type { ExperimentRecord } from './run-experiments.js';
import {
  runSeeds,
  summarizeSeeds,
  type SeedRun,
  type SeedSummary,
} from '../../tasks/seeds/run-seeds.js';
import { baselineSeeds } from './baseline-seeds.js';
import { pairResults, primaryPaired, type PairedResults } from './paired-results.js';
import { experimentSeeds } from './experiment-task.js';
import { startExperiment } from './start-experiment.js';
import { verdictStage } from './verdict-stage.js';

/** An idea whose metric the baseline's output does not show: recorded as skipped. */
class ExperimentSkipped extends Error {}

type ConfirmedMetric = Exclude<MetricChoice, { problem: string }>;

/**
 * One idea's experiment as a stage of the exploration (`experiment I1`): a finished one is
 * kept from the stored stage on resume. A skipped or failed experiment is recorded as such
 * (and tried again by a resume); a stop ends the exploration, not just this experiment.
 */
export async function experimentStage(
  context: ExperimentContext,
  idea: ExploredIdea,
): Promise<ExperimentRecord> {
  let record: ExperimentRecord;
  try {
    record = await context.stages.run(`experiment ${idea.id}`, () => runExperiment(context, idea), {
      detail: idea.card.title,
      describe: (ran) => describeRecord(context, ran),
    });
  } catch (error) {
    if (error instanceof RunStopped) throw error;
    const status = error instanceof ExperimentSkipped ? 'skipped' : 'failed';
    return { ...baseRecord(idea), status, reason: errorMessage(error) };
  }
  return verdictStage(context, idea, record);
}

function baseRecord(idea: ExploredIdea) {
  const { notRun } = splitPlan(idea.card);
  return {
    idea: idea.id,
    title: idea.card.title,
    hypothesis: idea.card.hypothesis.statement,
    judgeScore: idea.score,
    ...(notRun.length === 0 ? {} : { notRun }),
  };
}

async function runExperiment(
  context: ExperimentContext,
  idea: ExploredIdea,
): Promise<ExperimentRecord> {
  const { baseline } = context;
  if (splitPlan(idea.card).runnable.length === 0) {
    throw new ExperimentSkipped('no step of its plan runs on the prototype (see notRun)');
  }
  const choice = baseline.ran
    ? confirmMetric(idea.card, baseline.output, baseline.task.metric)
    : { problem: `the baseline does not run (see ${baseline.outputPath})` };
  if ('problem' in choice) throw new ExperimentSkipped(choice.problem);
  const result = await implementIdea(context, idea, choice);
  // A stopped implement run ends with its result; the exploration stops with it.
  throwIfStopped(context.host.signal);
  const measured = await seedsOf(context, idea, result, choice.metric);
  const seeds = measured?.summary ?? null;
  const value = result.metric?.value ?? null;
  const starter = result.metric?.starter ?? null;
  return {
    ...baseRecord(idea),
    status: 'ran',
    reason: result.reason,
    runId: result.runId,
    runDir: result.runDir,
    resultPath: join(result.runDir, 'result.json'),
    outcome: result.outcome,
    metric: {
      name: choice.metric.name,
      goal: choice.metric.goal,
      source: choice.source,
      value,
      baseline: starter,
      improvement: improvementOf(choice.metric.goal, value, starter),
      ...(seeds === null ? {} : { seeds }),
    },
    ...(measured === null ? {} : { paired: measured.paired }),
  };
}

/**
 * The idea's implement run: a new one, or the one an earlier process started (killed or
 * stopped mid-run, it continues after its last completed step; ended, its result stands).
 */
async function implementIdea(
  context: ExperimentContext,
  idea: ExploredIdea,
  choice: ConfirmedMetric,
): Promise<ImplementResult> {
  const earlier = earlierExperimentRun(context.folder, idea.id);
  if (earlier === undefined) {
    return startExperiment(context, idea, choice.metric, choice.reading.raw);
  }
  context.run.emit({
    type: 'log',
    level: 'info',
    message: `experiment ${idea.id}: ${earlier.ended ? 'keeps its finished run' : 'resumes its run'} ${earlier.runId}`,
  });
  const { host, channel } = context;
  const feedback = channel === undefined ? undefined : experimentChannel(idea.id, channel);
  return resumeAgent(earlier.runDir, {
    models: (child) => context.models(child),
    ...(feedback === undefined ? {} : { feedback }),
    ...(host.runsRoot === undefined ? {} : { runsRoot: host.runsRoot }),
    ...(host.signal === undefined ? {} : { signal: host.signal }),
    ...(host.childSinks === undefined ? {} : { sinks: host.childSinks }),
    ...(context.actions === undefined ? {} : { actions: context.actions }),
    argv: ['explore', '--resume', idea.id],
  });
}

/**
 * The final script once per seed of the plan (kept in seeds.json) and the baseline on the
 * same seeds, paired seed by seed per metric. The summary's improvement and margin are the
 * paired effect of the experiment's metric; with fewer than two pairs, the seeds' mean
 * against the single baseline run.
 */
async function seedsOf(
  context: ExperimentContext,
  idea: ExploredIdea,
  result: ImplementResult,
  metric: TaskMetric,
): Promise<{ summary: SeedSummary | null; paired: PairedResults } | null> {
  if (result.finalScript === null) return null;
  const { baseline, settings, host } = context;
  const workspace = join(result.runDir, 'workspace');
  const script = relative(result.runDir, result.finalScript);
  const seeds = experimentSeeds(idea.card, settings.maxSeeds);
  const runs = await runSeeds({
    file: join(context.folder, idea.id, 'seeds.json'),
    workspace,
    script,
    task: baseline.task,
    metric,
    // Prototype code that declares no seed is given `--seed N`, as the plans' seeds assume.
    declaration: baseline.task.seed ?? { flag: '--seed' },
    seeds,
    sandbox: baseline.sandbox,
    interpreter: baseline.interpreter,
    gpu: settings.gpu,
    outputDir: join(result.runDir, 'outputs'),
    emit: (body) => context.run.emit(body),
    shownScript: relative(context.run.dir, join(workspace, script)),
    ...(host.signal === undefined ? {} : { signal: host.signal }),
  });
  const paired = pairResults(idea.card, metric, runs, await baselineSeeds(context, seeds));
  return {
    summary:
      pairedSummary(runs, paired) ??
      summarizeSeeds(runs, metric.goal, result.metric?.starter ?? null),
    paired,
  };
}

/** The seeds' mean and spread, with the paired effect of the experiment's metric as its improvement. */
function pairedSummary(runs: SeedRun[], paired: PairedResults): SeedSummary | null {
  const primary = primaryPaired(paired);
  const effect = primary?.effect ?? null;
  if (primary === undefined || effect === null || primary.ideaMean === null) return null;
  return {
    runs,
    mean: primary.ideaMean,
    sd: effect.finalSd,
    improvement: effect.effect,
    margin: effect.margin,
    effect: Math.round((effect.effect - effect.margin) * 1e9) / 1e9,
    beyondMargin: effect.beyondMargin,
  };
}

/** Improvement over the baseline, positive when better for the metric's goal. */
function improvementOf(goal: 'max' | 'min', value: number | null, baseline: number | null) {
  if (value === null || baseline === null) return null;
  const difference = goal === 'max' ? value - baseline : baseline - value;
  return Math.round(difference * 1e9) / 1e9;
}

function describeRecord(context: ExperimentContext, record: ExperimentRecord): string {
  const metric = record.metric;
  const seeds = metric?.seeds;
  return `${record.outcome ?? record.status}; ${metric?.name ?? ''} ${String(metric?.value ?? null)} vs baseline ${String(metric?.baseline ?? null)}${seeds === undefined ? '' : `; ${seeds.runs.length} seeds: ${seeds.mean} ± ${seeds.sd}`} (run ${relative(context.run.dir, record.runDir ?? '')})`;
}
