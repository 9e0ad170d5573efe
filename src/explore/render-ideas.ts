import { describeStep } from './grounding/plan-steps.js';
import type { Exploration, ExploredIdea } from './exploration.js';
import { describeAgreement } from './review-agreement.js';
import { renderChoices } from './review-choice.js';
import { reviewCriteria, type ReviewAspect } from './schemas.js';

const aspectNames: Record<ReviewAspect, string> = {
  problem: 'Problem',
  method: 'Method',
  experimentPlan: 'Experiment plan',
};

function renderIdea(idea: ExploredIdea, rank: number): string {
  const { card } = idea;
  const plan = card.experimentPlan;
  const lines = [
    `## ${rank}. ${card.title} (${idea.id}, judge score ${idea.score.toFixed(2)} / 5)`,
    '',
    `**Problem.** ${card.problem}`,
    '',
    `**Hypothesis.** ${card.hypothesis.statement} _Expected effect:_ ${card.hypothesis.expectedEffect}`,
    '',
    `**Rationale.** ${card.rationale}`,
    '',
    `**Method.** ${card.method}`,
    '',
    '**Experiment plan.**',
    `- Data preparation: ${plan.dataPreparation}`,
    `- Baselines: ${plan.baselines.join('; ')}`,
    `- Metrics: ${plan.metrics.map((metric) => `${metric.name} (${metric.direction === 'max' ? 'higher is better' : 'lower is better'})`).join('; ')}`,
    `- Procedure: ${plan.procedure.map((step, index) => `(${index + 1}) ${describeStep(step)}`).join(' ')}`,
    `- Seeds: ${plan.seeds.join(', ')}`,
    `- Ablations: ${plan.ablations.length === 0 ? 'none' : plan.ablations.join('; ')}`,
    `- Expected outcome: ${plan.expectedOutcome}`,
    `- Stop criteria: ${plan.stopCriteria}`,
    '',
    `**Risks.** ${card.risks.join('; ')}`,
    '',
  ];
  if (card.relatedWork.length > 0) {
    lines.push('**Related work and what this idea adds.**');
    for (const item of card.relatedWork) lines.push(`- ${item.item}: ${item.adds}`);
    lines.push('');
  }
  lines.push('**Novelty.**');
  for (const check of idea.novelty) {
    const closest =
      check.closest === undefined
        ? ''
        : `; closest: "${check.closest.title}" (${check.closest.source}, similarity ${check.closest.similarity})`;
    lines.push(`- ${check.against}: **${check.verdict}**${closest}. ${check.reason}`);
    if (check.difference !== undefined) lines.push(`  What the idea adds: ${check.difference}`);
    if (check.queries !== undefined && check.queries.length > 0) {
      lines.push(`  Searches: ${check.queries.map((query) => `"${query}"`).join(', ')}.`);
    }
    for (const citation of check.citations ?? []) {
      if (citation.status === 'not-found') {
        lines.push(
          `  - **Cited work not found in ${check.against}:** "${citation.item}" (${citation.reason ?? 'no match'}); check it exists before relying on it.`,
        );
      } else if (citation.status === 'unchecked') {
        lines.push(`  - Cited work not checked: "${citation.item}" (${citation.reason ?? ''}).`);
      }
    }
  }
  lines.push('');
  lines.push(...renderReview(idea));
  return lines.join('\n');
}

