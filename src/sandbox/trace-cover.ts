import { readFile } from 'node:fs/promises';
import type { ExecutionTrace } from './types.js';

/** `<script stem>_execution_trace.cover`, beside the script: `train.py` → `train_execution_trace.cover`. */
export function coverPathFor(scriptPath: string): string {
  return `${scriptPath.replace(/\.py$/, '')}_execution_trace.cover`;
}

/** Reads counts and never-ran lines back from a .cover file. */
export function parseCover(text: string, coverPath: string): ExecutionTrace {
  const counts: Record<number, number> = {};
  const neverRan: number[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    const number = index + 1;
    const counted = /^ *(\d+): /.exec(line);
    if (counted?.[1]) counts[number] = Number(counted[1]);
    else if (line.startsWith('>>>>>> ')) neverRan.push(number);
  });
  return { coverPath, counts, neverRan };
}

/** The trace the tracer wrote, or undefined when the script left none (e.g. os._exit). */
export async function readCover(coverPath: string): Promise<ExecutionTrace | undefined> {
  try {
    return parseCover(await readFile(coverPath, 'utf8'), coverPath);
  } catch {
    return undefined;
  }
}
