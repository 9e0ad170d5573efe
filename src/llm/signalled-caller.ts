import type { ModelAnswer, ModelCaller, ModelRequest, RoleName } from './types.js';

/**
 * A caller that gives every request the run's stop signal, so that Ctrl-C or SIGTERM
 * cancels the call in flight; pipelines with many call sites (paper mode) need not thread
 * the signal through each. A request's own signal is kept.
 */
export function signalledCaller(inner: ModelCaller, signal: AbortSignal | undefined): ModelCaller {
  if (signal === undefined) return inner;
  const totals = inner.totals?.bind(inner);
  return {
    ...(totals === undefined ? {} : { totals }),
    call: (request: ModelRequest): Promise<ModelAnswer> =>
      inner.call(request.signal === undefined ? { ...request, signal } : request),
    levels: (role: RoleName) => inner.levels(role),
    spec: (role: RoleName, level?: number) => inner.spec(role, level),
  };
}
