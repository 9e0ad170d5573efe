export type { RunContext } from './context.js';
export type * from './events.js';
export { createRun, openRun, type CreateRunOptions, type OpenRunOptions, type Run } from './run.js';
export { readEvents, type EventLogContents } from './read-events.js';
export { followEvents, type FollowOptions } from './follow-events.js';
export {
  listRuns,
  summarizeRun,
  type ListRunsOptions,
  type RunListStatus,
  type RunSummary,
} from './list-runs.js';
export { findRun, RunNotFoundError } from './find-run.js';
export { resolveRunsRoot } from './runs-root.js';
export { eventLogName, eventLogPath } from './event-log-file.js';
export type { EventLogProblem } from './parse-event-lines.js';
export { emptyTotals, addToTotals, totalsOf } from './run-totals.js';
