import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPrompt } from '../prompts/load-prompt.js';
import { metricReading } from './metric-reading.js';
import { taskFileNames } from './task-file-names.js';
import type { Task } from './types.js';

function section(title: string, content: string | undefined): string {
  if (content === undefined) return '';
  return loadPrompt('problem-statement-section', { title, content: content.trim() }).trim();
}

function pythonBlock(code: string): string {
  return `\`\`\`python\n${code.trimEnd()}\n\`\`\``;
}

/** How the script is run, as a person would type it. */
export function commandLine(task: Task, script: string): string {
  return ['`python', script, ...task.args].join(' ') + '`';
}

/** One paragraph, so it reads as a single item of the list it is placed in. */
function paragraph(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** Each paragraph ends with a full stop (or its own punctuation), so joined they read as sentences. */
function sentences(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (/[.!?:;]$/.test(part) ? part : `${part}.`))
    .join('\n');
}

/**
 * What the starter achieves, as sentences: the task's own wording when it already says
 * "The starter code …", else introduced as the starter's result.
 */
function starterPerformance(task: Task): string {
  const stated = task.files.starterPerformance?.trim();
  if (stated === undefined || stated === '') return '';
  const text = sentences(stated);
  return /^the starter( code)?\b/i.test(text) ? text : `The starter code achieves: ${text}`;
}

/**
 * The starter with its line numbers, as Inspect Script Lines shows files, so instructions
 * that name lines ("lines 105 to 123") can be followed.
 */
function numberedStarter(code: string): string {
  const lines = code.trimEnd().split('\n');
  const width = String(lines.length).length;
  return lines.map((line, index) => `${String(index + 1).padStart(width)}: ${line}`).join('\n');
}

function measurement(task: Task): string {
  const starter = starterPerformance(task);
  if (!task.metric) {
    return paragraph(loadPrompt('problem-statement-no-metric', { starter_performance: starter }));
  }
  return paragraph(
    loadPrompt('problem-statement-metric', {
      metric_name: task.metric.name,
      direction: task.metric.goal === 'max' ? 'higher' : 'lower',
      reading: metricReading(task.metric),
      starter_performance: starter,
    }),
  );
}

/** Modules of at most this many lines are shown whole; longer ones are listed. */
export const shortModuleLines = 150;

/**
 * The task's other Python modules: the short ones numbered in full, the others named with
 * their size, so the agent need not spend its first steps reading them.
 */
function otherModules(task: Task): string | undefined {
  const shown = new Set([task.entrypoint, task.output, ...task.files.subparts.map((s) => s.name)]);
  const modules = task.inputFiles.filter((file) => file.endsWith('.py') && !shown.has(file));
  if (modules.length === 0) return undefined;
  const root = task.inputDir ?? task.dir;
  const parts = modules.map((file) => {
    let code: string;
    try {
      code = readFileSync(join(root, file), 'utf8');
    } catch {
      return `- \`${file}\` (could not be read)`;
    }
    const lines = code.trimEnd().split('\n').length;
    return lines <= shortModuleLines
      ? `### \`${file}\` (${lines} lines)\n\n\`\`\`\n${numberedStarter(code)}\n\`\`\``
      : `- \`${file}\`: ${lines} lines, not shown (Inspect Script Lines or Understand File reads it)`;
  });
  return parts.join('\n\n');
}

/**
 * How the answer is given, which decides the "What to deliver" list: the agent with its
 * actions, an agent with only a few steps (explore's experiments), or one answer with no
 * actions (the single-call strategy).
 */
export type Delivery =
  { kind: 'agent' } | { kind: 'few-steps'; steps: number } | { kind: 'single-call' };

/** Agent runs of at most this many steps get the few-steps list (copy, edit, run, check and answer need five). */
export const fewStepsLimit = 5;

/** The delivery for an agent run of `maxSteps` steps. */
export const agentDelivery = (maxSteps: number): Delivery =>
  maxSteps <= fewStepsLimit ? { kind: 'few-steps', steps: maxSteps } : { kind: 'agent' };

