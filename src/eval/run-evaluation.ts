import { resolve } from 'node:path';
import type { CodifyConfig } from '../config/codify-config.js';
import { throwIfStopped } from '../errors/run-stopped.js';
import type { RunTotals } from '../runs/events.js';
import { withRun, type RunClosing, type RunScope } from '../runs/lifecycle.js';
import { childHost, type RunHost } from '../runs/run-host.js';
import { collectEvaluation, type EvalSummary } from './collection/collect-evaluation.js';
import type { RunRecord } from './collection/run-record.js';
import type { Dispatch } from './dispatch/dispatch.js';
import type { AnswererFactory } from './dispatch/execute-run.js';
import { runLocally } from './dispatch/local-dispatch.js';
import { EvalProgress } from './dispatch/progress.js';
import { stateOf } from './dispatch/run-state.js';
import { JudgeCaller } from './judging/judge-caller.js';
import { judgeRuns } from './judging/judge-runs.js';
import { needsJudge } from './judging/judge-spec.js';
import { type ReportPaths, writeReports } from './reports/write-reports.js';
import { measureStarterTrials } from './starter-trials.js';
import { measureSeeds } from './seed-trials.js';
import { planRuns, type PlannedRun } from './suite/plan-runs.js';
import { checkSuite } from './suite/suite-preflight.js';
import { seedVaried, type Suite } from './suite/suite.js';
import { checkModels } from './suite/model-preflight.js';

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
  /**
   * Who watches (the evaluation's events: progress, run starts and ends), the command line,
   * and the stop signal: aborting it stops the runs in flight (they end `stopped` and are
   * continued by the next invocation) and ends the evaluation `stopped`.
   */
  host?: RunHost;
  /** Who runs the runs: this process, `parallel` at a time (default), or a job queue. */
  dispatch?: Dispatch;
  /**
   * Leave runs that failed (an error ended them before they had a result) as they are,
   * rather than trying them again; they stay scored as failures.
   */
  keepFailures?: boolean;
}

export interface EvaluationOutcome {
  evalDir: string;
  summary: EvalSummary;
  reports: ReportPaths;
  /** Runs started by this invocation (new or resumed). */
  started: number;
}

/**
 * `codify eval`: runs every combination of a suite that has not finished yet (new ones
 * started, interrupted ones continued), `parallel` at a time, after measuring each task's
 * starter repeatedly; judges the paper runs; then computes the metrics from the run folders
 * and writes report.json, report.md and report.html.
 *
 * The evaluation is one run of the one lifecycle (mode `eval`) whose folder is the
 * evaluation folder: every invocation continues it (a later run-start carries
 * `resumedFrom`). Its resume is that folder's state rather than stored stage results: each
 * combination's run folder says whether it finished (finished runs are not redone, an
 * interrupted one is continued by its own mode's resume), a starter trial is kept once its
 * starter.json is written, a judgement once judge/<key>.json is. So every stage below is
 * recomputed from the folder (`store: false`: cheap, and a stored result would go stale
 * when the suite file grows); the judge's completed calls are answered from the log.
 */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationOutcome> {
  const { suite } = options;
  const evalDir = resolve(options.evalDir);
  await checkSuite(suite, options.baseConfig);
  // Before anything starts: every model the runs still to do would use, and its recording.
  // Workers on a queue supply their own models and keys: only specs and recordings are checked then.
  checkModels(suite, options.baseConfig, planRuns(suite, evalDir), {
    supplied: options.answerers !== undefined || options.dispatch !== undefined,
    apiKeys: options.dispatch === undefined,
  });
  const host = options.host ?? {};
  const judge = new JudgeCaller(host.signal);
  return withRun(
    // It says itself what an invocation reuses (the lifecycle's count of completed calls would
    // name judge calls an evaluation whose judgements are kept never asks again).
    { mode: 'eval', name: suite.name, dir: evalDir, announceReuse: false },
    host,
    () => judge,
    (scope) => evaluate(scope, { ...options, evalDir }, judge),
  );
}

