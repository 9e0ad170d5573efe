import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ConnectionOptions } from 'bullmq';
import type { RunArchive } from './run-archive.js';
import { UsageError } from '../../errors/codify-error.js';

/** The BullMQ queue every `codify eval --queue` and `codify worker` share. */
export const queueName = 'codify-eval';

/**
 * How a worker's run folders reach the evaluation: written into the evaluation folder the
 * workers share, or packed into the job's result and unpacked by the coordinator.
 */
export type ResultsTransport = 'shared' | 'queue';

/** One run of an evaluation, as a job: the suite and what it names are at the same paths. */
export interface RunJob {
  suiteFile: string;
  evalDir: string;
  key: string;
  /** Default `shared`. */
  results?: ResultsTransport;
  /** With `queue`: the cap on the compressed run folders. */
  maxResultBytes?: number;
}

/** What a worker reports back for a run. */
export interface RunJobResult {
  key: string;
  status: string;
  runDir: string | null;
  tokens: number;
  costUsd: number;
  /** Set when the run had already finished and was not run again. */
  skipped?: boolean;
  /** With `--results queue`: the combination's run folders. */
  archive?: RunArchive;
}

/** The connection for a `redis://` or `rediss://` URL; anything else is a usage error. */
export function queueConnection(url: string, flag = '--queue'): ConnectionOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${flag} takes a Redis URL such as redis://127.0.0.1:6379 (got "${url}")`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UsageError(`${flag} takes a Redis URL such as redis://127.0.0.1:6379 (got "${url}")`);
  }
  // Workers block on the queue; BullMQ requires ioredis not to give up on those commands.
  return { url, maxRetriesPerRequest: null };
}

/**
 * One job id per evaluation folder and run, so enqueueing the same evaluation twice (two
 * coordinators, or a re-run while workers are still busy) never runs a combination twice.
 */
export function jobIdFor(evalDir: string, key: string): string {
  return createHash('sha256').update(`${evalDir}\n${key}`).digest('hex').slice(0, 32);
}

/**
 * A client of its own for a coordinator's queue: unlike BullMQ's, it can be cut off at once
 * while it is still trying to reach Redis, so an unreachable Redis never holds the process.
 */
export function queueClient(url: string): Redis {
  queueConnection(url);
  return new Redis(url, { maxRetriesPerRequest: null });
}
