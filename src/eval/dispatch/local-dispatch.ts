import { errorMessage } from '../../errors/codify-error.js';
import type { EventSink, RunStatus } from '../../runs/events.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { DispatchContext } from './dispatch.js';
import { executeRun } from './execute-run.js';

/** How often, at most, model calls move the progress line (tokens and cost). */
const progressEveryMs = 2000;

/**
 * Runs the combinations in this process, `parallel` at a time. The host's stop signal
 * reaches the runs in flight (each ends `stopped`, continued by the next invocation) and
 * starts no more.
 */
export async function runLocally(context: DispatchContext): Promise<number> {
  const queue = [...context.unfinished];
  let started = 0;
  const progressLine = progressSink(context);
  const lane = async (): Promise<void> => {
    for (;;) {
      if (context.host.signal?.aborted === true) return;
      const next = queue.shift();
      if (next === undefined) return;
      started += 1;
      await runOne(context, next, progressLine);
    }
  };
  await Promise.all(Array.from({ length: Math.min(context.parallel, queue.length) }, lane));
  return started;
}

/** One combination, announced in the evaluation's log by eval-run-start and eval-run-end. */
async function runOne(
  context: DispatchContext,
  run: PlannedRun,
  progressLine: EventSink,
): Promise<void> {
  const { evaluation, progress } = context;
  const began = Date.now();
  let runDir: string | undefined;
  let status: Exclude<RunStatus, 'running'> = 'failed';
  let message: string | undefined;
  progress.running += 1;
  try {
    await executeRun({
      suite: context.suite,
      planned: run,
      state: context.states.get(run.key) ?? { kind: 'new' },
      baseConfig: context.baseConfig,
      ...(context.answerers === undefined ? {} : { answerers: context.answerers }),
      host: {
        ...context.host,
        sinks: [
          progressLine,
          (event) => {
            if (event.type === 'run-end' && event.status !== 'running') status = event.status;
          },
        ],
        // An exploration's experiments are runs of their own: their calls count too.
        childSinks: [progressLine],
      },
      onRun: (opened, resumed) => {
        runDir = opened.dir;
        evaluation.emit({
          type: 'eval-run-start',
          key: run.key,
          item: run.item.name,
          strategy: run.strategy,
          model: run.model.name,
          trial: run.trial,
          resumed,
          runDir: opened.dir,
        });
        evaluation.emit(progress.event());
      },
    });
  } catch (error) {
    message = errorMessage(error);
  }
  progress.running -= 1;
  progress.done += 1;
  progress.runFinished(Date.now() - began);
  evaluation.emit({
    type: 'eval-run-end',
    key: run.key,
    status,
    ...(runDir === undefined ? {} : { runDir }),
    ...(message === undefined ? {} : { message }),
    durationMs: Date.now() - began,
  });
  evaluation.emit(progress.event());
}

/** Adds a run's model calls to the evaluation's tokens and cost, shown at most every 2 s. */
function progressSink(context: DispatchContext): EventSink {
  const { evaluation, progress } = context;
  let lastReport = Date.now();
  return (event) => {
    if (event.type !== 'llm-end') return;
    progress.tokens += event.usage.inputTokens + event.usage.outputTokens;
    progress.costUsd += event.costUsd ?? 0;
    if (Date.now() - lastReport >= progressEveryMs) {
      lastReport = Date.now();
      evaluation.emit(progress.event());
    }
  };
}
