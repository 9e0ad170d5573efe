import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { renderCandidates, searchHub } from '../retrieve/hub-search.js';
import { join, relative } from 'node:path';
import type { ActionDefinition } from '../../agent/actions/types.js';
import type { ImplementResult } from '../../agent/final-result.js';
import { chooseInterpreter, runImplement } from '../../agent/implement.js';
import type { StrategyName } from '../../agent/strategies/strategy.js';
import type { ModelCaller } from '../../llm/types.js';
import type { TaskMetric } from '../../tasks/types.js';
import type { EventSink } from '../../runs/events.js';
import type { Run } from '../../runs/run.js';
import { createSandbox, type SandboxKind } from '../../sandbox/index.js';
import { loadTask } from '../../tasks/load-task.js';
import { measureStarter } from '../../tasks/measure-starter.js';
import type { ExploredIdea } from '../exploration.js';
import { approveExperiment, experimentChannel, ExplorationStopped } from '../explore-gates.js';
import { resumeAgent } from '../../agent/resume.js';
import { earlierExperimentRun, recordExperimentRun } from './experiment-runs.js';
import { defaultAgentOptions } from '../../agent/agent-options.js';
import type { FeedbackChannel } from '../../runs/feedback.js';
import { confirmMetric } from './confirm-metric.js';
import { buildExperimentTask, experimentMethodology } from './experiment-task.js';
import { selectIdeas } from './select-ideas.js';
import { inPool, oneAtATime } from './experiment-pool.js';
import { runSeeds, summarizeSeeds, type SeedSummary } from './seed-runs.js';

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
}

export interface RunExperimentsOptions {
  run: Run;
  ideas: readonly ExploredIdea[];
  settings: ExperimentSettings;
  models: (run: Run) => ModelCaller;
  runsRoot?: string;
  sinks?: EventSink[];
  /** The agent's actions (default all); tests give small ones. */
  actions?: readonly ActionDefinition[];
  /** The problem analysis's keywords, for `--retrieve`. */
  keywords?: readonly string[];
  /**
   * The researcher (`--interactive`): approves each experiment's plan and budget, and steers
   * its implement run step by step through the same channel.
   */
  feedback?: FeedbackChannel;
  /** The compute the experiments may use, as the ideas were told (shown at the gate). */
  compute?: string;
}

/**
 * starter_code_performance.txt of an experiment. Unlike the implement run's own measurement
 * it states no wall time: it reaches the planner's prompt, which must be the same when a
 * recorded exploration is replayed.
 */
function baselinePerformanceText(metric: TaskMetric, raw: string): string {
  return `${metric.name}: ${raw}\n\nMeasured by codify: the prototype code, run unchanged before the experiment (goal: ${metric.goal}).\n`;
}

/** Improvement over the baseline, positive when better for the metric's goal. */
export function improvementOf(goal: 'max' | 'min', value: number | null, baseline: number | null) {
  if (value === null || baseline === null) return null;
  const difference = goal === 'max' ? value - baseline : baseline - value;
  return Math.round(difference * 1e9) / 1e9;
}

/**
 * Each chosen idea becomes an ordinary implement run on the prototype code. The baseline is
 * run once first; each idea's metric (from its plan) is confirmed against that output
 * before any model is asked to implement the idea.
 */
