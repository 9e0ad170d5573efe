import type { CodifyEvent } from '../../runs/events.js';
import {
  firstLine,
  formatCost,
  formatDollars,
  formatDuration,
  formatOffset,
  formatTokens,
} from './format-values.js';

/**
 * One timeline line for a meaningful event, without the time offset; undefined for events
 * that only feed the status line (llm-start, action-start, budget-update, valid answers).
 */
export function describeEvent(event: CodifyEvent): string | undefined {
  switch (event.type) {
    case 'run-start':
      return event.resumedFrom === undefined
        ? `run ${event.mode} "${event.name}"${event.task === undefined ? '' : ` task ${event.task}`}`
        : `run resumed after event ${event.resumedFrom}`;
    case 'run-end': {
      const totals =
        event.totals === undefined
          ? ''
          : ` · ${event.totals.steps} ${event.totals.steps === 1 ? 'step' : 'steps'}, ${formatTokens(event.totals.inputTokens + event.totals.outputTokens)} tokens, ${formatCost(event.totals)}`;
      return `run ${event.status}${event.reason === undefined ? '' : `: ${firstLine(event.reason)}`}${totals}`;
    }
    case 'step-start':
      return `step ${event.step}`;
    case 'llm-end':
      return (
        `  llm ${event.role}${event.label === undefined ? '' : ` (${event.label})`} ${event.model} ` +
        `${formatTokens(event.usage.inputTokens)}→${formatTokens(event.usage.outputTokens)} tok ` +
        `${event.costUsd === null ? 'cost unknown' : formatDollars(event.costUsd)} ${formatDuration(event.latencyMs)}` +
        (event.attempts > 1 ? ` (${event.attempts} attempts)` : '')
      );
    case 'llm-retry':
      return `  llm ${event.role} ${event.model} retry ${event.attempt} in ${formatDuration(event.delayMs)}: ${firstLine(event.reason)}`;
    case 'llm-error':
      return `  llm ${event.role} ${event.model} FAILED after ${event.attempts} attempts: ${firstLine(event.message)}`;
    case 'planner-answer':
      return event.valid
        ? undefined
        : `  planner answer invalid (level ${event.level}): ${firstLine(event.error ?? 'no reason given')}`;
    case 'action-end':
      return `  ${event.ok ? 'action' : 'action FAILED'} ${event.action} ${formatDuration(event.durationMs)}: ${firstLine(event.display)}`;
    case 'execution-end':
      return `  exec ${[event.script, ...event.args].join(' ')} → ${executionOutcome(event)} in ${formatDuration(event.durationMs)}${event.metric === undefined || event.metric === null ? '' : ` metric ${event.metric}`}`;
    case 'guard-refusal':
      return `  guard ${event.guard} refused: ${firstLine(event.message)}`;
    case 'budget-exhausted':
      return `budget ${event.budget} exhausted: ${firstLine(event.message)}`;
    case 'feedback-given':
      return `  feedback ${event.decision}${event.comment === undefined ? '' : `: ${firstLine(event.comment)}`}`;
    case 'stage-start':
      return `stage ${event.stage}${event.detail === undefined ? '' : `: ${firstLine(event.detail)}`}`;
    case 'stage-end':
      return `stage ${event.stage} ${event.ok ? 'done' : 'FAILED'}${event.detail === undefined ? '' : `: ${firstLine(event.detail)}`}`;
    case 'artifact-write':
      return `  wrote ${event.path} (${event.kind})`;
    case 'log':
      return `${event.level === 'info' ? '' : `${event.level}: `}${firstLine(event.message)}`;
    case 'feedback-request':
      return `  ${event.waiting ? 'waiting for an answer' : 'asked'} (${event.kind}): ${firstLine(event.title)}${event.questions === undefined || event.questions.length === 0 ? '' : ` · ${event.questions.length} ${event.questions.length === 1 ? 'question' : 'questions'}`}`;
    case 'paper-read':
      return `  read ${event.path} with ${event.model}: ${event.sections} sections, ${event.equations} display equations, ${event.characters} characters${event.attempts > 1 ? ` (asked ${event.attempts} times)` : ''}`;
    case 'quote-check': {
      const found = event.checked - event.unverified.length;
      const missing = event.unverified.map((quote) => quote.where).join(', ');
      return `  quotes ${found}/${event.checked} found in the papers${missing === '' ? '' : `; not found: ${missing}`}`;
    }
    case 'idea-review':
      return `  review I${event.idea} round ${event.round}: ${event.average.toFixed(2)} (${event.reviewers} ${event.reviewers === 1 ? 'reviewer' : 'reviewers'}${event.withinOne === undefined ? '' : `, ${Math.round(event.withinOne * 100)}% of criteria within one point`}${event.failed === undefined ? '' : `, ${event.failed} failed`})${event.meta === undefined ? '' : `; meta-review ${event.meta.toFixed(2)}`}`;
    case 'novelty-check': {
      const closest =
        event.closest === undefined
          ? ''
          : `; closest "${firstLine(event.closest.title)}" (${event.closest.similarity.toFixed(2)})`;
      const reason = event.verdict === 'unknown' ? `: ${firstLine(event.reason)}` : '';
      return `  novelty I${event.idea} against ${event.against}: ${event.verdict}${reason}${closest}`;
    }
    default:
      return undefined;
  }
}

function executionOutcome(event: Extract<CodifyEvent, { type: 'execution-end' }>): string {
  if (event.blocked !== undefined && event.blocked.length > 0) {
    return `blocked (${event.blocked.join(', ')})`;
  }
  if (event.timedOut) return 'timed out';
  if (event.signal !== null) return `killed by ${event.signal}`;
  return `exit ${event.exitCode ?? '?'}`;
}

/** `+00:12.3  step 3`: the timeline line with its offset from the run's start. */
export function formatTimelineLine(event: CodifyEvent, startMs: number): string | undefined {
  const text = describeEvent(event);
  if (text === undefined) return undefined;
  return `${formatOffset(Date.parse(event.time) - startMs).padEnd(9)} ${text}`;
}

/** A whole run's timeline, one line per meaningful event. */
export function formatTimeline(events: readonly CodifyEvent[]): string[] {
  const first = events[0];
  if (first === undefined) return [];
  const startMs = Date.parse(first.time);
  const lines: string[] = [];
  for (const event of events) {
    const line = formatTimelineLine(event, startMs);
    if (line !== undefined) lines.push(line);
  }
  return lines;
}
