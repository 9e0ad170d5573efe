import { readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize, resolve } from 'node:path';
import { checkMetricPattern } from './check-metric-pattern.js';
import { listInputFiles } from './list-input-files.js';
import { readTaskSettings } from './read-task-settings.js';
import { readOptionalText, readTextFile } from './read-text-file.js';
import { TaskError } from './task-error.js';
import {
  compareSubparts,
  defaultOutput,
  mlAgentBenchNames,
  subpartPattern,
  taskFileNames,
} from './task-file-names.js';
import type { TaskSettings } from './task-settings.js';
import type { Task, TaskFiles, TaskMetric } from './types.js';

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function requireFolder(dir: string): Promise<void> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(dir)).isDirectory();
  } catch {
    throw new TaskError(
      `The task folder ${dir} does not exist: pass the folder that holds ${taskFileNames.methodology} and ${taskFileNames.starterCode} (or an MLAgentBench env/ and ${mlAgentBenchNames.researchProblem})`,
      dir,
    );
  }
  if (!isFolder) {
    throw new TaskError(
      `${dir} is a file, not a task folder: pass the folder that holds ${taskFileNames.methodology} and ${taskFileNames.starterCode}`,
      dir,
    );
  }
}

/** A required file's text; missing or empty is the user's to fix, as `fix` says. */
async function requiredText(dir: string, name: string, fix: string): Promise<string> {
  const path = join(dir, name);
  const file = await readTextFile(path);
  if (file.state === 'present') return file.content;
  throw new TaskError(`${name} is ${file.state} in ${dir}: ${fix}`, path);
}

/** A path from task.json, checked to stay inside the folder it is relative to. */
function relativeSetting(key: string, value: string, settingsPath: string): string {
  const clean = normalize(value).replaceAll('\\', '/');
  if (isAbsolute(clean) || clean === '..' || clean.startsWith('../') || clean === '.') {
    throw new TaskError(
      `${settingsPath}: "${key}" is ${JSON.stringify(value)}, which is not a file inside the task folder: give a relative path such as "${key === 'output' ? defaultOutput : taskFileNames.starterCode}"`,
      settingsPath,
    );
  }
  return clean;
}

async function readSubparts(dir: string): Promise<TaskFiles['subparts']> {
  const names = (await readdir(dir)).filter((name) => subpartPattern.test(name));
  names.sort(compareSubparts);
  const subparts: TaskFiles['subparts'] = [];
  for (const name of names) {
    const content = await readOptionalText(join(dir, name));
    if (content !== undefined) subparts.push({ name, content });
  }
  return subparts;
}

/** Which layout a folder uses: ResearchCodeAgent file names unless it looks like MLAgentBench. */
export async function detectFormat(dir: string): Promise<Task['format']> {
  if (await exists(join(dir, taskFileNames.methodology))) return 'codify';
  if (await exists(join(dir, taskFileNames.starterCode))) return 'codify';
  if (await isDirectory(join(dir, mlAgentBenchNames.environment))) return 'mlagentbench';
  if (await exists(join(dir, mlAgentBenchNames.researchProblem))) return 'mlagentbench';
  return 'codify';
}

interface Layout {
  inputDir: string;
  methodology: string;
  entrypoint: string;
  dataset?: string;
}

async function codifyLayout(
  dir: string,
  settings: TaskSettings,
  settingsPath: string,
): Promise<Layout> {
  const methodology = await requiredText(
    dir,
    taskFileNames.methodology,
    'write the method to implement there',
  );
  const entrypoint = settings.entrypoint
    ? relativeSetting('entrypoint', settings.entrypoint, settingsPath)
    : taskFileNames.starterCode;
  return {
    inputDir: dir,
    methodology,
    entrypoint,
    dataset: await readOptionalText(join(dir, taskFileNames.dataset)),
  };
}

