import type { CodifyConfig } from '../../config/codify-config.js';
import { throwIfStopped } from '../../errors/run-stopped.js';
import { createModelCaller } from '../../llm/create-model-caller.js';
import type { ModelCaller } from '../../llm/types.js';
import type { Run } from '../../runs/run.js';
import type { AnswererFactory } from '../dispatch/execute-run.js';
import { configForRun } from '../dispatch/run-config.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { Suite } from '../suite/suite.js';
import type { JudgeCaller } from './judge-caller.js';
import { judgeRun } from './judge-run.js';
import { judgeSpec } from './judge-spec.js';

export interface JudgeRunsOptions {
  suite: Suite;
  planned: PlannedRun[];
  baseConfig: CodifyConfig;
  answerers?: AnswererFactory;
  /** The evaluation's run: the judge's calls and grades are logged there. */
  evaluation: Run;
  /** What the judging calls: the lifecycle's caller, in front of `judge`. */
  models: ModelCaller;
  judge: JudgeCaller;
  signal?: AbortSignal;
}

/**
 * The judge's grades of every finished paper run not judged yet (a judgement is kept in
 * `judge/<key>.json`, so a later invocation does not pay for it again); a run whose judging
 * fails is logged and reported as not judged, and tried again next time. Resolves with how
 * many paper runs have a judgement.
 */
export async function judgeRuns(options: JudgeRunsOptions): Promise<number> {
  const { suite, evaluation } = options;
  const spec = judgeSpec(suite, options.baseConfig);
  if (spec === undefined) return 0;
  const config = configForRun(options.baseConfig, {}, spec);
  let judged = 0;
  for (const run of options.planned) {
    if (run.item.kind !== 'paper') continue;
    throwIfStopped(options.signal);
    const supplied = options.answerers?.(spec, run);
    options.judge.use(
      createModelCaller(config, {
        run: evaluation,
        ...(supplied === undefined ? {} : { models: { [spec]: supplied } }),
      }),
    );
    const record = await judgeRun({
      planned: run,
      judge: options.models,
      judgeModel: spec,
      settings: suite.judge,
      emit: (body) => evaluation.emit(body),
    });
    throwIfStopped(options.signal);
    if (record?.error !== undefined) {
      evaluation.emit({
        type: 'log',
        level: 'warn',
        message: `judging ${run.key} failed: ${record.error}`,
      });
    } else if (record !== undefined) judged += 1;
  }
  return judged;
}
