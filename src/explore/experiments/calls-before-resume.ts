import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { callsInHistory } from '../../llm/calls-from-events.js';
import { readEvents } from '../../runs/read-events.js';
import { earlierExperimentRun } from './experiment-runs.js';

/**
 * How many calls of an interrupted exploration's session (the exploration and its
 * experiments' implement runs, one caller in call order) a resume does not ask the model
 * again: the exploration's own (finished stages are stored, an unfinished stage's calls are
 * answered from the log) and every experiment's (a finished one is not rerun; an
 * interrupted one answers its unfinished step's calls from its log). A replayed recording
 * continues after them.
 */
export function callsBeforeResume(runDir: string): number {
  const own = readEvents(runDir).events.filter((event) => event.type === 'llm-end').length;
  const folder = join(runDir, 'experiments');
  if (!existsSync(folder)) return own;
  let experiments = 0;
  for (const idea of readdirSync(folder)) {
    const earlier = earlierExperimentRun(folder, idea);
    if (earlier === undefined) continue;
    // A finished experiment's calls are not asked again; an interrupted one's resume answers
    // those of its unfinished step from its log: either way its whole history is skipped.
    experiments += callsInHistory(readEvents(earlier.runDir).events);
  }
  return own + experiments;
}