async function mlAgentBenchLayout(
  dir: string,
  settings: TaskSettings,
  settingsPath: string,
): Promise<Layout> {
  const inputDir = join(dir, mlAgentBenchNames.environment);
  if (!(await isDirectory(inputDir))) {
    throw new TaskError(
      `env/ is missing in ${dir}: an MLAgentBench task keeps its code and data in env/ (with ${mlAgentBenchNames.entrypoint}) beside ${mlAgentBenchNames.researchProblem}`,
      inputDir,
    );
  }
  const methodology = await requiredText(
    dir,
    mlAgentBenchNames.researchProblem,
    'write the research problem (the method to implement) there',
  );
  const entrypoint = settings.entrypoint
    ? relativeSetting('entrypoint', settings.entrypoint, settingsPath)
    : mlAgentBenchNames.entrypoint;
  const dataset =
    (await readOptionalText(join(inputDir, mlAgentBenchNames.dataset))) ??
    (await readOptionalText(join(dir, taskFileNames.dataset)));
  return { inputDir, methodology, entrypoint, dataset };
}

async function readEntrypoint(
  layout: Layout,
  settings: TaskSettings,
  settingsPath: string,
): Promise<string> {
  const path = join(layout.inputDir, layout.entrypoint);
  const file = await readTextFile(path);
  if (file.state === 'present') return file.content;
  if (settings.entrypoint) {
    throw new TaskError(
      `${settingsPath}: "entrypoint" names ${layout.entrypoint}, which is ${file.state === 'missing' ? 'missing' : 'empty'} in ${layout.inputDir}: fix "entrypoint" or put the starter code there`,
      path,
    );
  }
  throw new TaskError(
    `${layout.entrypoint} is ${file.state} in ${layout.inputDir}: put the code to build on there, or name another entry point in task.json "entrypoint"`,
    path,
  );
}

/**
 * Loads and validates a task folder: ResearchCodeAgent file names, or an MLAgentBench
 * folder (env/ + scripts/research_problem.txt). Throws TaskError naming the file and the fix.
 */
export async function loadTask(directory: string): Promise<Task> {
  const dir = resolve(directory);
  await requireFolder(dir);
  const format = await detectFormat(dir);
  const settingsPath = join(dir, taskFileNames.settings);
  const settings = await readTaskSettings(settingsPath);
  const layout =
    format === 'codify'
      ? await codifyLayout(dir, settings, settingsPath)
      : await mlAgentBenchLayout(dir, settings, settingsPath);
  const starterCode = await readEntrypoint(layout, settings, settingsPath);

  if (settings.metric) checkMetricPattern(settings.metric.pattern, settingsPath);

  const inputFiles = await listInputFiles(layout.inputDir);
  const output = settings.output
    ? relativeSetting('output', settings.output, settingsPath)
    : defaultOutput;
  if (inputFiles.includes(output)) {
    throw new TaskError(
      `${settingsPath}: "output" is ${output}, which is already an input file of the task (inputs are read-only): choose a new file name such as ${defaultOutput}`,
      settingsPath,
    );
  }

  const files: TaskFiles = {
    methodology: layout.methodology,
    starterCode,
    dataset: layout.dataset,
    pseudocode: await readOptionalText(join(dir, taskFileNames.pseudocode)),
    starterPerformance: await readOptionalText(join(dir, taskFileNames.starterPerformance)),
    supplementary: await readOptionalText(join(dir, taskFileNames.supplementary)),
    subparts: await readSubparts(dir),
    problemStatement: await readOptionalText(join(dir, taskFileNames.problemStatement)),
  };

  const task: Task = {
    dir,
    name: settings.name ?? basename(dir),
    format,
    entrypoint: layout.entrypoint,
    output,
    args: settings.args,
    timeoutS: settings.timeout_s,
    metric: settings.metric === undefined ? undefined : taskMetric(settings.metric),
    pythonRequires: settings.python?.requires ?? [],
    network: settings.network,
    files,
    inputFiles,
  };
  if (settings.seed !== undefined) task.seed = settings.seed;
  if (layout.inputDir !== dir) task.inputDir = layout.inputDir;
  return task;
}

/** task.json's metric as codify keeps it (`in_words` as `inWords`). */
function taskMetric(metric: NonNullable<TaskSettings['metric']>): TaskMetric {
  const { in_words: inWords, ...rest } = metric;
  return inWords === undefined ? rest : { ...rest, inWords };
}
