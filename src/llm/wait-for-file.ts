import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { abortReason } from './retry-policy.js';

export interface WaitOptions {
  signal?: AbortSignal;
  /** Reject after this long; wait forever when absent. */
  timeoutMs?: number;
  /** How often to look at the file besides watching its folder. */
  pollMs: number;
  /** A file written in place counts once its size and time have not changed for this long. */
  stableMs: number;
}

/** A rename event followed by no write within this long means the file arrived whole. */
const renameQuietMs = 40;

function sizeOf(file: string): { size: number; mtimeMs: number } | undefined {
  try {
    const stat = statSync(file);
    return stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves once `file` exists and is complete: at once when it appears by rename (a
 * rename event with no write after it), or when a file written in place has kept the
 * same non-zero size and modification time for `stableMs`. Watches the folder and
 * polls as a fallback (watch events can be missed, e.g. on network file systems).
 */
export function waitForCompleteFile(file: string, options: WaitOptions): Promise<void> {
  const folder = dirname(file);
  const name = basename(file);
  return new Promise((resolve, reject) => {
    let watcher: FSWatcher | undefined;
    let wroteInPlace = false;
    let renameTimer: NodeJS.Timeout | undefined;
    let seen: { size: number; mtimeMs: number; since: number } | undefined;

    const cleanup = (): void => {
      watcher?.close();
      clearInterval(poller);
      clearTimeout(renameTimer);
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const succeed = (): void => {
      cleanup();
      resolve();
    };
    const fail = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onAbort = (): void => fail(abortReason(options.signal));

    const check = (): void => {
      const now = sizeOf(file);
      if (now === undefined || now.size === 0) {
        seen = undefined;
        return;
      }
      if (seen === undefined || seen.size !== now.size || seen.mtimeMs !== now.mtimeMs) {
        seen = { ...now, since: Date.now() };
        return;
      }
      if (Date.now() - seen.since >= options.stableMs) succeed();
    };

    try {
      watcher = watch(folder, (event, changed) => {
        if (changed !== name) return;
        if (event === 'change') {
          wroteInPlace = true;
          return;
        }
        clearTimeout(renameTimer);
        renameTimer = setTimeout(() => {
          const now = sizeOf(file);
          if (!wroteInPlace && now !== undefined && now.size > 0) succeed();
        }, renameQuietMs);
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      watcher = undefined;
    }
    const tick = Math.max(10, Math.min(options.pollMs, Math.max(10, options.stableMs / 3)));
    const poller = setInterval(check, tick);
    const deadline =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => fail(new Error(`no complete answer in ${file} after ${options.timeoutMs} ms`)),
            options.timeoutMs,
          );
    if (options.signal?.aborted === true) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    check();
  });
}
