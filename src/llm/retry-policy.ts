import { APICallError } from '@ai-sdk/provider';
import { CallTimeoutError } from './call-timeout-error.js';
import { findConnectionFailure, type ConnectionFailure } from './connection-failure.js';

export interface RetrySettings {
  /** Retries after the first attempt; 0 makes one attempt only. */
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export interface FailureVerdict {
  retryable: boolean;
  /** A short reason for logs, e.g. `HTTP 429` or `timed out after 1000 ms`. */
  reason: string;
  /** What the server asked for through retry-after / retry-after-ms, in milliseconds. */
  retryAfterMs?: number;
  /** Set when no connection could be made (DNS failure, refused): never retryable. */
  unreachable?: ConnectionFailure;
}

/** Status codes worth another attempt: timeouts, conflicts, rate limits and server errors. */
const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Reads `retry-after-ms`, then `retry-after` as seconds or an HTTP date. */
export function parseRetryAfter(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const milliseconds = lower.get('retry-after-ms');
  if (milliseconds !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) {
    return Math.max(0, Number(milliseconds));
  }
  const value = lower.get('retry-after');
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Decides whether a failed attempt is worth repeating. */
export function judgeFailure(error: unknown): FailureVerdict {
  if (error instanceof CallTimeoutError) return { retryable: true, reason: error.message };
  const unreachable = findConnectionFailure(
    error,
    APICallError.isInstance(error) ? error.url : undefined,
  );
  if (unreachable !== undefined) {
    return {
      retryable: false,
      reason: `cannot connect to ${unreachable.host} (${unreachable.code})`,
      unreachable,
    };
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      // No answer (a connection reset or dropped mid-call): the SDK marks these retryable.
      return { retryable: error.isRetryable, reason: error.message };
    }
    const retryAfterMs = parseRetryAfter(error.responseHeaders);
    return {
      retryable: isRetryableStatus(status),
      reason: `HTTP ${status}: ${firstLine(error.message)}`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { retryable: false, reason: message };
}

const firstLine = (text: string): string => text.split('\n')[0] ?? text;

/**
 * Exponential backoff with jitter (between half and all of the doubled delay, capped);
 * a server's retry-after wins over the computed delay.
 */
export function retryDelay(
  retry: number,
  settings: RetrySettings,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const base = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (retry - 1));
  return Math.round(base * (0.5 + random() * 0.5));
}

/** Waits, unless the signal aborts first. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const abortReason = (signal: AbortSignal | undefined): Error => {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('the model call was cancelled');
};
