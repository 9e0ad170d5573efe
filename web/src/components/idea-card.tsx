import type { ExploredIdea } from '../../../src/explore/exploration.js';
import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';
import { labelOf, noveltyLine, unfoundCitations } from '../model/labels.js';
import { runHref } from '../use-route.js';
import { PlanStepItem } from './plan-step.js';
import { ReviewSpread } from './review-spread.js';
import { PairedEffects } from './paired-effects.js';
import { experimentFigure, measured, verdictText } from '../model/experiment-result.js';

type IdeaCard = ExploredIdea['card'];
type IdeaReview = NonNullable<ExploredIdea['reviews']>[number];

/** One idea as the researcher reads it: the card, how the judges scored it, what it measured. */
export function IdeaCardView({
  idea,
  rank,
  experiment,
}: {
  idea: ExploredIdea;
  rank: number;
  experiment?: ExperimentRecord;
}) {
  const review = idea.reviews?.[idea.reviews.length - 1];
  return (
    <article className="idea-card" data-idea={idea.id}>
      <header>
        <span className="idea-rank">#{rank}</span>
        <span className="idea-id">{idea.id}</span>
        <h3>{idea.card.title}</h3>
        <span
          className="idea-score"
          title="the judge's score, 1–5: the meta-review's when there is one, otherwise the reviewers' mean"
        >
          judge {idea.score.toFixed(2)}
        </span>
      </header>
      {experiment !== undefined ? (
        <>
          <ExperimentLine experiment={experiment} />
          <PairedEffects experiment={experiment} />
        </>
      ) : null}
      <CardFields card={idea.card} />
      <PlanDetails card={idea.card} />
      {review !== undefined ? <ReviewDetails review={review} rounds={idea.reviews.length} /> : null}
      <NoveltyChecks checks={idea.novelty ?? []} />
    </article>
  );
}

function ExperimentLine({ experiment }: { experiment: ExperimentRecord }) {
  const { verdict } = experimentFigure(experiment);
  return (
    <p className={`idea-result ${experiment.status} verdict-${verdict}`}>
      Experiment {experiment.status}: {measured(experiment)}
      {experiment.status === 'ran' ? <b className="verdict"> · {verdictText[verdict]}</b> : null}
      {experiment.runId !== undefined ? (
        <>
          {' '}
          · <a href={runHref(experiment.runId)}>its run</a>
        </>
      ) : null}
    </p>
  );
}

function CardFields({ card }: { card: IdeaCard }) {
  return (
    <dl className="idea-fields">
      <dt>Problem</dt>
      <dd>{card.problem}</dd>
      <dt>Hypothesis</dt>
      <dd>
        {card.hypothesis.statement}
        <div className="muted">Expected: {card.hypothesis.expectedEffect}</div>
      </dd>
      <dt>Method</dt>
      <dd>{card.method}</dd>
      {card.rationale !== undefined ? (
        <>
          <dt>Rationale</dt>
          <dd>{card.rationale}</dd>
        </>
      ) : null}
    </dl>
  );
}

function PlanDetails({ card }: { card: IdeaCard }) {
  const plan = card.experimentPlan;
  return (
    <details className="idea-plan">
      <summary>Experiment plan</summary>
      <dl className="idea-fields">
        <dt>Data</dt>
        <dd>{plan.dataPreparation}</dd>
        <dt>Baselines</dt>
        <dd>{plan.baselines.join('; ')}</dd>
        <dt>Metrics</dt>
        <dd>{plan.metrics.map((metric) => `${metric.name} (${metric.direction})`).join(', ')}</dd>
        <dt>Procedure</dt>
        <dd>
          <ol>
            {plan.procedure.map((step, index) => (
              <PlanStepItem key={index} step={step} />
            ))}
          </ol>
        </dd>
        <dt>Seeds</dt>
        <dd>{plan.seeds.join(', ')}</dd>
        {plan.ablations.length > 0 ? (
          <>
            <dt>Ablations</dt>
            <dd>{plan.ablations.join('; ')}</dd>
          </>
        ) : null}
        <dt>Expected outcome</dt>
        <dd>{plan.expectedOutcome}</dd>
        <dt>Stop when</dt>
        <dd>{plan.stopCriteria}</dd>
        <dt>Risks</dt>
        <dd>{card.risks.join('; ')}</dd>
      </dl>
    </details>
  );
}

function ReviewDetails({ review, rounds }: { review: IdeaReview; rounds: number }) {
  return (
    <details className="idea-review" open>
      <summary>
        Review: {review.overall.toFixed(2)} overall (the reviewers' mean), {review.reviewers}{' '}
        reviewer
        {review.reviewers === 1 ? '' : 's'}
        {rounds > 1 ? ` (round ${rounds})` : ''}
      </summary>
      <table className="review-scores">
        <tbody>
          {Object.entries(review.aspects).map(([aspect, scores]) =>
            Object.entries(scores.criteria).map(([criterion, score], index) => (
              <tr key={`${aspect}-${criterion}`} data-criterion={`${aspect}.${criterion}`}>
                <th>{index === 0 ? `${labelOf(aspect)} ${scores.mean.toFixed(1)}` : ''}</th>
                <td>{labelOf(criterion)}</td>
                <td className="score">{score.mean.toFixed(1)}</td>
                <td className="reason">{[...new Set(score.reasons)].join(' · ')}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      <ReviewSpread review={review} />
    </details>
  );
}

function NoveltyChecks({ checks }: { checks: NonNullable<ExploredIdea['novelty']> }) {
  return checks.map((check, index) => (
    <div key={index}>
      <p className={`novelty novelty-${check.verdict}`}>
        Novelty ({check.against}): <b>{noveltyLine(check).verdict}</b>
        {noveltyLine(check).detail}
      </p>
      {unfoundCitations(check).map((item, citation) => (
        <p key={citation} className="novelty novelty-unfound">
          Cited work not found in {check.against}: “{item}”
        </p>
      ))}
    </div>
  ));
}
