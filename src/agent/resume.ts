import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callsInHistory } from '../llm/calls-from-events.js';
import type { ModelCaller } from '../llm/types.js';
import type { EventSink } from '../runs/events.js';
import type { FeedbackChannel } from '../runs/feedback.js';
import { findRun } from '../runs/find-run.js';
import { withRun } from '../runs/lifecycle.js';
import { readEvents } from '../runs/read-events.js';
import type { Run } from '../runs/run.js';
import type { RunHost } from '../runs/run-host.js';
import { resolveRunsRoot } from '../runs/runs-root.js';
import { loadTask } from '../tasks/load-task.js';
import { openWorkspace } from '../workspace/create-workspace.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentCheckpoint } from './checkpoint.js';
import { type ImplementResult, resultFile } from './final-result.js';
import type { ImplementHooks } from './implement.js';
import { readSettings, saveSettings } from './implement-settings.js';
import { implementStages } from './implement-stages.js';
import { restoreFiles } from './workspace-snapshot.js';

/** Where a resumed run picks up. */
export interface ResumePoint {
  /** Steps completed before this process. */
  step: number;
  /**
   * Model calls the run's history holds: those of completed steps and those of the step
   * redone now, which are answered from the log; a replay continues after them.
   */
  completedCalls: number;
}

/** The models of a resumed run, given the re-opened run and where it resumes. */
export type ResumeModels = ModelCaller | ((run: Run, resumed: ResumePoint) => ModelCaller);

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
function raisesBudget(agent: Partial<AgentOptions> | undefined): boolean {
  if (agent === undefined) return false;
  return [agent.maxSteps, agent.maxMinutes, agent.maxTokens, agent.maxCostUsd].some(
    (value) => value !== undefined,
  );
}

/** The checkpoint to continue from, with a stop or a spent (and now raised) budget undone. */
function checkpointToContinue(runDir: string, raised: boolean): AgentCheckpoint | undefined {
  const checkpoint = lastCheckpoint(runDir);
  if (checkpoint?.finished?.status === 'stopped') checkpoint.finished = null;
  if (checkpoint?.finished?.status === 'budget-exhausted' && raised) {
    // The next step is planned under the raised budgets; a budget still spent forces again.
    checkpoint.finished = null;
    checkpoint.forcedFinal = null;
  }
  return checkpoint;
}

/**
 * `codify resume RUN` for implement: re-opens a run killed at any point and continues after
 * its last completed step, through the one lifecycle (ARCHITECTURE.md "Resume"). Calls the
 * interrupted process completed are answered from the log, those of the unfinished step
 * included, so none is paid twice; that step's edits are undone and the step redone. A run
 * that completed or failed returns its result.json; so does one that spent its budget,
 * unless a budget is raised.
 */
export async function resumeImplement(
  reference: string,
  host: RunHost,
  models: ResumeModels,
  changes: { agent?: Partial<AgentOptions> } = {},
  hooks: ImplementHooks = {},
): Promise<ImplementResult> {
  const runDir = findRun(reference, resolveRunsRoot(host.runsRoot));
  const { events } = readEvents(runDir);
  const end = events.findLast((event) => event.type === 'run-end');
  const resultPath = join(runDir, resultFile);
  const raised = raisesBudget(changes.agent);
  // A stopped run (Ctrl-C, SIGTERM, or "stop" at an interactive pause) is continued, and so
  // is one that spent its budget when a budget flag raises it; one that completed or failed
  // returns its result.
  const continues =
    end === undefined || end.status === 'stopped' || (end.status === 'budget-exhausted' && raised);
  if (!continues && existsSync(resultPath)) {
    return JSON.parse(readFileSync(resultPath, 'utf8')) as ImplementResult;
  }
  const settings = await readSettings(runDir);
  if (changes.agent !== undefined) {
    settings.agent = { ...settings.agent, ...changes.agent };
    await saveSettings(runDir, settings);
  }
  const task = await loadTask(settings.taskDir);
  const checkpoint =
    settings.strategy === 'agent' ? checkpointToContinue(runDir, raised) : undefined;
  const resumed: ResumePoint = {
    step: checkpoint?.step ?? 0,
    completedCalls: callsInHistory(events),
  };
  return withRun(
    { resume: runDir },
    host,
    (run) => (typeof models === 'function' ? models(run, resumed) : models),
    async (scope) => {
      const workspace = await openWorkspace(runDir, task);
      const rolledBack = await restoreFiles(workspace, checkpoint?.files ?? {});
      scope.run.emit({
        type: 'log',
        level: 'info',
        message: `resuming after step ${checkpoint?.step ?? 0}${rolledBack.length > 0 ? `; undid the unfinished step's edits to ${rolledBack.join(', ')}` : ''}`,
      });
      return implementStages(
        scope,
        { run: scope.run, task, workspace, settings },
        hooks,
        checkpoint,
      );
    },
  );
}

/** The options object of earlier versions, still taken by `resumeAgent`. */
export interface ResumeOptions extends ImplementHooks {
  models: ResumeModels;
  runsRoot?: string;
  feedback?: FeedbackChannel;
  sinks?: EventSink[];
  argv?: string[];
  /** Changes to the run's agent options, e.g. a larger step budget. */
  agent?: Partial<AgentOptions>;
  signal?: AbortSignal;
  onRun?: (run: Run) => void;
}

/** `resumeImplement` with its host, models and changes in one object. */
export function resumeAgent(reference: string, options: ResumeOptions): Promise<ImplementResult> {
  const { models, runsRoot, feedback, sinks, argv, agent, signal, onRun, actions, ask } = options;
  return resumeImplement(
    reference,
    { runsRoot, feedback, sinks, argv, signal, onRun },
    models,
    { agent },
    { actions, ask },
  );
}
