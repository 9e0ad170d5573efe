import type { RunScope } from '../../runs/lifecycle.js';
import type { MeasuredBaseline } from '../experiments/experiment-context.js';
import { measureBaseline } from '../experiments/measure-baseline.js';
import type { ExperimentSettings } from '../experiments/run-experiments.js';
import { summarizePrototype, type PrototypeSummary } from './prototype-summary.js';

/** The baseline measured before the ideas, and the summary every idea stage sees. */
export interface Grounding {
  baseline: MeasuredBaseline;
  summary: PrototypeSummary;
}

/**
 * Stages `baseline` (the prototype run unchanged) and `prototype` (its summary), before the
 * ideas: the ideas are planned on what the prototype is and measures. Both are stored, so a
 * resumed exploration neither runs the baseline again nor sends a different summary.
 */
export async function groundOnPrototype(
  scope: RunScope,
  settings: ExperimentSettings,
  compute: string,
): Promise<Grounding> {
  const baseline = await measureBaseline(scope.run, scope.stages, settings, scope.host.signal);
  const summary = await scope.stages.run(
    'prototype',
    () => summarizePrototype(baseline, settings.codeDir, compute),
    {
      detail: settings.codeDir,
      describe: (summarized) =>
        `${summarized.entrypoint}, ${summarized.scan.files.length} files, Python ${summarized.python}${summarized.printedLines.length === 0 ? ', no metric line' : `, ${summarized.printedLines.join('; ')}`}`,
    },
  );
  return { baseline, summary };
}
