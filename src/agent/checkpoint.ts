import type { StepToSummarize } from './research-log.js';
import type { BudgetUsage } from './budgets.js';
import type { GuardState } from './guards/action-guards.js';

/** One completed step as the planner sees it again (short-term memory). */
export interface StepRecord {
  step: number;
  /** The planner's valid answer, or a note that no valid answer came. */
  answer: string;
  action: string;
  input: unknown;
  /** The observation as given to the planner (summarized when it was too long). */
  observation: string;
}

/** The last execution of the output script seen in the run, to know if it must run again. */
export interface ExecutionSeen {
  script: string;
  /** sha256 of the script's content when it ran. */
  contentHash: string;
  exitCode: number | null;
  timedOut: boolean;
  outputPath?: string;
  metric?: number | null;
  /** How long the run took, shown to the planner among its budgets. */
  durationMs?: number;
}

/** Everything needed to continue a run after its last completed step. */
export interface AgentCheckpoint {
  version: 1;
  /** Steps completed. */
  step: number;
  recentSteps: StepRecord[];
  researchLog: string[];
  /**
   * Steps whose research-log entry is still the plain one built from the step itself: they
   * are summarized when they leave the steps shown in full (a step the planner still sees
   * in full needs no summary yet, and a run that ends first never pays for one). Absent in
   * checkpoints written before summaries were deferred.
   */
  unsummarized?: StepToSummarize[];
  guard: GuardState;
  usage: BudgetUsage;
  expertHelpRemaining: number;
  /** A human comment given after this step, for the next planner prompt. */
  pendingComment: string | null;
  /** Steps in a row that ended without a valid answer. */
  failedSteps: number;
  /** The budget that forces the next step to be the final answer, once reached. */
  forcedFinal: string | null;
  /** Live version counts of the workspace's editable files, to undo an incomplete step. */
  files: Record<string, number>;
  lastExecution: ExecutionSeen | null;
  /** The script Final Answer named, when it named one. */
  finalScript: string | null;
  /** Set when the run has ended (final answer, stop, failure). */
  finished: {
    status: 'completed' | 'stopped' | 'failed' | 'budget-exhausted';
    reason: string;
  } | null;
}
