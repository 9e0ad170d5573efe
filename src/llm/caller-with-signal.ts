import type { ModelCaller } from './types.js';

/**
 * A caller whose every request carries the run's stop signal (unless it brings its own), so
 * a stop cancels the model call in flight in pipelines that do not pass a signal themselves.
 */
export function callerWithSignal(inner: ModelCaller, signal: AbortSignal | undefined): ModelCaller {
  if (signal === undefined) return inner;
  return {
    call: (request) => inner.call(request.signal === undefined ? { ...request, signal } : request),
    levels: (role) => inner.levels(role),
    spec: (role, level) => inner.spec(role, level),
    ...(inner.totals === undefined ? {} : { totals: inner.totals.bind(inner) }),
  };
}
