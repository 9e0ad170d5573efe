import { join } from 'node:path';

/** The name of the log inside a run folder. */
export const eventLogName = 'events.jsonl';

export const eventLogPath = (runDirectory: string): string => join(runDirectory, eventLogName);
