import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CodifyError } from '../errors/codify-error.js';
import { exitCodes } from '../errors/exit-codes.js';
import { activeTimeMs } from '../runs/active-time.js';
import type { RunTotals } from '../runs/events.js';
import type { RunClosing, RunScope } from '../runs/lifecycle.js';
import { createSandbox } from '../sandbox/index.js';
import type { Sandbox } from '../sandbox/types.js';
import {
  measureStarter,
  needsStarterMeasurement,
  type StarterMeasurement,
} from '../tasks/measure-starter.js';
import { repeatedPerformanceText } from '../tasks/starter-performance.js';
import { starterFailure } from '../tasks/starter-failure.js';
import { taskFileNames } from '../tasks/task-file-names.js';
import { agentDelivery, problemStatement, starterListing } from '../tasks/problem-statement.js';
import { allActions } from './actions/index.js';
import type { AgentCheckpoint } from './checkpoint.js';
import { type ImplementResult, writeFinalResult } from './final-result.js';
import type { ImplementHooks, ImplementSession } from './implement.js';
import { saveSettings } from './implement-settings.js';
import { runStrategy } from './strategies/run-strategy.js';
import type { StrategyContext, StrategyOutcome } from './strategies/strategy.js';

/** The starter fails or does not print its metric: stopped before the first model call. */
export class StarterError extends CodifyError {
  constructor(message: string, kind: 'starter-failed' | 'metric-not-found') {
    super(message, kind === 'starter-failed' ? exitCodes.starterFailed : exitCodes.metricNotFound);
  }
}

/**
 * Implement's stages, for a new run and a resumed one alike: measure the starter, run the
 * strategy (a resumed agent continues after its checkpoint), and end with result.json.
 */
export async function implementStages(
  scope: RunScope,
  session: ImplementSession,
  hooks: ImplementHooks,
  checkpoint?: AgentCheckpoint,
): Promise<RunClosing<ImplementResult>> {
  const { stages } = scope;
  const sandbox = await createSandbox(session.settings.sandbox);
  const { settings, task } = session;
  if (settings.measuredStarterPerformance !== undefined) {
    task.files.starterPerformance = settings.measuredStarterPerformance;
  }
  if (needsMeasurement(session)) {
    await stages.run(
      'measure-starter',
      () => measureStarterRuns(session, sandbox, scope.host.signal),
      {
        detail:
          (settings.repeats ?? 1) > 1
            ? `${task.entrypoint}, ${settings.repeats ?? 1} runs`
            : task.entrypoint,
        describe: (text) => text.trim(),
        // Its figures are kept in the settings (implement.json), which a resume reads.
        store: false,
      },
    );
  }
  const outcome = await stages.run(
    'agent',
    () =>
      runStrategy(settings.strategy, strategyContext(scope, session, sandbox, hooks, checkpoint)),
    {
      detail: settings.strategy,
      describe: (done) => `${done.status}: ${done.reason}`,
      store: false,
    },
  );
  const result = await stages.run('final', () => finalResult(scope, session, sandbox, outcome), {
    describe: (done) => (done.ran ? 'the final script ran' : 'the final script did not run'),
    store: false,
    afterStop: true,
  });
  return { status: outcome.status, reason: outcome.reason, result, value: result };
}

/**
 * Measured when the task states no figure, and with --repeats also when it does, so the
 * final script and the starter are compared like with like, with their spread; a resumed
 * run that measured already does not measure again.
 */
function needsMeasurement({ task, settings }: ImplementSession): boolean {
  return (
    settings.measureStarter &&
    task.metric !== undefined &&
    settings.starterValues === undefined &&
    (needsStarterMeasurement(task) || (settings.repeats ?? 1) > 1)
  );
}

/**
 * Runs the starter `repeats` times, untraced, before the agent starts. Its figure (the mean
 * when repeated) becomes starter_code_performance.txt when the task has none; the values
 * are kept in the settings so a resumed run does not measure again. A starter that fails
 * or prints no metric stops the run before the first model call (the message `codify
 * check` gives), unless the settings allow a broken starter.
 */