export async function runExperiments(options: RunExperimentsOptions): Promise<ExperimentRecord[]> {
  const { run, settings } = options;
  // Experiments running side by side ask the researcher one request at a time.
  const channel = options.feedback === undefined ? undefined : oneAtATime(options.feedback);
  const chosen = selectIdeas(settings.select, options.ideas);
  const folder = join(run.dir, 'experiments');
  const baselineTaskDir = await buildExperimentTask({
    codeDir: settings.codeDir,
    destination: join(folder, 'baseline', 'task'),
    methodology: 'The prototype code as given: the baseline every experiment is compared with.\n',
  });
  const baselineTask = await loadTask(baselineTaskDir);
  const interpreter = await chooseInterpreter(baselineTask, settings.python);
  const sandbox = await createSandbox(settings.sandbox);
  run.emit({
    type: 'stage-start',
    stage: 'baseline',
    detail: `${baselineTask.entrypoint} in ${settings.codeDir}`,
  });
  const baseline = await measureStarter({
    task: baselineTask,
    sandbox,
    interpreter,
    runDir: join(folder, 'baseline'),
    gpu: settings.gpu,
  });
  run.emit({
    type: 'execution-end',
    script: baselineTask.entrypoint,
    args: baselineTask.args,
    exitCode: baseline.execution.exitCode,
    signal: baseline.execution.signal,
    timedOut: baseline.execution.timedOut,
    durationMs: baseline.execution.durationMs,
    outputPath: baseline.execution.outputPath,
  });
  const baselineOutput = readFileSync(baseline.execution.outputPath, 'utf8');
  const baselineRan = baseline.execution.exitCode === 0 && !baseline.execution.timedOut;
  run.emit({
    type: 'stage-end',
    stage: 'baseline',
    ok: baselineRan,
    detail: baselineRan
      ? `ran; output in ${baseline.execution.outputPath}`
      : `did not run (exit ${String(baseline.execution.exitCode)})`,
  });

  /** A new implement run for the idea: its candidates, the researcher's gate, its task. */
  const startExperiment = async (idea: ExploredIdea, metric: TaskMetric, raw: string) => {
    let candidates = '';
    if (settings.retrieve !== undefined) {
      const query = options.keywords?.[0] ?? idea.card.title;
      const found = await searchHub(query, settings.retrieve);
      mkdirSync(join(folder, idea.id), { recursive: true });
      writeFileSync(
        join(folder, idea.id, 'candidates.json'),
        `${JSON.stringify(found, null, 2)}\n`,
      );
      run.emit({
        type: 'log',
        level: found.problem === undefined ? 'info' : 'warn',
        message:
          found.problem === undefined
            ? `${idea.id}: ${found.candidates.length} Hub candidates for "${query}"`
            : `${idea.id}: no Hub candidates, going on without them: ${found.problem}`,
      });
      candidates = renderCandidates(found, baselineTask.network);
    }
    const approved = await approveExperiment(run, channel, idea, {
      methodology: experimentMethodology(idea.card, metric, candidates),
      maxSteps: settings.maxSteps ?? defaultAgentOptions.maxSteps,
      compute: options.compute ?? 'as the prototype code runs',
    });
    const feedback = channel === undefined ? undefined : experimentChannel(idea.id, channel);
    const agent = {
      ...(settings.maxSteps === undefined && approved.maxSteps === defaultAgentOptions.maxSteps
        ? {}
        : { maxSteps: approved.maxSteps }),
      // Interactive explorations steer their experiments step by step, questions included.
      ...(feedback === undefined ? {} : { interactive: true, questions: true }),
    };
    const taskDir = await buildExperimentTask({
      codeDir: settings.codeDir,
      destination: join(folder, idea.id, 'task'),
      methodology: approved.methodology,
      metric: metric,
      name: `${idea.id}-${idea.card.title}`,
      baselinePerformance: baselinePerformanceText(metric, raw),
    });
    return runImplement({
      taskDir,
      models: options.models,
      sandbox: settings.sandbox,
      python: interpreter,
      gpu: settings.gpu,
      ...(settings.strategy === undefined ? {} : { strategy: settings.strategy }),
      ...(Object.keys(agent).length === 0 ? {} : { agent }),
      ...(feedback === undefined ? {} : { feedback }),
      ...(options.runsRoot === undefined ? {} : { runsRoot: options.runsRoot }),
      ...(options.sinks === undefined ? {} : { sinks: options.sinks }),
      ...(options.actions === undefined ? {} : { actions: options.actions }),
      argv: ['explore', '--run', idea.id],
      onRun: (child) => {
        recordExperimentRun(folder, idea.id, child);
        run.emit({
          type: 'log',
          level: 'info',
          message: `experiment ${idea.id} runs as ${child.id}`,
        });
      },
    });
  };

  // Ideas run `parallel` at a time; each record keeps its idea's place, so the result does
  // not depend on which finished first.
  const records: (ExperimentRecord | undefined)[] = chosen.map(() => undefined);
  const runOne = async (idea: ExploredIdea, slot: number): Promise<void> => {
    const base = {
      idea: idea.id,
      title: idea.card.title,
      hypothesis: idea.card.hypothesis.statement,
      judgeScore: idea.score,
    };
    run.emit({ type: 'stage-start', stage: `experiment ${idea.id}`, detail: idea.card.title });
    const choice = baselineRan
      ? confirmMetric(idea.card, baselineOutput, baselineTask.metric)
      : { problem: `the baseline does not run (see ${baseline.execution.outputPath})` };
    if ('problem' in choice) {
      records[slot] = { ...base, status: 'skipped', reason: choice.problem };
      run.emit({
        type: 'stage-end',
        stage: `experiment ${idea.id}`,
        ok: false,
        detail: choice.problem,
      });
      return;
    }
    try {
      const earlier = earlierExperimentRun(folder, idea.id);
      if (earlier !== undefined) {
        run.emit({
          type: 'log',
          level: 'info',
          message: `experiment ${idea.id}: ${earlier.ended ? 'keeps its finished run' : 'resumes its run'} ${earlier.runId}`,
        });
      }
      const feedback = channel === undefined ? undefined : experimentChannel(idea.id, channel);
      const result =
        earlier === undefined
          ? await startExperiment(idea, choice.metric, choice.reading.raw)
          : // Killed mid-run, it continues after its last completed step; ended, its result stands.
            await resumeAgent(earlier.runDir, {
              models: (child) => options.models(child),
              ...(feedback === undefined ? {} : { feedback }),
              ...(options.runsRoot === undefined ? {} : { runsRoot: options.runsRoot }),
              ...(options.sinks === undefined ? {} : { sinks: options.sinks }),
              ...(options.actions === undefined ? {} : { actions: options.actions }),
              argv: ['explore', '--resume', idea.id],
            });
      const value = result.metric?.value ?? null;
      const starter = result.metric?.starter ?? null;
      const seeds =
        result.finalScript === null
          ? null
          : summarizeSeeds(
              await runSeeds({
                run,
                file: join(folder, idea.id, 'seeds.json'),
                runDir: result.runDir,
                script: relative(result.runDir, result.finalScript),
                task: baselineTask,
                metric: choice.metric,
                seeds: idea.card.experimentPlan.seeds,
                sandbox,
                interpreter,
                gpu: settings.gpu,
              }),
              choice.metric.goal,
              starter,
            );
      const record: ExperimentRecord = {
        ...base,
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
      };
      records[slot] = record;
      run.emit({
        type: 'stage-end',
        stage: `experiment ${idea.id}`,
        ok: true,
        detail: `${result.outcome}; ${choice.metric.name} ${String(value)} vs baseline ${String(starter)}${seeds === null ? '' : `; ${seeds.runs.length} seeds: ${seeds.mean} ± ${seeds.sd}`} (run ${relative(run.dir, result.runDir)})`,
      });
    } catch (error) {
      // The researcher's stop ends the exploration, not just this experiment.
      if (error instanceof ExplorationStopped) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      records[slot] = { ...base, status: 'failed', reason };
      run.emit({ type: 'stage-end', stage: `experiment ${idea.id}`, ok: false, detail: reason });
    }
  };
  await inPool(chosen, Math.max(1, settings.parallel ?? 1), runOne);
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
