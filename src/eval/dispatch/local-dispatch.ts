import { executeRun } from './execute-run.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { DispatchContext } from '../run-evaluation.js';

/** Runs the combinations in this process, `parallel` at a time, stopping on the abort signal. */
export async function runLocally(context: DispatchContext): Promise<number> {
  const { options, log, progress, states, argv } = context;
  const queue = [...context.unfinished];
  let started = 0;
  let lastReport = Date.now();
  const runOne = async (run: PlannedRun): Promise<void> => {
    const state = states.get(run.key) ?? { kind: 'new' as const };
    const began = Date.now();
    let runDir: string | undefined;
    progress.running += 1;
    started += 1;
    let status: 'completed' | 'failed' | 'stopped' | 'budget-exhausted' = 'failed';
    let message: string | undefined;
    try {
      await executeRun({
        suite: options.suite,
        planned: run,
        state,
        baseConfig: options.baseConfig,
        ...(options.answerers === undefined ? {} : { answerers: options.answerers }),
        argv,
        sinks: [
          (event) => {
            if (event.type === 'llm-end') {
              progress.tokens += event.usage.inputTokens + event.usage.outputTokens;
              progress.costUsd += event.costUsd ?? 0;
              // Tokens and cost move with every call; a progress event at most every 2 s shows it.
              if (Date.now() - lastReport >= 2000) {
                lastReport = Date.now();
                log.emit(progress.event());
              }
            } else if (event.type === 'run-end') {
              status = event.status === 'running' ? 'failed' : event.status;
            }
          },
        ],
        onRun: (opened, resumed) => {
          runDir = opened.dir;
          log.emit({
            type: 'eval-run-start',
            key: run.key,
            item: run.item.name,
            strategy: run.strategy,
            model: run.model.name,
            trial: run.trial,
            resumed,
            runDir: opened.dir,
          });
          log.emit(progress.event());
        },
      });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    progress.running -= 1;
    progress.done += 1;
    progress.runFinished(Date.now() - began);
    log.emit({
      type: 'eval-run-end',
      key: run.key,
      status,
      ...(runDir === undefined ? {} : { runDir }),
      ...(message === undefined ? {} : { message }),
      durationMs: Date.now() - began,
    });
    log.emit(progress.event());
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (options.signal?.aborted === true) return;
      const next = queue.shift();
      if (next === undefined) return;
      await runOne(next);
    }
  };
  const parallel = Math.max(1, options.parallel ?? 1);
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, () => worker()));
  return started;
}
