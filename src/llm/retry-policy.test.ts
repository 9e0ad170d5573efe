import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { CallTimeoutError } from './call-timeout-error.js';
import { judgeFailure, parseRetryAfter, retryDelay } from './retry-policy.js';

const failure = (statusCode: number | undefined, headers?: Record<string, string>): APICallError =>
  new APICallError({
    message: 'failed',
    url: 'http://127.0.0.1/',
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(headers === undefined ? {} : { responseHeaders: headers }),
    isRetryable: true,
  });

describe('retry policy', () => {
  it('reads retry-after as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'Retry-After': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('retries 408, 409, 429, 5xx, timeouts and lost connections, and nothing else', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) {
      expect(judgeFailure(failure(status)).retryable).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 422]) {
      expect(judgeFailure(failure(status)).retryable).toBe(false);
    }
    expect(judgeFailure(failure(undefined)).retryable).toBe(true);
    expect(judgeFailure(new CallTimeoutError(100))).toEqual({
      retryable: true,
      reason: 'timed out after 100 ms',
    });
    expect(judgeFailure(new Error('bug')).retryable).toBe(false);
    expect(judgeFailure(failure(429, { 'retry-after': '2' })).retryAfterMs).toBe(2000);
  });

  it('does not retry a connection that cannot be made, wherever the cause sits', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 11434,
    });
    const wrapped = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:11434',
      url: 'http://127.0.0.1:11434/api/chat',
      requestBodyValues: {},
      // fetch's TypeError wraps undici's error, which lists one error per address tried
      cause: new TypeError('fetch failed', { cause: new AggregateError([refused]) }),
      isRetryable: true,
    });
    expect(judgeFailure(wrapped)).toEqual({
      retryable: false,
      reason: 'cannot connect to 127.0.0.1:11434 (ECONNREFUSED)',
      unreachable: { code: 'ECONNREFUSED', host: '127.0.0.1:11434' },
    });
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.invalid'), {
      code: 'ENOTFOUND',
      hostname: 'api.example.invalid',
    });
    expect(judgeFailure(new TypeError('fetch failed', { cause: notFound }))).toMatchObject({
      retryable: false,
      unreachable: { code: 'ENOTFOUND', host: 'api.example.invalid' },
    });
    // a connection made and then lost is worth another attempt
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const lost = new APICallError({
      message: 'Cannot connect to API: socket hang up',
      url: 'https://api.openai.com/v1/responses',
      requestBodyValues: {},
      cause: new TypeError('fetch failed', { cause: reset }),
      isRetryable: true,
    });
    expect(judgeFailure(lost)).toMatchObject({ retryable: true });
    expect(judgeFailure(lost).unreachable).toBeUndefined();
  });

  it('doubles the delay with jitter, caps it, and lets retry-after win', () => {
    const settings = { maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(1, settings, undefined, () => 1)).toBe(100);
    expect(retryDelay(2, settings, undefined, () => 1)).toBe(200);
    expect(retryDelay(3, settings, undefined, () => 0)).toBe(200);
    expect(retryDelay(10, settings, undefined, () => 1)).toBe(1000);
    expect(retryDelay(1, settings, 4000, () => 1)).toBe(4000);
  });
});