/** An idea's last review: the reviewers' scores with their range, agreement, the meta-review. */
function renderReview(idea: ExploredIdea): string[] {
  const review = idea.reviews.at(-1);
  if (review === undefined) return [];
  const rounds = idea.reviews.map((entry) => entry.overall.toFixed(2)).join(' → ');
  const failed = review.failed ?? [];
  const lines = [
    `**Review** (${review.reviewers} reviewer(s)${review.models === undefined ? '' : `: ${review.models.join(', ')}`}${idea.reviews.length > 1 ? `; reviewers' mean by round: ${rounds}` : ''}).`,
    '',
  ];
  if (review.agreement !== undefined) {
    lines.push(`Agreement: ${describeAgreement(review.agreement)}.`, '');
  }
  for (const entry of failed) {
    lines.push(
      `- Reviewer ${entry.reviewer} (${entry.model}) gave no valid review: ${entry.reason}`,
    );
  }
  if (failed.length > 0) lines.push('');
  const meta = review.meta;
  lines.push(
    `| aspect | criterion | reviewers' mean | scores (range) |${meta === undefined ? '' : ' meta-review |'} reasons |`,
    `| --- | --- | --- | --- |${meta === undefined ? '' : ' --- |'} --- |`,
  );
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  for (const aspect of Object.keys(reviewCriteria) as ReviewAspect[]) {
    for (const [name, criterion] of Object.entries(review.aspects[aspect].criteria)) {
      const reconciled = meta?.aspects[aspect].criteria[name];
      const metaCell =
        meta === undefined
          ? ''
          : ` ${reconciled === undefined ? '—' : `${reconciled.score}: ${cell(reconciled.reason)}`} |`;
      lines.push(
        `| ${aspectNames[aspect]} | ${name} | ${criterion.mean.toFixed(2)} | ${criterion.scores.join(', ')} (${criterion.range ?? 0}) |${metaCell} ${cell(criterion.reasons.join(' / '))} |`,
      );
    }
  }
  lines.push('');
  if (meta !== undefined) {
    lines.push(
      `**Meta-review** (${meta.model}): ${meta.overall.toFixed(2)} / 5, the idea's score. ${meta.summary}`,
      '',
    );
  }
  return lines;
}

/** ideas.md: the analysis with its citations, unverified quotes named, then the ranked cards. */
export function renderIdeasMarkdown(exploration: Exploration): string {
  const flagged = new Set(exploration.unverifiedQuotes.map((quote) => quote.where));
  const statements = (name: 'tasks' | 'gaps') =>
    exploration.analysis[name].map((statement, index) => {
      const cites = statement.citations
        .map((citation, citationIndex) => {
          const mark = flagged.has(`${name}[${index}].citations[${citationIndex}]`)
            ? ' **(quote not found in the paper)**'
            : '';
          return `${citation.paper}, §${citation.section}: “${citation.quote}”${mark}`;
        })
        .join('; ');
      return `- ${statement.statement} (${cites})`;
    });
  const lines = [
    '# Research ideas',
    '',
    `From ${exploration.papers.map((paper) => `[${paper.id}] ${paper.title} (${paper.path})`).join(', ')}.`,
    `${exploration.settings.ideas} ideas, ${exploration.settings.reviewers} independent reviewer(s) per idea${exploration.settings.reviewers > 1 ? ' and a meta-review' : ''}, ${exploration.settings.refineRounds} refinement round(s); compute: ${exploration.settings.compute}.`,
    '',
    ...(exploration.prototype === undefined
      ? []
      : [exploration.prototype.replace(/^## /, '## Grounding: '), '']),
    '## Problem analysis',
    '',
    '### Research tasks',
    ...statements('tasks'),
    '',
    '### Gaps and limitations',
    ...statements('gaps'),
    '',
    `### Keywords`,
    exploration.analysis.keywords.join(', '),
    '',
    '### Quotes',
    exploration.unverifiedQuotes.length === 0
      ? `All ${exploration.quotesChecked} quotes were found in the papers word for word.`
      : `${exploration.unverifiedQuotes.length} of ${exploration.quotesChecked} quotes were NOT found in the paper they cite; the statements are kept but rest on these unverified quotes:`,
    ...exploration.unverifiedQuotes.map(
      (quote) =>
        `- ${quote.where} (${quote.paper}, §${quote.section}): “${quote.quote}” — ${quote.reason}`,
    ),
    '',
    '# Ideas, ranked by the judge',
    '',
    ...exploration.ideas.map((idea, index) => renderIdea(idea, index + 1)),
    renderChoices(exploration.chosen ?? [], '# Why these ideas were chosen to run'),
  ];
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}
