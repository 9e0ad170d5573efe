import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { callsBeforeLastCheckpoint, recordedCallsFromEvents } from '../../llm/calls-from-events.js';
import { readEvents } from '../../runs/read-events.js';
import { earlierExperimentRun } from './experiment-runs.js';

/**
 * How many calls of an interrupted exploration's session (the exploration and its
 * experiments' implement runs, one caller in call order) a resume does not ask the model
 * again: the exploration's own (finished stages are stored, an unfinished stage's calls are
 * answered from the log), a finished experiment's, and an interrupted experiment's up to
 * its last checkpoint. A replayed recording continues after them.
 */
export function callsBeforeResume(runDir: string): number {
  const own = readEvents(runDir).events.filter((event) => event.type === 'llm-end').length;
  const folder = join(runDir, 'experiments');
  if (!existsSync(folder)) return own;
  let experiments = 0;
  for (const idea of readdirSync(folder)) {
    const earlier = earlierExperimentRun(folder, idea);
    if (earlier === undefined) continue;
    const { events } = readEvents(earlier.runDir);
    experiments += earlier.ended
      ? recordedCallsFromEvents(events).length
      : callsBeforeLastCheckpoint(events);
  }
  return own + experiments;
}
