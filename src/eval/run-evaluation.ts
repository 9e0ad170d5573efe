import { resolve } from 'node:path';
import { chooseInterpreter } from '../agent/implement.js';
import type { CodifyConfig } from '../config/codify-config.js';
import type { EventSink } from '../runs/events.js';
import { emptyTotals } from '../runs/run-totals.js';
import { createSandbox } from '../sandbox/index.js';
import { loadTask } from '../tasks/load-task.js';
import { collectEvaluation, type EvalSummary } from './collection/collect-evaluation.js';
import { EvalLog } from './eval-log.js';
import { checkExploreCode } from './suite/explore-preflight.js';
import type { AnswererFactory } from './dispatch/execute-run.js';
import { planRuns, type PlannedRun } from './suite/plan-runs.js';
import { EvalProgress } from './dispatch/progress.js';
import { stateOf, type RunState } from './dispatch/run-state.js';
import { runLocally } from './dispatch/local-dispatch.js';
import { judgeRun } from './judging/judge-run.js';
import { configForRun } from './dispatch/run-config.js';
import { SuiteError } from './suite/suite-error.js';
import { createModelCaller } from '../llm/create-model-caller.js';
import { measureStarterTrials } from './starter-trials.js';
import type { Suite } from './suite/suite.js';
import { type ReportPaths, writeReports } from './reports/write-reports.js';

export interface EvaluationOptions {
  suite: Suite;
  /** The evaluation folder: its log, the runs, the starter trials and the reports. */
  evalDir: string;
  /** Runs at a time on this machine (default 1). */
  parallel?: number;
  /** The command's configuration (providers, prices, judge); the suite's models override the roles. */
  baseConfig: CodifyConfig;
  /** Models supplied by spec (tests, embedding programs), fresh for each run. */
  answerers?: AnswererFactory;
  /** Consumers of the evaluation's own events (progress, run starts and ends). */
  sinks?: EventSink[];
  argv?: string[];
  /** Stops starting runs; those under way finish. */
  signal?: AbortSignal;
  /** Who runs the runs: this process, `parallel` at a time (default), or a job queue. */
  dispatch?: Dispatch;
}

/** What a dispatcher gets: the runs to do, and the log and counters to report them in. */
export interface DispatchContext {
  unfinished: PlannedRun[];
  states: Map<string, RunState>;
  log: EvalLog;
  progress: EvalProgress;
  argv: string[];
  options: EvaluationOptions;
}

/** Runs (or has runs run) the given combinations; resolves with how many were started. */
export type Dispatch = (context: DispatchContext) => Promise<number>;

/** The judge's grades of every finished paper run not judged yet; failures are logged, not fatal. */
async function judgeRuns(
  suite: Suite,
  planned: PlannedRun[],
  options: EvaluationOptions,
  log: EvalLog,
): Promise<void> {
  const spec = judgeSpec(suite, options.baseConfig);
  if (spec === undefined) return;
  const config = configForRun(options.baseConfig, {}, spec);
  for (const run of planned) {
    if (run.item.kind !== 'paper') continue;
    const supplied = options.answerers?.(spec, run);
    const judge = createModelCaller(config, {
      run: log,
      ...(supplied === undefined ? {} : { models: { [spec]: supplied } }),
    });
    const record = await judgeRun({
      planned: run,
      judge,
      judgeModel: spec,
      samples: suite.judge.samples,
      scores: suite.judge.enabled,
      emit: (body) => log.emit(body),
    });
    if (record?.error !== undefined) {
      log.emit({
        type: 'log',
        level: 'warn',
        message: `judging ${run.key} failed: ${record.error}`,
      });
    }
  }
}

export interface EvaluationOutcome {
  evalDir: string;
  summary: EvalSummary;
  reports: ReportPaths;
  /** Runs started by this invocation (new or resumed). */
  started: number;
}

/** The judge's spec: the suite's, else the command's judge role; undefined when none is set. */
function judgeSpec(suite: Suite, config: CodifyConfig): string | undefined {
  return suite.judge.model ?? config.roles.judge.models[0];
}

