import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectFormat } from './load-task.js';
import { listInputFiles } from './list-input-files.js';
import {
  compareSubparts,
  mlAgentBenchNames,
  subpartPattern,
  taskFileNames,
} from './task-file-names.js';
import type { Task } from './types.js';

export interface InspectedFile {
  /** Relative to the task folder. */
  path: string;
  meaning: string;
  required: boolean;
  state: 'present' | 'empty' | 'missing';
  bytes?: number;
}

export interface FolderInspection {
  format: Task['format'];
  /** The files codify knows by name, in a fixed order. */
  known: InspectedFile[];
  /** Every other input file, relative to the task folder. */
  other: { path: string; bytes: number }[];
}

async function inspectFile(
  dir: string,
  path: string,
  meaning: string,
  required: boolean,
): Promise<InspectedFile> {
  try {
    const info = await stat(join(dir, path));
    const empty = info.isFile() && info.size === 0;
    return { path, meaning, required, state: empty ? 'empty' : 'present', bytes: info.size };
  } catch {
    return { path, meaning, required, state: 'missing' };
  }
}

/**
 * What a task folder holds, file by file, for `codify check` — also when it does not load,
 * so the user sees what is there and what is not. `entrypoint` is task.json's, if known.
 */
export async function inspectTaskFolder(
  dir: string,
  entrypoint?: string,
): Promise<FolderInspection> {
  const format = await detectFormat(dir);
  const inputDir = format === 'mlagentbench' ? join(dir, mlAgentBenchNames.environment) : dir;
  const prefix = format === 'mlagentbench' ? `${mlAgentBenchNames.environment}/` : '';
  const entry = `${prefix}${entrypoint ?? (format === 'mlagentbench' ? mlAgentBenchNames.entrypoint : taskFileNames.starterCode)}`;
  const wanted: [string, string, boolean][] =
    format === 'mlagentbench'
      ? [
          [
            mlAgentBenchNames.researchProblem,
            'the research problem (the method to implement)',
            true,
          ],
          [entry, 'the starter code (entry point)', true],
          [`${prefix}${mlAgentBenchNames.dataset}`, 'the data', false],
        ]
      : [
          [taskFileNames.methodology, 'the method to implement', true],
          [entry, 'the starter code (entry point)', true],
          [taskFileNames.dataset, 'the data', false],
          [taskFileNames.pseudocode, 'the method as pseudocode', false],
          [taskFileNames.supplementary, 'background already in the starter code', false],
        ];
  wanted.push(
    [taskFileNames.starterPerformance, "the starter's score (measured if absent)", false],
    [taskFileNames.problemStatement, 'replaces the generated instructions', false],
    [taskFileNames.settings, 'settings: entry point, output, args, metric, …', false],
  );
  const known: InspectedFile[] = [];
  for (const [path, meaning, required] of wanted) {
    known.push(await inspectFile(dir, path, meaning, required));
  }
  const subparts = (await readdir(dir))
    .filter((name) => subpartPattern.test(name))
    .sort(compareSubparts);
  for (const name of subparts) {
    known.push(await inspectFile(dir, name, 'reference code for one sub-part', false));
  }
  const knownPaths = new Set(known.map((file) => file.path));
  const other: FolderInspection['other'] = [];
  let inputs: string[] = [];
  try {
    inputs = await listInputFiles(inputDir);
  } catch {
    // a missing env/ is reported by loadTask; there is nothing else to list
  }
  for (const input of inputs) {
    const path = `${prefix}${input}`;
    if (knownPaths.has(path)) continue;
    const bytes = await stat(join(inputDir, input)).then(
      (info) => info.size,
      () => 0,
    );
    other.push({ path, bytes });
  }
  return { format, known, other };
}
