// The shapes the HTTP API answers with; the web app is typed against these and the core's
// own types (events, results, plans), so there is one model of a run.
import type { StoredMessage } from '../llm/types.js';
import type { CodifyEvent } from '../runs/events.js';
import type { EventLogProblem } from '../runs/parse-event-lines.js';
import type { RunSummary } from '../runs/list-runs.js';

/** GET /api/runs: newest first. `dir` is left out: the browser names runs by id only. */
export type RunListEntry = Omit<RunSummary, 'dir'> & {
  /** The metric against the starter's, or whether a generated repository runs; once known. */
  outcome?: string;
  /** A live run's requests waiting for a person (ids, e.g. `step-3`); absent when none. */
  waiting?: string[];
};

/**
 * GET /api/runs/:id[?after=CURSOR]: the summary and one page of the log (about 1 MB of it).
 * `next`, when present, is the cursor of the following page; absent once the page reaches the
 * end of what is written (the event stream, /events, follows from there).
 */
export interface RunDetail {
  summary: RunListEntry;
  events: CodifyEvent[];
  problems: EventLogProblem[];
  next?: string;
}

/**
 * GET /api/runs/:id/prompt?seq=N: what a model call was sent (the llm-end event `seq`); the
 * event stream with `?lean=1` leaves it out of each llm-end and marks it `promptOmitted`.
 */
export interface ModelPrompt {
  system?: string;
  messages: StoredMessage[];
}

/** One file of a run folder, by its path relative to the folder (always with `/`). */
export interface RunFileEntry {
  path: string;
  bytes: number;
}

/** GET /api/runs/:id/files */
export interface RunFileList {
  files: RunFileEntry[];
  /** True when the listing stopped at its limit. */
  truncated: boolean;
}

/** One saved version of a workspace file and the diff from the version before it. */
export interface FileEdit {
  path: string;
  version: number;
  reason: string;
  time: string;
  /** Later undone by Undo Edit Script (the content is kept). */
  undone: boolean;
  /**
   * Unified diff from the previous version, or from the file it was made from (`from`);
   * empty for version 0; `---`/`+++` headers included.
   */
  diff: string;
  /** The file this version was made from, when not the path's previous version. */
  from?: string;
  added: number;
  removed: number;
}

/** GET /api/runs/:id/edits */
export interface RunEdits {
  edits: FileEdit[];
  /** Versions that could not be shown (a symbolic link, an unreadable file), each with why. */
  skipped: SkippedVersion[];
}

/** A saved version left out of the Edits tab, and why. */
export interface SkippedVersion {
  path: string;
  version: number;
  reason: string;
}

/** A line of an execution trace (`python -m trace` .cover file). */
export interface TraceLine {
  line: number;
  text: string;
  /** Times the line ran; null for a line that is not executable. 0: executable, never ran. */
  count: number | null;
}

/** GET /api/runs/:id/traces: the last trace of each script the run executed. */
export interface ScriptTrace {
  /** The .cover file, relative to the run folder. */
  path: string;
  script: string;
  lines: TraceLine[];
}

export interface RunTraces {
  traces: ScriptTrace[];
}

/** Every error answer: `{ error }` with a status code. */
export interface ApiError {
  error: string;
}

/** GET /api/runs/:id/feedback: each request the run asked, oldest first, with its answer once given. */
export type { FeedbackEntry } from '../runs/feedback-answers.js';
