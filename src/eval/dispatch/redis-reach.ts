import { EnvironmentError } from '../../errors/codify-error.js';

/** How long the coordinator waits for an unreachable Redis before it gives up (seconds). */
export const defaultQueueTimeoutS = 30;

/** Redis could not be reached in time: the runs not done are left for the next invocation. */
export class RedisUnreachable extends EnvironmentError {}

/**
 * Resolves with the work's result, or with undefined once the signal stops the wait; throws
 * RedisUnreachable when the work (Redis commands, which wait for a connection) has not
 * finished within `timeoutMs`.
 */
export function withinReach<T>(
  work: Promise<T>,
  timeoutMs: number,
  describe: () => string,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanUp();
      reject(new RedisUnreachable(describe()));
    }, timeoutMs);
    const onAbort = () => {
      cleanUp();
      resolve(undefined);
    };
    const cleanUp = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    if (signal?.aborted === true) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanUp();
        resolve(value);
      },
      (error: unknown) => {
        cleanUp();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