/** The evaluation's stages, in order. */
async function evaluate(
  scope: RunScope,
  options: EvaluationOptions,
  judge: JudgeCaller,
): Promise<RunClosing<EvaluationOutcome>> {
  const { stages } = scope;
  const { suite, evalDir } = options;
  const recomputed = { store: false } as const;
  const planned = await stages.run('plan', () => Promise.resolve(planRuns(suite, evalDir)), {
    ...recomputed,
    describe: (runs) => `${runs.length} runs`,
  });
  await stages.run(
    'starter-trials',
    () => measureStarterTrials(suite, evalDir, (body) => scope.run.emit(body)),
    recomputed,
  );
  const dispatched = await stages.run('runs', () => dispatchRuns(scope, options, planned), {
    ...recomputed,
    describe: (runs) => `${runs.started} started`,
  });
  if (suite.items.some(seedVaried)) {
    await stages.run(
      'seeds',
      () =>
        measureSeeds(suite, evalDir, planned, (body) => scope.run.emit(body), scope.host.signal),
      { ...recomputed, describe: (count) => `${count} seeded runs of starters and final scripts` },
    );
  }
  if (needsJudge(suite)) {
    await stages.run('judge', () => judgeStage(scope, options, planned, judge), {
      ...recomputed,
      describe: (judged) => `${judged} paper runs judged`,
    });
  }
  const summary = await stages.run('collect', () => collectEvaluation(suite, evalDir, planned), {
    ...recomputed,
    describe: (collected) => `${collected.totals.finished} of ${collected.totals.runs} finished`,
  });
  const reports = await stages.run('report', () => writeReports(summary), {
    ...recomputed,
    describe: (paths) => paths.markdown,
  });
  if (scope.run.resumed) {
    scope.run.emit({ type: 'log', level: 'info', message: reuseNote(scope, dispatched) });
  }
  scope.run.emit({
    type: 'eval-end',
    done: summary.totals.finished,
    missing: summary.missing.length,
    failed: summary.failed.length,
    report: reports.markdown,
  });
  const whole = summary.missing.length === 0 && summary.failed.length === 0;
  return {
    // Runs missing without a stop failed to start; failed ones ended in an error: the evaluation is not whole.
    status: whole ? 'completed' : 'failed',
    reason: `${summary.totals.finished} of ${summary.totals.runs} runs finished${summary.failed.length === 0 ? '' : `, ${summary.failed.length} failed`}`,
    result: { report: reports.markdown, runs: summary.totals },
    // Its own log holds the judge's calls; the runs' calls are in their folders: the run-end
    // counts both, the same totals as the report.
    alsoSpent: runsSpend(summary),
    value: { evalDir, summary, reports, started: dispatched.started },
  };
}

/** What the runs stage did: runs started (new, retried or continued) and runs kept as they were. */
interface RunsDispatched {
  started: number;
  /** Runs an earlier invocation finished (and failed ones, with --keep-failures): not run again. */
  kept: number;
  /** Interrupted runs continued in their folders. */
  continued: number;
}

/** What this invocation took from earlier ones, as it really happened. */
function reuseNote(scope: RunScope, runs: RunsDispatched): string {
  const judgeCalls = scope.run.earlier.filter((event) => event.type === 'llm-end').length;
  return [
    `continuing the evaluation: ${runs.kept} runs kept as earlier invocations left them`,
    `${runs.continued} interrupted runs continued`,
    `${scope.reusedCalls()} of the ${judgeCalls} judge calls in the log answered from it (not paid again)`,
  ].join(', ');
}

/** What the evaluation's runs spent, from the collected records (each call once). */
function runsSpend(summary: EvalSummary): RunTotals {
  const total = (pick: (run: RunRecord) => number) =>
    summary.runs.reduce((sum, run) => sum + pick(run), 0);
  return {
    steps: total((run) => run.steps),
    llmCalls: total((run) => run.llmCalls),
    inputTokens: total((run) => run.inputTokens),
    outputTokens: total((run) => run.outputTokens),
    cachedInputTokens: 0,
    costUsd: total((run) => run.costUsd),
    unpricedCalls: 0,
  };
}

/** The runs stage: every combination not finished yet, through the dispatcher; a stop ends it. */
async function dispatchRuns(
  scope: RunScope,
  options: EvaluationOptions,
  planned: PlannedRun[],
): Promise<RunsDispatched> {
  const parallel = Math.max(1, options.parallel ?? 1);
  const states = new Map(planned.map((run) => [run.key, stateOf(run)]));
  const kept = (run: PlannedRun) => {
    const kind = states.get(run.key)?.kind;
    return kind === 'finished' || (kind === 'failed' && options.keepFailures === true);
  };
  const unfinished = planned.filter((run) => !kept(run));
  const failed = planned.filter((run) => states.get(run.key)?.kind === 'failed');
  const dispatch: Dispatch = options.dispatch ?? runLocally;
  const progress = new EvalProgress(planned.length, parallel, Date.now());
  progress.done = planned.length - unfinished.length;
  scope.run.emit({
    type: 'eval-start',
    suite: options.suite.file,
    runs: planned.length,
    finished: planned.filter((run) => states.get(run.key)?.kind === 'finished').length,
    ...(failed.length === 0
      ? {}
      : { failed: failed.length, retried: options.keepFailures !== true }),
    parallel,
    dispatch: dispatch.kind ?? 'local',
  });
  scope.run.emit(progress.event());
  const started = await dispatch({
    suite: options.suite,
    evalDir: options.evalDir,
    parallel,
    baseConfig: options.baseConfig,
    ...(options.answerers === undefined ? {} : { answerers: options.answerers }),
    unfinished,
    states,
    evaluation: scope.run,
    progress,
    host: childHost(scope.host),
  });
  // The runs in flight have ended `stopped`; the evaluation ends so too, what finished on disk.
  throwIfStopped(scope.host.signal);
  return {
    started,
    kept: planned.length - unfinished.length,
    continued: unfinished.filter((run) => states.get(run.key)?.kind === 'interrupted').length,
  };
}

function judgeStage(
  scope: RunScope,
  options: EvaluationOptions,
  planned: PlannedRun[],
  judge: JudgeCaller,
): Promise<number> {
  return judgeRuns({
    suite: options.suite,
    planned,
    baseConfig: options.baseConfig,
    ...(options.answerers === undefined ? {} : { answerers: options.answerers }),
    evaluation: scope.run,
    models: scope.models,
    judge,
    ...(scope.host.signal === undefined ? {} : { signal: scope.host.signal }),
  });
}