const needsJudge = (suite: Suite): boolean =>
  (suite.judge.enabled && suite.items.some((item) => item.kind === 'paper')) ||
  suite.items.some((item) => item.kind === 'paper' && item.rubric !== undefined);

/** What would stop every run: checked once, before the evaluation folder is touched. */
async function preflight(suite: Suite, config: CodifyConfig): Promise<void> {
  if (needsJudge(suite) && judgeSpec(suite, config) === undefined) {
    throw new SuiteError(
      `${suite.file}: judge: the suite has papers to judge but no judge model: set judge: {model: SPEC} in the suite, pass --judge SPEC, or set roles.judge in codify.config.json`,
    );
  }
  // A model without specs of its own (a folder suite) runs on the command's configuration.
  const usesConfig = suite.models.some((model) => model.fromConfiguration === true);
  const unset = (['planner', 'expert', 'worker', 'summarizer'] as const).filter(
    (role) => config.roles[role].models.length === 0,
  );
  if (usesConfig && unset.length > 0) {
    throw new SuiteError(
      `${suite.file}: no model is set for ${unset.join(', ')}: pass --model SPEC (or set the roles in codify.config.json), or write a suite file that names the models`,
    );
  }
  await createSandbox(suite.sandbox);
  for (const item of suite.items) {
    if (item.kind === 'explore') await checkExploreCode(suite, item);
    if (item.kind !== 'task') continue;
    const task = await loadTask(item.path);
    await chooseInterpreter(task, suite.python);
  }
}

/**
 * `codify eval`: runs every combination of a suite that has not finished yet (new ones
 * started, interrupted implement runs resumed), `parallel` at a time, after measuring each
 * task's starter repeatedly; then computes the metrics from the run folders and writes
 * report.json and report.md. Re-running it on the same folder does only what is missing.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationOutcome> {
  const { suite } = options;
  const evalDir = resolve(options.evalDir);
  const parallel = Math.max(1, options.parallel ?? 1);
  await preflight(suite, options.baseConfig);
  const argv = options.argv ?? process.argv.slice(2);
  const log = EvalLog.open(evalDir, suite.name, argv, options.sinks);
  const planned = planRuns(suite, evalDir);
  const startedAt = Date.now();
  try {
    await measureStarterTrials(suite, evalDir, (body) => log.emit(body));
    const states = new Map(planned.map((run) => [run.key, stateOf(run)]));
    const unfinished = planned.filter((run) => states.get(run.key)?.kind !== 'finished');
    const progress = new EvalProgress(planned.length, parallel, startedAt);
    progress.done = planned.length - unfinished.length;
    log.emit({
      type: 'eval-start',
      suite: suite.file,
      runs: planned.length,
      finished: progress.done,
      parallel,
    });
    log.emit(progress.event());
    const dispatch = options.dispatch ?? runLocally;
    const started = await dispatch({ unfinished, states, log, progress, argv, options });
    if (options.signal?.aborted !== true && needsJudge(suite)) {
      await judgeRuns(suite, planned, options, log);
    }
    const summary = await collectEvaluation(suite, evalDir, planned);
    const reports = await writeReports(summary);
    log.emit({
      type: 'eval-end',
      done: summary.totals.finished,
      missing: summary.missing.length,
      report: reports.markdown,
    });
    const totals = emptyTotals();
    for (const record of summary.runs) {
      totals.steps += record.steps;
      totals.llmCalls += record.llmCalls;
      totals.inputTokens += record.inputTokens;
      totals.outputTokens += record.outputTokens;
      totals.costUsd += record.costUsd;
    }
    log.close(
      summary.missing.length === 0 ? 'completed' : 'stopped',
      `${summary.totals.finished} of ${summary.totals.runs} runs finished`,
      totals,
      { report: reports.markdown },
    );
    return { evalDir, summary, reports, started };
  } catch (error) {
    log.close('failed', error instanceof Error ? error.message : String(error), emptyTotals());
    throw error;
  }
}
