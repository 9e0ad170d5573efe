import { join } from 'node:path';
import type { RunClosing, RunScope } from '../runs/lifecycle.js';
import { primaryPaired } from './experiments/paired-results.js';
import type { ExperimentRecord } from './experiments/run-experiments.js';
import type { Exploration } from './exploration.js';
import type { ExploreResult } from './run-explore.js';
import type { IdeasFiles } from './write-ideas.js';

/** What the experiments stage left: the records ranked by measurement, and report.md. */
export interface MeasuredIdeas {
  experiments: ExperimentRecord[];
  report: string;
}

/** How an exploration ends: run-end's reason (best by the judge, best measured) and result. */
export function closeExploration(
  scope: RunScope,
  exploration: Exploration,
  files: IdeasFiles,
  measured: MeasuredIdeas | undefined,
): RunClosing<ExploreResult> {
  const { run } = scope;
  const ranked = exploration.ideas;
  const best = ranked[0];
  const top = measured?.experiments[0];
  const paired = primaryPaired(top?.paired)?.effect ?? null;
  const improvement =
    paired?.effect ?? top?.metric?.seeds?.improvement ?? top?.metric?.improvement ?? null;
  const over =
    paired !== null
      ? `± ${Number(paired.margin.toPrecision(4))} over the baseline, paired on ${paired.pairs.length} seeds`
      : top?.metric?.seeds === undefined
        ? 'over the baseline'
        : `over the baseline, mean of ${top.metric.seeds.runs.length} seeds`;
  const reusedCalls = scope.reusedCalls();
  return {
    status: 'completed',
    reason: `${ranked.length} ideas${best === undefined ? '' : `; best by the judge: ${best.id} "${best.card.title}" (${best.score.toFixed(2)})`}${top === undefined || improvement === null ? '' : `; best measured: ${top.idea} (${top.metric?.name ?? ''} ${improvement >= 0 ? '+' : ''}${Number(improvement.toPrecision(4))} ${over})`}`,
    result: {
      ideas: files.ideasJson,
      report: measured?.report ?? files.ideasMarkdown,
      count: ranked.length,
      reusedCalls,
      ...(measured === undefined ? {} : { experiments: join(run.dir, 'experiments.json') }),
    },
    value: {
      run,
      exploration,
      ...files,
      reusedCalls,
      ...(measured === undefined ? {} : measured),
    },
  };
}
