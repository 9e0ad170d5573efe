import type { ActionResult } from '../actions/types.js';
import { AgentModels } from '../agent-models.js';
import type { BudgetUsage } from '../budgets.js';
import { emptyBudgetUsage } from '../budgets.js';
import type { ExecutionSeen } from '../checkpoint.js';
import { trackExecutions } from '../execution-tracker.js';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { bracketDepthChange } from '../../tasks/python-brackets.js';
import { inspectLineLimit } from '../actions/inspect-script-lines.js';
import { splitLines } from '../actions/numbered-lines.js';
import type { StrategyContext, StrategyOutcome } from './strategy.js';

const subpartMarker = /^[ \t]*#[ \t]*SUBPART[ \t]+(\d+)[ \t]*:[ \t]*(.*)$/gim;

/** The sub-parts the skeleton marks with `# SUBPART <n>: <title>`. */
export function skeletonSubparts(script: string): { index: number; title: string }[] {
  return [...script.matchAll(subpartMarker)].map((match) => ({
    index: Number(match[1]),
    title: (match[2] ?? '').trim(),
  }));
}

type Perform = (
  name: string,
  input: Record<string, unknown>,
  /** The part of the method the action serves, when not the whole methodology. */
  methodology?: string,
) => Promise<ActionResult>;

/**
 * A sub-part as the skeleton wrote it: its `# SUBPART` comment and the function after it
 * (signature, docstring, body), up to the next top-level statement or sub-part. A line at
 * the margin inside open brackets (`) -> torch.Tensor:` closing a signature written over
 * several lines) or inside a triple-quoted string does not end it.
 */
export function subpartSource(script: string, index: number): string | undefined {
  const marker = new RegExp(subpartMarker.source, 'i');
  const lines = script.split('\n');
  const start = lines.findIndex((line) => Number(marker.exec(line)?.[1]) === index);
  if (start === -1) return undefined;
  const taken = [lines[start] ?? ''];
  let inFunction = false;
  let depth = 0;
  let inString = false;
  for (const line of lines.slice(start + 1)) {
    if (marker.test(line)) break;
    const topLevel = !inString && depth === 0 && line.trim() !== '' && !/^\s/.test(line);
    if (topLevel && inFunction) break;
    if (/^(?:async\s+)?def\s|^class\s/.test(line)) inFunction = true;
    taken.push(line);
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (!inString && quotes === 0) depth = Math.max(0, depth + bracketDepthChange(line));
    if (quotes % 2 === 1) inString = !inString;
  }
  return taken.join('\n').trimEnd();
}