async function measureStarterRuns(
  session: ImplementSession,
  sandbox: Sandbox,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { run, task, settings } = session;
  const repeats = settings.repeats ?? 1;
  const measurements: StarterMeasurement[] = [];
  for (let index = 1; index <= repeats; index += 1) {
    const measurement = await measureStarter({
      task,
      sandbox,
      interpreter: settings.interpreter,
      runDir: run.dir,
      limits: settings.limits,
      gpu: settings.gpu,
      ...(repeats > 1 ? { outputName: `starter-output-${index}.txt` } : {}),
      ...(signal === undefined ? {} : { signal }),
    });
    const failure = starterFailure(measurement.execution, task.metric, measurement.metric);
    if (failure !== undefined || measurement.performanceText === undefined) {
      const message = failure?.message ?? 'the starter did not print its metric';
      if (settings.allowBrokenStarter === true)
        return `${message}; going on (--allow-broken-starter)`;
      throw new StarterError(
        `${message}. \`codify check ${task.dir}\` shows the starter's output; fix the task, or pass --allow-broken-starter to let the agent start from it anyway`,
        failure?.kind ?? 'metric-not-found',
      );
    }
    measurements.push(measurement);
  }
  const values = measurements.flatMap((measurement) =>
    measurement.metric?.value === undefined || measurement.metric.value === null
      ? []
      : [measurement.metric.value],
  );
  const first = measurements[0]?.performanceText ?? '';
  const text = repeats === 1 ? first : repeatedPerformanceText(task, values, measurements);
  if (repeats > 1) settings.starterValues = values;
  if (task.files.starterPerformance === undefined) {
    // The agent is told the first run's figure in the one form every run states it, so the
    // prompt does not depend on --repeats (a session recorded without it replays with it);
    // the repeated figures are in the run folder and in result.json.
    task.files.starterPerformance = first;
    settings.measuredStarterPerformance = first;
  }
  // The run's record of codify's own measurement, whether or not the task stated a figure.
  if (repeats > 1) await writeFile(join(run.dir, taskFileNames.starterPerformance), text);
  await saveSettings(run.dir, settings);
  return text;
}

const optionalFirstStep = (text: string | undefined) =>
  text === undefined ? {} : { firstStep: text };

function strategyContext(
  scope: RunScope,
  { run, task, workspace, settings }: ImplementSession,
  sandbox: Sandbox,
  hooks: ImplementHooks,
  checkpoint: AgentCheckpoint | undefined,
): StrategyContext {
  return {
    task,
    // The agent's planner sees the starter's listing at its first step only: its system
    // prompt, the same at every step, stays shorter (the listing's lines are sent once).
    ...(settings.strategy === 'agent'
      ? {
          problem: problemStatement(task, agentDelivery(settings.agent.maxSteps), 'first-step'),
          ...optionalFirstStep(starterListing(task)),
        }
      : { problem: problemStatement(task, { kind: 'agent' }) }),
    workspace,
    sandbox,
    models: scope.models,
    run,
    interpreter: settings.interpreter,
    limits: settings.limits,
    gpu: settings.gpu,
    actions: hooks.actions ?? allActions,
    options: settings.agent,
    ask: hooks.ask,
    feedback: scope.host.feedback,
    checkpoint,
    signal: scope.host.signal,
  };
}

/**
 * Time worked on the run so far, over every process (the wait for a resume excluded), and
 * by stage, from the stage-end events of earlier processes and this one's stages.
 */
function timeWorked(scope: RunScope): { wallTimeMs: number; stageTimesMs: Record<string, number> } {
  const stageTimesMs: Record<string, number> = {};
  const add = (stage: string, durationMs: number) => {
    stageTimesMs[stage] = (stageTimesMs[stage] ?? 0) + durationMs;
  };
  for (const event of scope.run.earlier) {
    if (event.type === 'stage-end' && event.durationMs !== undefined)
      add(event.stage, event.durationMs);
  }
  for (const record of scope.stages.records) add(record.stage, record.durationMs);
  return {
    wallTimeMs: activeTimeMs(scope.run.earlier) + (Date.now() - scope.run.openedAt),
    stageTimesMs,
  };
}

/**
 * The run's totals from its log, the one accounting. A caller given by a library user that
 * does not log its calls into the run (codify's own router always does) leaves the log
 * without them; then the agent's own count is all there is.
 */
function accountedTotals(scope: RunScope, outcome: StrategyOutcome): RunTotals {
  const totals = scope.run.totals();
  if (totals.llmCalls > 0 || outcome.usage.calls === 0) return totals;
  const { usage } = outcome;
  return {
    steps: usage.steps,
    llmCalls: usage.calls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    costUsd: usage.costUsd ?? 0,
    unpricedCalls: usage.costUsd === null ? usage.calls : 0,
  };
}

function finalResult(
  scope: RunScope,
  { run, task, workspace, settings }: ImplementSession,
  sandbox: Sandbox,
  outcome: StrategyOutcome,
): Promise<ImplementResult> {
  return writeFinalResult({
    totals: accountedTotals(scope, outcome),
    ...timeWorked(scope),
    strategy: settings.strategy,
    status: outcome.status,
    reason: outcome.reason,
    task,
    workspace,
    sandbox,
    run,
    interpreter: settings.interpreter,
    limits: settings.limits,
    gpu: settings.gpu,
    usage: outcome.usage,
    repeats: settings.repeats ?? 1,
    starterValues: settings.starterValues,
    script: outcome.finalScript,
    starterMeasured: settings.measuredStarterPerformance !== undefined,
    skipMeasurement: outcome.status === 'stopped' && scope.host.signal?.aborted === true,
  });
}
