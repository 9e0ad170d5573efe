import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEvents } from '../../runs/read-events.js';
import type { Run } from '../../runs/run.js';

/** Which implement run an idea's experiment is: `experiments/<idea>/run.json`. */
const runFile = (folder: string, idea: string) => join(folder, idea, 'run.json');

export interface ExperimentRunReference {
  runId: string;
  runDir: string;
  /** The run has ended (its result.json stands); otherwise it was cut off or stopped. */
  ended: boolean;
}

/** Written as soon as the experiment's run exists, so a killed exploration can find it. */
export function recordExperimentRun(folder: string, idea: string, run: Run): void {
  mkdirSync(join(folder, idea), { recursive: true });
  writeFileSync(
    runFile(folder, idea),
    `${JSON.stringify({ runId: run.id, runDir: run.dir }, null, 2)}\n`,
  );
}

/** The run an earlier process started for the idea, if its folder is still there. */
export function earlierExperimentRun(
  folder: string,
  idea: string,
): ExperimentRunReference | undefined {
  const path = runFile(folder, idea);
  if (!existsSync(path)) return undefined;
  const { runId, runDir } = JSON.parse(readFileSync(path, 'utf8')) as {
    runId: string;
    runDir: string;
  };
  if (!existsSync(join(runDir, 'events.jsonl'))) return undefined;
  const end = readEvents(runDir).events.findLast((event) => event.type === 'run-end');
  // A stopped run is continued like a killed one.
  const ended = end !== undefined && end.status !== 'stopped';
  return { runId, runDir, ended };
}
