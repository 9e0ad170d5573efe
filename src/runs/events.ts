import type { RoleName, StoredMessage, Usage } from '../llm/types.js';

export type RunMode = 'implement' | 'paper' | 'explore' | 'eval' | 'check';
export type RunStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'budget-exhausted';

/**
 * Everything a pipeline does, announced as one of these. The terminal renderer, the
 * events.jsonl log and the web app all consume the same stream. New pipelines add members
 * here; names follow `<noun>-<action>`.
 */
export type CodifyEventBody =
  | {
      type: 'run-start';
      runId: string;
      mode: RunMode;
      name: string;
      argv: string[];
      models: Partial<Record<RoleName, string[]>>;
      task?: string;
      /** The working directory the command ran in, so `codify replay` can run it again there. */
      cwd?: string;
      resumedFrom?: number;
      /** The writing process, so a run index can tell a live run from a killed one. */
      pid?: number;
      /** The process's start (src/runs/process-identity.ts), so a reused pid is not taken for it. */
      processStart?: string;
      host?: string;
    }
  | {
      type: 'run-end';
      status: RunStatus;
      reason?: string;
      result?: unknown;
      /** Totals over the whole log, so listing runs reads only the last line. */
      totals?: RunTotals;
    }
  | { type: 'llm-start'; callId: number; role: RoleName; model: string; label?: string }
  | {
      type: 'llm-retry';
      callId: number;
      role: RoleName;
      model: string;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  | {
      type: 'llm-end';
      callId: number;
      role: RoleName;
      model: string;
      label?: string;
      system?: string;
      /** Files appear by hash and size (StoredFile), never as bytes. */
      messages: StoredMessage[];
      text: string;
      usage: Usage;
      costUsd: number | null;
      latencyMs: number;
      attempts: number;
    }
  | {
      type: 'llm-error';
      callId: number;
      role: RoleName;
      model: string;
      message: string;
      attempts: number;
    }
  | { type: 'step-start'; step: number }
  | {
      type: 'step-end';
      step: number;
      action: string;
      /** Everything needed to resume after this step; written last, once the step is complete. */
      checkpoint?: unknown;
    }
  | {
      type: 'planner-answer';
      step: number;
      level: number;
      valid: boolean;
      error?: string;
      fields?: Record<string, string>;
    }
  | { type: 'action-start'; step: number; action: string; input: unknown }
  | {
      type: 'action-end';
      step: number;
      action: string;
      ok: boolean;
      observation: string;
      display: string;
      durationMs: number;
    }
  | {
      type: 'execution-end';
      script: string;
      args: string[];
      exitCode: number | null;
      signal: string | null;
      timedOut: boolean;
      durationMs: number;
      outputPath?: string;
      metric?: number | null;
      blocked?: string[];
    }
  | { type: 'guard-refusal'; step: number; guard: string; message: string }
  | {
      type: 'budget-update';
      steps: number;
      tokens: number;
      costUsd: number | null;
      elapsedMs: number;
    }
  | { type: 'budget-exhausted'; budget: string; message: string }
  | {
      type: 'feedback-given';
      step: number;
      decision: 'approve' | 'comment' | 'stop';
      comment?: string;
    }
  | {
      /** A pipeline asks a person (waiting) or records what it would have asked (not waiting). */
      type: 'feedback-request';
      id: string;
      kind: 'approve' | 'pick' | 'edit' | 'answer';
      title: string;
      step?: number;
      questions?: string[];
      waiting: boolean;
    }
  | { type: 'stage-start'; stage: string; detail?: string }
  | {
      type: 'stage-end';
      stage: string;
      ok: boolean;
      detail?: string;
      durationMs?: number;
      /** The model calls made while the stage ran. */
      usage?: StageUsage;
      /** The stage had finished before a resume: its stored result was returned, not redone. */
      reused?: boolean;
    }
  | { type: 'artifact-write'; path: string; kind: string; description?: string }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | {
      /** A paper read by the planner model from its PDF (`--paper-reader model`). */
      type: 'paper-read';
      path: string;
      model: string;
      /** Model calls it took: 1, or 2 when the first answer was re-asked. */
      attempts: number;
      sections: number;
      equations: number;
      characters: number;
    }
  | {
      /** Explore: the analysis's quotes checked against the papers; unverified ones named. */
      type: 'quote-check';
      checked: number;
      unverified: { where: string; paper: string; quote: string; reason: string }[];
    }
  | {
      /** Explore: one idea's reviews of one round, averaged over the reviewer samples. */
      type: 'idea-review';
      idea: number;
      round: number;
      reviewers: number;
      average: number;
      /** The meta-review's reconciled mean, when two or more reviews were reconciled. */
      meta?: number;
      /** Share of criteria whose reviewers' scores span at most one point, 0–1. */
      withinOne?: number;
      /** Reviews that gave no valid answer (kept out of the average). */
      failed?: number;
    }
  | {
      /** Explore: one idea compared with given work (offline) or a literature service. */
      type: 'novelty-check';
      idea: number;
      against: string;
      verdict: 'novel' | 'overlaps' | 'unknown';
      closest?: { title: string; source: string; similarity: number };
      reason: string;
    }
  | {
      type: 'eval-start';
      suite: string;
      /** Every run of the suite, and those already finished by earlier invocations. */
      runs: number;
      finished: number;
      /** Runs an error ended in an earlier invocation; `retried` unless failures are kept. */
      failed?: number;
      retried?: boolean;
      /** Runs at a time on this machine (with a queue, the workers decide: see eval-progress). */
      parallel: number;
      /** `queue`: the runs go to `codify worker` processes. */
      dispatch?: 'local' | 'queue';
    }
  | {
      type: 'eval-run-start';
      key: string;
      item: string;
      strategy: string;
      model: string;
      trial: number;
      /** An interrupted implement run continued with resume, rather than a new run. */
      resumed: boolean;
      runDir: string;
    }
  | {
      type: 'eval-run-end';
      key: string;
      status: RunStatus;
      runDir?: string;
      /** Why the run could not start or ended in an exception. */
      message?: string;
      durationMs: number;
    }
  | {
      type: 'eval-progress';
      done: number;
      running: number;
      left: number;
      elapsedMs: number;
      tokens: number;
      costUsd: number;
      /** With a queue: the workers alive now (the time left is estimated with them). */
      workers?: number;
      /** What the runs left should take at this pace; null before any run has finished (or with no worker alive). */
      remainingMs: number | null;
    }
  | {
      /**
       * With a queue: a worker gone (its connection to Redis closed: killed, crashed or
       * stopped) while it held runs; they go back to the queue for another worker.
       */
      type: 'eval-worker-lost';
      worker: string;
      /** The keys of the runs it held. */
      runs: string[];
    }
  | {
      /** With a queue: a run a lost worker held, taken again by another worker. */
      type: 'eval-run-retaken';
      key: string;
      worker: string;
      /** The worker that had held it. */
      lostWorker: string;
      /** Time from noticing the loss to the run being taken again. */
      afterMs: number;
    }
  | {
      type: 'starter-measure';
      item: string;
      trial: number;
      metric: number | null;
      exitCode: number | null;
    }
  | {
      /** An evaluation ran a task's starter (`key` null) or a run's final script on one seed. */
      type: 'seed-measure';
      item: string;
      key: string | null;
      seed: number;
      metric: number | null;
      exitCode: number | null;
    }
  | {
      type: 'judge-grade';
      item: string;
      runDir: string;
      /** The rubric leaf id, or `score` for a 1–5 judge sample. */
      node: string;
      score: number;
      reason: string;
    }
  | {
      type: 'eval-end';
      done: number;
      missing: number;
      /** Runs an error ended (scored as failures). */
      failed?: number;
      report?: string;
    };

/** What a run has spent so far, summed from its events. */
export interface RunTotals {
  /** step-end events. */
  steps: number;
  /** llm-end events. */
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the providers served from their prompt caches (part of inputTokens). */
  cachedInputTokens: number;
  /** Sum of the known costs, in dollars. */
  costUsd: number;
  /** llm-end events whose cost was null (price unknown); costUsd is then a lower bound. */
  unpricedCalls: number;
}

/** What the model calls of one stage spent (stage-end). */
export interface StageUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  costUsd: number;
}

/** An event as stored: the body plus its sequence number and time. */
export type CodifyEvent = CodifyEventBody & { seq: number; time: string };

export type EventType = CodifyEventBody['type'];
export type EventOf<T extends EventType> = Extract<CodifyEvent, { type: T }>;

/** Anything that consumes the event stream: the log writer, the terminal, the web app. */
export type EventSink = (event: CodifyEvent) => void;
