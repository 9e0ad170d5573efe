import type { ModelCaller } from '../llm/types.js';
import type { Run } from '../runs/run.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { askStructured } from '../repo/structured-answer.js';
import {
  unknownSections,
  unverifiedQuotes,
  type QuotablePaper,
  type UnverifiedQuote,
} from './quote-check.js';
import { analysisSchema, type ProblemAnalysis } from './schemas.js';

export interface AnalysisResult {
  analysis: ProblemAnalysis;
  /** Citations whose quote is not in the paper: kept in the output, and named there. */
  unverified: UnverifiedQuote[];
  checked: number;
}

/** The papers as the prompt shows them: an id in brackets, then the paper's text. */
export function renderPapersForPrompt(
  papers: readonly (QuotablePaper & { promptText: string })[],
): string {
  return papers
    .map((paper) => `## [${paper.id}] ${paper.title}\n\n${paper.promptText}`)
    .join('\n\n');
}

export const notesBlock = (notes: string | undefined) =>
  notes === undefined || notes.trim() === ''
    ? ''
    : `\n## The researcher's notes\n${notes.trim()}\n`;

/**
 * Stage 1: tasks, gaps and keywords, each statement citing paper, section and quote. A
 * citation of a section the paper lacks, or an answer whose quotes are mostly not in the
 * papers, is re-asked with the exact problem; the few unverified quotes that remain are
 * returned to be named in the output.
 */
export async function analyzeProblem(
  models: ModelCaller,
  papers: readonly (QuotablePaper & { promptText: string })[],
  options: { notes?: string; maxAttempts?: number } = {},
): Promise<AnalysisResult> {
  const answer = await askStructured(
    models,
    {
      role: 'planner',
      system: loadPrompt('explore-system'),
      messages: [
        {
          role: 'user',
          content: loadPrompt('explore-analysis', {
            papers: renderPapersForPrompt(papers),
            notes: notesBlock(options.notes),
          }),
        },
      ],
      label: 'explore-analysis',
      expect: 'One ```json block: tasks, gaps (each with citations) and keywords.',
    },
    analysisSchema,
    {
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      check: (analysis) => {
        const sections = unknownSections(analysis, papers);
        if (sections.length > 0) {
          return `some citations name sections that do not exist: ${sections.join('; ')}; name the section the quote is in, as headed above`;
        }
        const unverified = unverifiedQuotes(analysis, papers);
        const total = countCitations(analysis);
        if (unverified.length * 2 > total) {
          return `most quotes are not in the papers word for word (${unverified.map((quote) => quote.where).join(', ')}); copy each quote exactly from the paper it cites`;
        }
        return undefined;
      },
    },
  );
  return {
    analysis: answer.value,
    unverified: unverifiedQuotes(answer.value, papers),
    checked: countCitations(answer.value),
  };
}

function countCitations(analysis: ProblemAnalysis): number {
  return [...analysis.tasks, ...analysis.gaps].reduce(
    (sum, statement) => sum + statement.citations.length,
    0,
  );
}

/** The analysis as later prompts see it; unverified quotes are marked so. */
export function renderAnalysis(result: AnalysisResult): string {
  const flagged = new Set(result.unverified.map((quote) => quote.where));
  const list = (name: 'tasks' | 'gaps') =>
    result.analysis[name]
      .map((statement, index) => {
        const citations = statement.citations
          .map((citation, citationIndex) => {
            const mark = flagged.has(`${name}[${index}].citations[${citationIndex}]`)
              ? ' (UNVERIFIED: not found in the paper)'
              : '';
            return `[${citation.paper}, ${citation.section}: "${citation.quote}"${mark}]`;
          })
          .join(' ');
        return `- ${statement.statement} ${citations}`;
      })
      .join('\n');
  return [
    `### Research tasks\n${list('tasks')}`,
    `### Gaps and limitations\n${list('gaps')}`,
    `### Keywords\n${result.analysis.keywords.join(', ')}`,
  ].join('\n\n');
}

/**
 * Stage `analysis`: the problem analysis, with the check of its quotes against the papers
 * announced (quote-check) for the terminal and the web app.
 */
export async function analyzeAndCheckQuotes(
  models: ModelCaller,
  run: Run,
  papers: readonly (QuotablePaper & { promptText: string })[],
  notes: string | undefined,
): Promise<AnalysisResult> {
  const result = await analyzeProblem(models, papers, notes === undefined ? {} : { notes });
  run.emit({
    type: 'quote-check',
    checked: result.checked,
    unverified: result.unverified.map(({ where, paper, quote, reason }) => ({
      where,
      paper,
      quote,
      reason,
    })),
  });
  return result;
}

/** The analysis stage's line: counts, and how many quotes the papers hold word for word. */
export function describeAnalysis(result: AnalysisResult): string {
  return `${result.analysis.tasks.length} tasks, ${result.analysis.gaps.length} gaps; ${result.checked - result.unverified.length}/${result.checked} quotes found in the papers`;
}