function whatToDeliver(task: Task, delivery: Delivery): string {
  const slots = {
    entrypoint: task.entrypoint,
    output: task.output,
    command: commandLine(task, task.output),
    measurement: measurement(task),
  };
  switch (delivery.kind) {
    case 'agent':
      return loadPrompt('problem-statement-deliver-agent', slots);
    case 'few-steps':
      return loadPrompt('problem-statement-deliver-few-steps', {
        ...slots,
        steps: String(delivery.steps),
      });
    case 'single-call':
      return loadPrompt('problem-statement-deliver-single-call', slots);
  }
}

/**
 * The task files a generated problem statement already shows whole (the method, the
 * dataset, the pseudocode, the background, the reference sub-parts, the starter, its
 * performance and the short modules), so a prompt that also lists the task's files need not
 * repeat them. None when the task brings its own problem statement.
 */
export function filesInStatement(task: Task): string[] {
  if (task.files.problemStatement !== undefined || task.format !== 'codify') return [];
  const { files } = task;
  const shown = new Set([task.entrypoint, task.output, ...files.subparts.map((s) => s.name)]);
  const root = task.inputDir ?? task.dir;
  const shortModules = task.inputFiles.filter((file) => {
    if (!file.endsWith('.py') || shown.has(file)) return false;
    try {
      return (
        readFileSync(join(root, file), 'utf8').trimEnd().split('\n').length <= shortModuleLines
      );
    } catch {
      return false;
    }
  });
  return [
    taskFileNames.methodology,
    task.entrypoint,
    ...(files.dataset === undefined ? [] : [taskFileNames.dataset]),
    ...(files.pseudocode === undefined ? [] : [taskFileNames.pseudocode]),
    ...(files.supplementary === undefined ? [] : [taskFileNames.supplementary]),
    ...(files.starterPerformance === undefined ? [] : [taskFileNames.starterPerformance]),
    ...files.subparts.map((subpart) => subpart.name),
    ...shortModules,
  ];
}

/**
 * The instructions the agent works from: the task's problem_statement.txt when it brings
 * one, otherwise generated from prompts/problem-statement.md and the task's files, with the
 * "What to deliver" list that fits how the answer is given.
 */
export function problemStatement(
  task: Task,
  delivery: Delivery = { kind: 'agent' },
  /**
   * Where the starter's numbered listing goes: into the statement (`inline`), or only into
   * the first step's request (`first-step`: the agent's planner, whose system prompt then
   * stays the same, and shorter, for every step; the listing is `starterListing`).
   */
  listing: 'inline' | 'first-step' = 'inline',
): string {
  if (task.files.problemStatement !== undefined) return task.files.problemStatement;
  const subparts = task.files.subparts.map((subpart) =>
    section(
      `Reference code (read it, do not run it): ${subpart.name}`,
      pythonBlock(subpart.content),
    ),
  );
  const sections = [
    section('The dataset', task.files.dataset),
    section('The method as pseudocode', task.files.pseudocode),
    section('Background already implemented in the starter code', task.files.supplementary),
    ...subparts,
    section('Other modules of the task (read-only)', otherModules(task)),
  ]
    .filter((text) => text !== '')
    .map((text) => `${text}\n\n`)
    .join('');
  return loadPrompt('problem-statement', {
    name: task.name,
    methodology: task.files.methodology.trim(),
    sections,
    entrypoint: task.entrypoint,
    starter:
      listing === 'inline'
        ? loadPrompt('problem-statement-starter', {
            starter_code: numberedStarter(task.files.starterCode),
          }).trim()
        : loadPrompt('problem-statement-starter-first-step', {}).trim(),
    deliver: whatToDeliver(task, delivery).trimEnd(),
  });
}

/**
 * The starter's numbered listing for the agent's first step, when the statement leaves it
 * out (`problemStatement(…, 'first-step')`); undefined for a task that brings its own
 * problem_statement.txt, which the statement shows as written.
 */
export function starterListing(task: Task): string | undefined {
  if (task.files.problemStatement !== undefined) return undefined;
  return `# The starter code: \`${task.entrypoint}\`\n\n${loadPrompt('problem-statement-starter', {
    starter_code: numberedStarter(task.files.starterCode),
  }).trim()}`;
}
