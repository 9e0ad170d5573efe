import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPrompt } from '../prompts/load-prompt.js';
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

/**
 * What the starter achieves, as one sentence: the task's own wording when it already says
 * "The starter code …", else introduced as the starter's result.
 */
function starterPerformance(task: Task): string {
  const stated = task.files.starterPerformance?.trim();
  if (stated === undefined || stated === '') return '';
  return /^the starter( code)?\b/i.test(stated) ? stated : `The starter code achieves: ${stated}`;
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
      pattern: task.metric.pattern,
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
 * The instructions the agent works from: the task's problem_statement.txt when it brings
 * one, otherwise generated from prompts/problem-statement.md and the task's files.
 */
export function problemStatement(task: Task): string {
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
    starter_code: numberedStarter(task.files.starterCode),
    output: task.output,
    command: commandLine(task, task.output),
    measurement: measurement(task),
  });
}
