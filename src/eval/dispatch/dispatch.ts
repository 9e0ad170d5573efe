import type { CodifyConfig } from '../../config/codify-config.js';
import type { Run } from '../../runs/run.js';
import type { RunHost } from '../../runs/run-host.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { Suite } from '../suite/suite.js';
import type { AnswererFactory } from './execute-run.js';
import type { EvalProgress } from './progress.js';
import type { RunState } from './run-state.js';

/** What a dispatcher gets: the runs to do, where they go, and the log and counters to report them in. */
export interface DispatchContext {
  suite: Suite;
  /** The evaluation folder (absolute). */
  evalDir: string;
  /** Runs at a time on this machine. */
  parallel: number;
  baseConfig: CodifyConfig;
  answerers?: AnswererFactory;
  unfinished: PlannedRun[];
  states: Map<string, RunState>;
  /** The evaluation's own run: eval-run-start, eval-run-end and eval-progress go in its log. */
  evaluation: Run;
  progress: EvalProgress;
  /** What the runs it starts are given: the command line and the stop signal (they end `stopped` on it). */
  host: RunHost;
}

/**
 * Runs (or has runs run) the given combinations; resolves with how many were started.
 * `kind` says who runs them: this process (`local`, the default) or a queue's workers.
 */
export type Dispatch = ((context: DispatchContext) => Promise<number>) & {
  kind?: 'local' | 'queue';
};
