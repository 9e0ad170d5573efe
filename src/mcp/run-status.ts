import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CodifyEvent } from '../runs/events.js';
import { summarizeRun, type RunSummary } from '../runs/list-runs.js';
import { unansweredRequests } from '../runs/feedback-answers.js';
import { readEvents } from '../runs/read-events.js';
import { outputFilePattern } from '../launch/start-run-process.js';

/** What a run is doing now, from its latest events. */
interface Current {
  stage: string | null;
  step: number | null;
  action: string | null;
}

/** The fields of result.json (implement) or the run-end result (paper, explore) a caller acts on. */
const resultKeys = [
  'outcome',
  'reason',
  'ran',
  'metric',
  'finalScript',
  'linesEdited',
  'execution',
  'repository',
  'report',
  'verified',
  'ideas',
  'count',
  'experiments',
];

function current(events: readonly CodifyEvent[]): Current {
  const open = new Set<string>();
  let step: number | null = null;
  let action: string | null = null;
  let stage: string | null = null;
  for (const event of events) {
    if (event.type === 'stage-start') {
      open.add(event.stage);
      stage = event.stage;
    } else if (event.type === 'stage-end') {
      open.delete(event.stage);
      stage = [...open].at(-1) ?? null;
    } else if (event.type === 'step-start') {
      step = event.step;
      action = null;
    } else if (event.type === 'action-start') action = event.action;
    else if (event.type === 'action-end') action = null;
  }
  return { stage, step, action };
}

function pickResult(result: unknown): Record<string, unknown> | null {
  if (typeof result !== 'object' || result === null) return null;
  const entries = Object.entries(result).filter(([key]) => resultKeys.includes(key));
  return Object.fromEntries(entries);
}

export interface RunStatus extends Omit<RunSummary, 'totals'> {
  steps: number;
  llmCalls: number;
  tokens: { input: number; output: number };
  /** Dollars; a lower bound when unpricedCalls > 0. */
  costUsd: number;
  unpricedCalls: number;
  current: Current;
  finished: boolean;
  reason: string | null;
  result: Record<string, unknown> | null;
  /** The run's terminal output, one file per process, when started or resumed through MCP. */
  outputs: string[];
  /** Requests of a live interactive run waiting for an answer (answer_feedback). */
  waiting: string[];
}

/** Status, spending and (once ended) the outcome and metric of one run. */
export function runStatus(runDir: string): RunStatus {
  const { totals, ...summary } = summarizeRun(runDir);
  const { events } = readEvents(runDir);
  // The latest start or end: a resumed run's earlier run-end no longer says it finished.
  const last = events.findLast((event) => event.type === 'run-start' || event.type === 'run-end');
  const end = last?.type === 'run-end' ? last : undefined;
  return {
    ...summary,
    // The summary and the events are two reads of a log that may grow in between: a run-end
    // read the second time decides, so `finished` and `status` never disagree.
    status: end?.status ?? summary.status,
    steps: totals.steps,
    llmCalls: totals.llmCalls,
    tokens: { input: totals.inputTokens, output: totals.outputTokens },
    costUsd: totals.costUsd,
    unpricedCalls: totals.unpricedCalls,
    current: current(events),
    finished: end !== undefined,
    reason: end?.type === 'run-end' ? (end.reason ?? null) : null,
    result: end?.type === 'run-end' ? pickResult(end.result) : null,
    outputs: readdirSync(runDir)
      .filter((name) => outputFilePattern.test(name))
      .map((name) => join(runDir, name)),
    waiting: summary.status === 'running' ? unansweredRequests(runDir) : [],
  };
}
