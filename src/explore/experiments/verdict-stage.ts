import { StructuredAnswerError } from '../../llm/structured-answer.js';
import type { ExploredIdea } from '../exploration.js';
import type { ExperimentContext } from './experiment-context.js';
import { judgeHypothesis } from './judge-hypothesis.js';
import type { ExperimentRecord } from './run-experiments.js';

/**
 * Stage `verdict I1`: the judge weighs the experiment's paired effects against the idea's
 * stop criteria. Kept like any stage, so a resume does not ask again; a judge whose answers
 * never fit leaves the record without a verdict (the problem said).
 * An experiment without two seeds paired on some metric has nothing to judge and gets none.
 */
export async function verdictStage(
  context: ExperimentContext,
  idea: ExploredIdea,
  record: ExperimentRecord,
): Promise<ExperimentRecord> {
  const paired = record.paired;
  const measured = paired?.metrics.some((metric) => metric.effect !== null) ?? false;
  if (record.status !== 'ran' || paired === undefined || !measured) return record;
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
    // A model that fails fails the exploration (a resume asks again); only answers that never
    // fit the verdict's form leave the experiment without one.
    if (!(error instanceof StructuredAnswerError)) throw error;
    context.run.emit({
      type: 'log',
      level: 'warn',
      message: `${idea.id}: no verdict on the hypothesis: ${error.message}`,
    });
    return { ...record, verdictProblem: error.message };
  }
}