/** One action of the plan run as a step: its events, its result, a note for the research log. */
function prescribedSteps(
  context: StrategyContext,
  models: AgentModels,
  run: StrategyContext['run'],
  usage: BudgetUsage,
): Perform {
  const expertHelp = { remaining: 0 };
  const notes: string[] = [];
  let step = 0;
  const attempt = async (
    name: string,
    input: Record<string, unknown>,
    current: number,
    methodology: string | undefined,
  ): Promise<ActionResult> => {
    const action = context.actions.find((candidate) => candidate.name === name);
    const checked = action?.inputSchema.safeParse(input);
    if (action === undefined || checked === undefined) return refusal(`${name} is not available`);
    if (!checked.success)
      return refusal(`${name} refused the prescribed input: ${checked.error.message}`);
    run.emit({ type: 'action-start', step: current, action: name, input: checked.data });
    const actionStarted = Date.now();
    let result: ActionResult;
    try {
      result = await action.run(checked.data, {
        task: context.task,
        workspace: context.workspace,
        sandbox: context.sandbox,
        models,
        run,
        interpreter: context.interpreter,
        limits: context.limits,
        gpu: context.gpu,
        researchLog: () => notes.join('\n\n'),
        expertHelp,
        step: current,
        ...(methodology === undefined ? {} : { methodology }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
    } catch (error) {
      result = refusal(
        `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    run.emit({
      type: 'action-end',
      step: current,
      action: name,
      ok: result.ok,
      observation: result.observation,
      display: result.display,
      durationMs: Date.now() - actionStarted,
    });
    return result;
  };
  return async (name, input, methodology) => {
    step += 1;
    usage.steps = step;
    run.emit({ type: 'step-start', step });
    const result = await attempt(name, input, step, methodology);
    notes.push(`## Step ${step}: ${name}\n${result.observation.slice(0, 1500)}`);
    run.emit({ type: 'step-end', step, action: name });
    return result;
  };
}

function refusal(text: string): ActionResult {
  return { ok: false, observation: text, display: text };
}

/** What to look for in a file, by its kind: code, settings (JSON) or a description. */
function thingsToLookFor(file: string): string {
  const kind = /\.py$/i.test(file) ? 'code' : /\.json$/i.test(file) ? 'settings' : 'text';
  return loadPrompt(`strategy-prescribed-understand-${kind}`, { file }).trim();
}

/** A file the skeleton's edit is given whole: at most this many lines and characters. */
const wholeFileLines = inspectLineLimit;
const wholeFileChars = 6_000;

const fenceLanguage = (file: string) =>
  /\.py$/i.test(file) ? 'python' : /\.json$/i.test(file) ? 'json' : 'text';

/**
 * What the task's text inputs say, for the skeleton's edit: each file that edit does not
 * show already (the script it edits and the methodology are in its request), a short one
 * read whole by Inspect Script Lines (no model call: its text is what the edit gets, fenced),
 * a longer one by Understand File, asked what fits its kind. Empty files are passed over.
 */
async function understandInputs(context: StrategyContext, perform: Perform): Promise<string[]> {
  const { task, workspace } = context;
  const methodology = task.files.methodology.trim();
  const understanding: string[] = [];
  for (const file of task.inputFiles.filter((name) => /\.(txt|py|md|json)$/i.test(name))) {
    if (file === task.entrypoint) continue;
    const text = await workspace.read(file).catch(() => undefined);
    if (text === undefined || text.trim() === '' || text.trim() === methodology) continue;
    const lines = splitLines(text).length;
    if (lines <= wholeFileLines && text.length <= wholeFileChars) {
      const read = await perform('Inspect Script Lines', {
        script_name: file,
        start_line_number: 1,
        end_line_number: lines,
      });
      if (read.ok) {
        const size = `${lines} line${lines === 1 ? '' : 's'}`;
        understanding.push(
          `${file} (${size}):\n\`\`\`${fenceLanguage(file)}\n${text.trimEnd()}\n\`\`\``,
        );
      }
      continue;
    }
    const read = await perform('Understand File', {
      file_name: file,
      things_to_look_for: thingsToLookFor(file),
    });
    if (read.ok) understanding.push(`${file}: ${read.observation}`);
  }
  return understanding;
}

/** The skeleton's sub-parts, each filled in by an edit of its own. */
async function editSubparts(context: StrategyContext, perform: Perform): Promise<void> {
  const { task } = context;
  let skeleton = '';
  try {
    skeleton = await context.workspace.read(task.output);
  } catch {
    skeleton = '';
  }
  const subparts = skeletonSubparts(skeleton);
  const parts = subparts.length > 0 ? subparts : [{ index: 1, title: 'the whole methodology' }];
  for (const part of parts) {
    // the sub-part's own text as the skeleton wrote it (not the whole methodology again)
    const own = subparts.length > 0 ? subpartSource(skeleton, part.index) : undefined;
    await perform(
      'Edit Script',
      {
        script_name: task.output,
        edit_instruction: loadPrompt('strategy-prescribed-subpart', {
          index: String(part.index),
          title: part.title,
        }).trim(),
        save_name: task.output,
      },
      own,
    );
  }
}

/**
 * The prescribed-plan baseline: a fixed sequence of the agent's own actions, no planner.
 * List Files; each input the skeleton's edit does not show, read (a short one whole, a
 * longer one by Understand File); Edit Script for a skeleton of sub-part functions; Edit
 * Script for each sub-part; Check Implementation; Execute Script; one fix if it failed;
 * Final Answer. It restarts from the beginning when resumed.
 */
export async function runPrescribedPlan(context: StrategyContext): Promise<StrategyOutcome> {
  const usage = emptyBudgetUsage();
  const started = Date.now();
  const models = new AgentModels(context.models, usage, {
    planning: context.options.planningTemperature,
    worker: context.options.workerTemperature,
  });
  const seen: { last: ExecutionSeen | null } = { last: null };
  const { task } = context;
  const run = trackExecutions(context.run, context.workspace.root, task.output, seen);
  const perform = prescribedSteps(context, models, run, usage);

  await perform('List Files', { dir_path: '.' });
  const understanding = await understandInputs(context, perform);
  await perform('Edit Script', {
    script_name: task.entrypoint,
    edit_instruction: loadPrompt('strategy-prescribed-skeleton', {
      understanding:
        understanding.length === 0
          ? '(the task has no other text files)'
          : understanding.join('\n\n').slice(0, 12_000),
    }).trim(),
    save_name: task.output,
  });
  await editSubparts(context, perform);
  await perform('Check Implementation', { script_name: task.output });
  const execution = await perform('Execute Script', { script_name: task.output, arguments: [] });
  const failed = seen.last === null || seen.last.exitCode !== 0 || seen.last.timedOut;
  if (failed) {
    await perform('Edit Script', {
      script_name: task.output,
      edit_instruction: loadPrompt('strategy-prescribed-fix', {
        observation: execution.observation.slice(-6000),
      }).trim(),
      save_name: task.output,
    });
    await perform('Execute Script', { script_name: task.output, arguments: [] });
  }
  await perform('Final Answer', {
    final_script: task.output,
    summary: 'Prescribed plan: skeleton, one edit per sub-part, check, execute, one fix if needed.',
  });
  usage.elapsedMs = Date.now() - started;
  return {
    status: 'completed',
    reason: 'the prescribed plan ran to its end',
    usage,
  };
}
