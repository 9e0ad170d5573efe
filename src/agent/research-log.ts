import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';

export const researchLogFile = 'research_log.md';

/** Rewrites `<runDir>/research_log.md` with every entry so far. */
export async function saveResearchLog(runDir: string, entries: readonly string[]): Promise<void> {
  await writeFile(
    join(runDir, researchLogFile),
    `# Research log\n\n${entries.join('\n\n')}\n`,
    'utf8',
  );
}

export interface StepToSummarize {
  step: number;
  /** The planner's Thought: why it chose the action (not its whole answer). */
  thought: string;
  action: string;
  input: unknown;
  observation: string;
  comment: string | null;
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[... ${text.length - limit} characters left out ...]\n${text.slice(-half)}`;
}

/**
 * One research-log entry for a step, written by the summarizer role. If the summarizer
 * fails the entry is built from the step itself, so the log never misses a step.
 */
export async function summarizeStep(
  models: ModelCaller,
  step: StepToSummarize,
  observationLimit: number,
): Promise<string> {
  const heading = `## Step ${step.step}: ${step.action}`;
  const comment = step.comment === null ? '' : `\nHuman comment: ${step.comment}`;
  try {
    const answer = await models.call({
      role: 'summarizer',
      label: `summarize step ${step.step}`,
      expect: 'a few lines: what was done, what was learned, what is next',
      messages: [
        {
          role: 'user',
          content: loadPrompt('summarizer-step', {
            thought: step.thought === '' ? '(none given)' : step.thought,
            action: step.action,
            input: JSON.stringify(step.input, null, 2),
            observation: clip(step.observation, observationLimit),
          }),
        },
      ],
    });
    return `${heading}\n${answer.text.trim()}${comment}`;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return unsummarizedEntry(step, `(summary unavailable: ${reason})`);
  }
}

/**
 * A log entry built from the step itself, without a model call: for the final step, for an
 * observation that is already a summary (kept whole: summarized once, not twice), and when
 * the summarizer fails.
 */
export function unsummarizedEntry(step: StepToSummarize, note?: string): string {
  const comment = step.comment === null ? '' : `\nHuman comment: ${step.comment}`;
  const lines = [`## Step ${step.step}: ${step.action}`];
  if (note !== undefined) lines.push(note);
  else if (step.thought !== '') lines.push(`Thought: ${step.thought}`);
  const observation = isSummarizedObservation(step.observation)
    ? step.observation
    : clip(step.observation, 600);
  lines.push(`Observation: ${observation}${comment}`);
  return lines.join('\n');
}

const summaryMark = (length: number): string =>
  `[The observation was ${length} characters long; this is codify's summary of it.]`;

/** Whether an observation is already a summary (so the research log does not summarize it again). */
export const isSummarizedObservation = (observation: string): boolean =>
  /^\[The observation was \d+ characters long; this is codify's summary of it\.\]/.test(
    observation,
  );

/**
 * The observation the planner sees: as is when short, otherwise summarized by the
 * summarizer role (head and tail kept if even that fails). The full text stays in the run.
 */
export async function observationForPlanner(
  models: ModelCaller,
  action: string,
  observation: string,
  limit: number,
  step: number,
): Promise<string> {
  if (observation.length <= limit) return observation;
  try {
    const answer = await models.call({
      role: 'summarizer',
      label: `summarize observation ${step}`,
      expect: 'a concise summary keeping every error, number and file name',
      messages: [
        {
          role: 'user',
          content: loadPrompt('summarizer-observation', {
            action,
            observation: clip(observation, limit * 4),
          }),
        },
      ],
    });
    return `${summaryMark(observation.length)}\n${answer.text.trim()}`;
  } catch {
    return clip(observation, limit);
  }
}
