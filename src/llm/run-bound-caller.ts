import type { RunContext } from '../runs/context.js';
import type { ModelRouter } from './router.js';
import type { ModelCaller } from './types.js';

/**
 * One router shared by several runs (an exploration and its experiment runs: one recording,
 * one replay), as one of them uses it: each call is logged in that run, whichever run called
 * before. The exploration's judge calls again after an experiment's run has closed.
 */
export function boundToRun(shared: ModelRouter, run: RunContext): ModelCaller {
  return {
    call: (request) => {
      shared.useRun(run);
      return shared.call(request);
    },
    levels: (role) => shared.levels(role),
    spec: (role, level) => shared.spec(role, level),
    totals: () => shared.totals(),
  };
}
