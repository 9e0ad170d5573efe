import { selectIdeas } from './experiments/select-ideas.js';
import type { ExploredIdea } from './exploration.js';
import { describeAgreement } from './review-agreement.js';
import { reviewCriteria, type ReviewAspect } from './schemas.js';

/** Why an idea was chosen to run as an experiment, as ideas.json and the report keep it. */
export interface IdeaChoice {
  idea: string;
  title: string;
  /** Its rank by the judge's score, 1 first. */
  rank: number;
  /** `top`: `--run top:K` took it by rank; `listed`: `--run` named it; `picked`: the researcher chose it at the gate. */
  how: 'top' | 'listed' | 'picked';
  reason: string;
}

/** The judge's case for an idea: its rank, scores, agreement and the meta-review's summary. */
function judgeCase(idea: ExploredIdea, rank: number, count: number): string {
  const last = idea.reviews.at(-1);
  if (last === undefined)
    return `ranked ${rank} of ${count} by the judge (${idea.score.toFixed(2)})`;
  const scores =
    last.meta === undefined
      ? `reviewers' mean ${last.overall.toFixed(2)} / 5, ${last.reviewers} reviewer(s)`
      : `meta-review ${last.meta.overall.toFixed(2)} / 5 reconciling ${last.reviewers} reviews (their mean ${last.overall.toFixed(2)})`;
  const aspects = (Object.keys(reviewCriteria) as ReviewAspect[])
    .map((aspect) => {
      const aspectMean = (last.meta?.aspects ?? last.aspects)[aspect].mean;
      return `${aspect} ${aspectMean.toFixed(2)}`;
    })
    .join(', ');
  const agreement = last.agreement === undefined ? '' : `; ${describeAgreement(last.agreement)}`;
  const summary = last.meta === undefined ? '' : `. Meta-review: ${last.meta.summary}`;
  return `ranked ${rank} of ${count} by the judge: ${scores}; ${aspects}${agreement}${summary}`;
}

/**
 * Why each idea a selection takes was chosen: `top:K` by the judge's rank, its scores and
 * the meta-review's reason; ids given to `--run`, or picked by the researcher at the
 * experiments gate, because the user chose them (the judge's case is given beside).
 */
export function explainChoices(
  selection: string,
  ranked: readonly ExploredIdea[],
  pickedAtGate = false,
): IdeaChoice[] {
  const byRank = /^(?:top:)?\d+$/i.test(selection.trim()) && !pickedAtGate;
  return selectIdeas(selection, ranked).map((idea) => {
    const rank = ranked.indexOf(idea) + 1;
    const judge = judgeCase(idea, rank, ranked.length);
    const how: IdeaChoice['how'] = pickedAtGate ? 'picked' : byRank ? 'top' : 'listed';
    const reason =
      how === 'top'
        ? `--run ${selection.trim()} takes the ${selection.replace(/\D/g, '')} best by the judge; it ${judge}`
        : how === 'listed'
          ? `the user chose it (--run ${selection.trim()}); the judge ${judge}`
          : `the researcher chose it at the experiments gate; the judge ${judge}`;
    return { idea: idea.id, title: idea.card.title, rank, how, reason };
  });
}

/** The "why chosen" section of ideas.md and report.md. */
export function renderChoices(
  choices: readonly IdeaChoice[],
  heading = '## Why these ideas were chosen',
): string {
  if (choices.length === 0) return '';
  return [
    heading,
    '',
    ...choices.map((choice) => `- **${choice.idea}** ${choice.title}: ${choice.reason}`),
    '',
  ].join('\n');
}
