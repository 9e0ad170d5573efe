import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callsBeforeLastCheckpoint } from '../llm/calls-from-events.js';
import type { ModelCaller } from '../llm/types.js';
import type { EventSink } from '../runs/events.js';
import { findRun } from '../runs/find-run.js';
import { readEvents } from '../runs/read-events.js';
import { openRun, type Run } from '../runs/run.js';
import { resolveRunsRoot } from '../runs/runs-root.js';
import { loadTask } from '../tasks/load-task.js';
import { openWorkspace } from '../workspace/create-workspace.js';
import type { ActionDefinition } from './actions/types.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentCheckpoint } from './checkpoint.js';
import { type ImplementResult, resultFile } from './final-result.js';
import { continueSession } from './implement.js';
import { readSettings, saveSettings } from './implement-settings.js';
import type { FeedbackChannel } from '../runs/feedback.js';
import type { AskFeedback } from './strategies/strategy.js';
import { restoreFiles } from './workspace-snapshot.js';

/** Where a resumed run picks up. */
export interface ResumePoint {
  /** Steps completed before this process. */
  step: number;
  /** Model calls completed before the checkpoint resumed from: a replay continues after them. */
  completedCalls: number;
}

export interface ResumeOptions {
  /**
   * The models, or a factory given the re-opened run (so a router can record its calls there)
   * and the point it resumes from (so a replay starts at the right call).
   */
  models: ModelCaller | ((run: Run, resumed: ResumePoint) => ModelCaller);
  runsRoot?: string;
  ask?: AskFeedback;
  feedback?: FeedbackChannel;
  sinks?: EventSink[];
  argv?: string[];
  actions?: readonly ActionDefinition[];
  /** Changes to the run's agent options, e.g. a larger step budget. */
  agent?: Partial<AgentOptions>;
  signal?: AbortSignal;
  onRun?: (run: Run) => void;
}

/** The checkpoint of the last completed step in a run's events, if any. */
export function lastCheckpoint(runDir: string): AgentCheckpoint | undefined {
  const { events } = readEvents(runDir);
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (
      event?.type === 'step-end' &&
      typeof event.checkpoint === 'object' &&
      event.checkpoint !== null
    ) {
      return event.checkpoint as AgentCheckpoint;
    }
  }
  return undefined;
}

/** Whether the resume sets any budget (steps, minutes, tokens, cost) anew. */
function raisesBudget(agent: ResumeOptions['agent']): boolean {
  if (agent === undefined) return false;
  return [agent.maxSteps, agent.maxMinutes, agent.maxTokens, agent.maxCostUsd].some(
    (value) => value !== undefined,
  );
}

/**
 * `codify resume RUN`: re-opens an implement run killed at any point and continues after
 * its last completed step. Completed steps' model calls are not repeated; the edits of a
 * step that did not complete are undone and the step is redone. A run that completed or
 * failed returns its result.json; so does one that spent its budget, unless a budget is
 * raised.
 */
export async function resumeAgent(
  reference: string,
  options: ResumeOptions,
): Promise<ImplementResult> {
  const runDir = findRun(reference, resolveRunsRoot(options.runsRoot));
  const end = readEvents(runDir).events.findLast((event) => event.type === 'run-end');
  const resultPath = join(runDir, resultFile);
  const raised = raisesBudget(options.agent);
  // A stopped run (Ctrl-C, SIGTERM, or "stop" at an interactive pause) is continued, and so
  // is one that spent its budget when a budget flag raises it; one that completed or failed
  // returns its result.
  const continues =
    end === undefined || end.status === 'stopped' || (end.status === 'budget-exhausted' && raised);
  if (!continues && existsSync(resultPath)) {
    return JSON.parse(readFileSync(resultPath, 'utf8')) as ImplementResult;
  }
  const settings = await readSettings(runDir);
  if (options.agent !== undefined) {
    settings.agent = { ...settings.agent, ...options.agent };
    await saveSettings(runDir, settings);
  }
  const task = await loadTask(settings.taskDir);
  const checkpoint = settings.strategy === 'agent' ? lastCheckpoint(runDir) : undefined;
  if (checkpoint?.finished?.status === 'stopped') checkpoint.finished = null;
  if (checkpoint?.finished?.status === 'budget-exhausted' && raised) {
    // The next step is planned under the raised budgets; a budget still spent forces again.
    checkpoint.finished = null;
    checkpoint.forcedFinal = null;
  }
  const resumed: ResumePoint = {
    step: checkpoint?.step ?? 0,
    // Other strategies start over, asking every call again.
    completedCalls:
      checkpoint === undefined ? 0 : callsBeforeLastCheckpoint(readEvents(runDir).events),
  };
  const run = openRun(runDir, { ...(options.argv === undefined ? {} : { argv: options.argv }) });
  for (const sink of options.sinks ?? []) run.subscribe(sink);
  options.onRun?.(run);
  try {
    const workspace = await openWorkspace(runDir, task);
    const rolledBack = await restoreFiles(workspace, checkpoint?.files ?? {});
    run.emit({
      type: 'log',
      level: 'info',
      message: `resuming after step ${checkpoint?.step ?? 0}${rolledBack.length > 0 ? `; undid the unfinished step's edits to ${rolledBack.join(', ')}` : ''}`,
    });
    return await continueSession(
      { run, task, workspace, settings },
      {
        models:
          typeof options.models === 'function' ? options.models(run, resumed) : options.models,
        ...(options.ask === undefined ? {} : { ask: options.ask }),
        ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
        ...(options.actions === undefined ? {} : { actions: options.actions }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(checkpoint === undefined ? {} : { checkpoint }),
      },
    );
  } catch (error) {
    run.close('failed', error instanceof Error ? error.message : String(error));
    throw error;
  }
}
