import type { ActionContext, ActionDefinition, ActionResult } from '../actions/types.js';
import { AgentModels } from '../agent-models.js';
import { emptyBudgetUsage, exhaustedBudget } from '../budgets.js';
import { askPlanner } from '../cascade.js';
import type { AgentCheckpoint, StepRecord } from '../checkpoint.js';
import { trackExecutions } from '../execution-tracker.js';
import {
  advanceGuards,
  checkGuards,
  guardNote,
  initialGuardState,
} from '../guards/action-guards.js';
import { plannerPrompt } from '../planner-prompt.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { observationForPlanner, saveResearchLog, summarizeStep } from '../research-log.js';
import { snapshotFiles } from '../workspace-snapshot.js';
import type { StrategyContext, StrategyOutcome } from './strategy.js';

export const finalAnswerName = 'Final Answer';

function initialCheckpoint(context: StrategyContext): AgentCheckpoint {
  return {
    version: 1,
    step: 0,
    recentSteps: [],
    researchLog: [],
    guard: initialGuardState(),
    usage: emptyBudgetUsage(),
    expertHelpRemaining: context.options.expertHelpLimit,
    pendingComment: null,
    failedSteps: 0,
    forcedFinal: null,
    files: {},
    lastExecution: null,
    finalScript: null,
    finished: null,
  };
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

async function runAction(
  action: ActionDefinition,
  input: unknown,
  context: ActionContext,
): Promise<ActionResult> {
  try {
    return await action.run(input, context);
  } catch (error) {
    // Actions promise not to throw; if one does, the model still gets an observation.
    const text = `${action.name} failed unexpectedly: ${message(error)}`;
    return { ok: false, observation: text, display: text };
  }
}

/**
 * The research agent: each step the planner cascade answers, the guards check the action,
 * the action runs, memory is updated and a checkpoint closes the step. Nothing throws out;
 * the run always ends with a status and a reason.
 */
export async function runAgentStrategy(context: StrategyContext): Promise<StrategyOutcome> {
  const { options } = context;
  const state: AgentCheckpoint = structuredClone(context.checkpoint ?? initialCheckpoint(context));
  const usage = state.usage;
  const elapsedBefore = usage.elapsedMs;
  const sessionStart = Date.now();
  const tick = (): void => {
    usage.elapsedMs = elapsedBefore + (Date.now() - sessionStart);
  };
  const models = new AgentModels(context.models, usage, {
    planning: options.planningTemperature,
    worker: options.workerTemperature,
  });
  const seen = { last: state.lastExecution };
  const run = trackExecutions(context.run, context.workspace.root, context.task.output, seen);
  const expertHelp = { remaining: state.expertHelpRemaining };
  const finalAction = context.actions.find((action) => action.name === finalAnswerName);
  const outcome = (status: StrategyOutcome['status'], reason: string): StrategyOutcome => {
    tick();
    return {
      status,
      reason,
      usage,
      lastExecution: seen.last,
      ...(state.finalScript === null ? {} : { finalScript: state.finalScript }),
    };
  };
  if (state.finished !== null) return outcome(state.finished.status, state.finished.reason);

  for (;;) {
    tick();
    if (state.forcedFinal === null) {
      const budget = exhaustedBudget(options, usage);
      if (budget !== undefined) {
        state.forcedFinal = budget.message;
        run.emit({ type: 'budget-exhausted', budget: budget.budget, message: budget.message });
      }
    }
    const step = state.step + 1;
    const forced = state.forcedFinal !== null;
    run.emit({ type: 'step-start', step });

    const notes = [
      guardNote(state.guard, step, options),
      expertHelp.remaining < options.expertHelpLimit
        ? `Request Planning Expert Help can be used ${expertHelp.remaining} more time(s) in this run.`
        : '',
      forced ? loadPrompt('agent-budget-reached', { budget: state.forcedFinal ?? '' }).trim() : '',
    ];
    const allowed = forced && finalAction !== undefined ? [finalAction] : context.actions;
    const answer = await askPlanner({
      models,
      prompt: plannerPrompt({
        step,
        problem: context.problem,
        actions: context.actions,
        researchLog: state.researchLog,
        recentSteps: state.recentSteps,
        notes,
        comment: state.pendingComment,
      }),
      actions: allowed,
      attemptsPerLevel: options.attemptsPerLevel,
      step,
      emit: (body) => run.emit(body),
      signal: context.signal,
    });

    let record: StepRecord;
    let fullObservation: string;
    let display: string;
    let final = false;
    let reasoning = '';
    if (!answer.ok) {
      state.failedSteps += 1;
      fullObservation = `No valid answer after ${answer.attempts} attempts on every planner level. The last problems: ${answer.reasons.slice(-3).join(' | ')}`;
      display = fullObservation;
      record = {
        step,
        answer: '(no valid answer)',
        action: 'none',
        input: null,
        observation: fullObservation,
      };
    } else {
      state.failedSteps = 0;
      const { action, input, fields } = answer.response;
      reasoning = `Reflection: ${fields.Reflection}\nResearch Plan and Status: ${fields['Research Plan and Status']}\nThought: ${fields.Thought}`;
      const refusal = forced
        ? undefined
        : checkGuards(state.guard, action, input, step, options, context.actions);
      if (refusal !== undefined) {
        run.emit({ type: 'guard-refusal', step, guard: refusal.guard, message: refusal.message });
        fullObservation = refusal.message;
        display = refusal.message;
      } else {
        run.emit({ type: 'action-start', step, action: action.name, input });
        const started = Date.now();
        const result = await runAction(action, input, {
          task: context.task,
          workspace: context.workspace,
          sandbox: context.sandbox,
          models,
          run,
          interpreter: context.interpreter,
          limits: context.limits,
          gpu: context.gpu,
          researchLog: () => state.researchLog.join('\n\n'),
          expertHelp,
          step,
          signal: context.signal,
        });
        run.emit({
          type: 'action-end',
          step,
          action: action.name,
          ok: result.ok,
          observation: result.observation,
          display: result.display,
          durationMs: Date.now() - started,
        });
        state.guard = advanceGuards(state.guard, action, input);
        // The run folder's absolute path differs between a run and its replay; the planner
        // cannot use it anyway (actions work inside the workspace), so it gets a stable name.
        fullObservation = result.observation.split(context.run.dir).join('<run folder>');
        display = result.display;
        final = result.final === true;
        const named = (input as { final_script?: unknown } | null)?.final_script;
        if (final && typeof named === 'string' && named.trim() !== '') {
          state.finalScript = named.trim();
        }
      }
      record = {
        step,
        answer: answer.text.trim(),
        action: action.name,
        input,
        observation: await observationForPlanner(
          models,
          action.name,
          fullObservation,
          options.observationCharLimit,
          step,
        ),
      };
    }

    const comment = state.pendingComment;
    state.pendingComment = null;
    state.researchLog.push(
      await summarizeStep(
        models,
        {
          step,
          reasoning: reasoning === '' ? record.answer : reasoning,
          action: record.action,
          input: record.input,
          observation: record.observation,
          comment,
        },
        options.observationCharLimit,
      ),
    );
    state.recentSteps = [...state.recentSteps, record].slice(-Math.max(0, options.shortTermSteps));
    state.step = step;
    usage.steps = step;
    tick();

    if (final) {
      state.finished = forced
        ? {
            status: 'budget-exhausted',
            reason: `${state.forcedFinal ?? ''}; the agent gave its final answer`,
          }
        : { status: 'completed', reason: 'the agent gave its final answer' };
    } else if (!answer.ok && (forced || state.failedSteps >= options.maxFailedSteps)) {
      state.finished = forced
        ? {
            status: 'budget-exhausted',
            reason: `${state.forcedFinal ?? ''}, and no valid final answer came`,
          }
        : {
            status: 'failed',
            reason: `${state.failedSteps} steps in a row without a valid planner answer`,
          };
    } else if (forced && answer.ok) {
      // Only Final Answer was accepted, so a forced step that got here did not end the run.
      state.finished = { status: 'budget-exhausted', reason: state.forcedFinal ?? '' };
    } else if (context.signal?.aborted === true) {
      state.finished = { status: 'stopped', reason: 'the run was interrupted' };
    }

    if (state.finished === null && options.interactive && context.ask !== undefined) {
      let feedback;
      try {
        feedback = await context.ask({
          step,
          action: record.action,
          input: record.input,
          thought: answer.ok ? answer.response.fields.Thought : '',
          observation: record.observation,
          display,
        });
      } catch (error) {
        feedback = { decision: 'stop' as const, comment: `feedback failed: ${message(error)}` };
      }
      run.emit({
        type: 'feedback-given',
        step,
        decision: feedback.decision,
        comment: feedback.comment,
      });
      if (feedback.decision === 'stop') {
        state.finished = { status: 'stopped', reason: 'stopped by the person supervising the run' };
      } else if (
        feedback.decision === 'comment' &&
        feedback.comment !== undefined &&
        feedback.comment.trim() !== ''
      ) {
        state.pendingComment = feedback.comment.trim();
        state.researchLog.push(`## Human comment after step ${step}\n${state.pendingComment}`);
      }
    }

    await saveResearchLog(run.dir, state.researchLog).catch(() => undefined);
    state.expertHelpRemaining = expertHelp.remaining;
    state.lastExecution = seen.last;
    state.files = await snapshotFiles(context.workspace);
    run.emit({
      type: 'budget-update',
      steps: usage.steps,
      tokens: usage.inputTokens + usage.outputTokens,
      costUsd: usage.costUsd,
      elapsedMs: usage.elapsedMs,
    });
    run.emit({ type: 'step-end', step, action: record.action, checkpoint: structuredClone(state) });
    if (state.finished !== null) return outcome(state.finished.status, state.finished.reason);
  }
}
