import type { CodifyEvent, RunMode } from '../../../src/runs/events.js';

/** What every mode's view of a run is given; a new mode adds a view in view-registry.ts. */
export interface RunViewProps {
  runId: string;
  mode: RunMode | 'unknown';
  events: readonly CodifyEvent[];
  /** The tab in the address, if any. */
  tab?: string;
  /**
   * Changes whenever the run may have written files (a step, an artifact, an execution, the
   * end), so views that show files fetch them again.
   */
  filesRevision: number;
  /** The run's status as the page knows it (`running`, `killed`, an end's status, …). */
  status?: string;
}
