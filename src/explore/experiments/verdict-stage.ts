import { errorMessage } from '../../errors/codify-error.js';
import { RunStopped } from '../../errors/run-stopped.js';
import type { ExploredIdea } from '../exploration.js';
import type { ExperimentContext } from './experiment-context.js';
import { judgeHypothesis } from './judge-hypothesis.js';
import type { ExperimentRecord } from './run-experiments.js';

/**
 * Stage `verdict I1`: the judge weighs the experiment's paired effects against the idea's
 * stop criteria. Kept like any stage, so a resume does not ask again; a judge whose answers
 * never fit leaves the record without a verdict (the problem said) and a resume asks again.
 * An experiment without paired seeds has nothing to judge and gets no verdict.
 */
export async function verdictStage(
  context: ExperimentContext,
  idea: ExploredIdea,
  record: ExperimentRecord,
): Promise<ExperimentRecord> {
  const paired = record.paired;
  if (record.status !== 'ran' || paired === undefined) return record;
  try {
    const verdict = await context.stages.run(
      `verdict ${idea.id}`,
      () => judgeHypothesis(context.judge, { card: idea.card, paired, label: idea.id }),
      {
        detail: idea.card.experimentPlan.stopCriteria,
        describe: (judged) => `${judged.verdict}: ${judged.reason}`,
      },
    );
    return { ...record, verdict };
  } catch (error) {
    if (error instanceof RunStopped) throw error;
    context.run.emit({
      type: 'log',
      level: 'warn',
      message: `${idea.id}: no verdict on the hypothesis: ${errorMessage(error)}`,
    });
    return { ...record, verdictProblem: errorMessage(error) };
  }
}
