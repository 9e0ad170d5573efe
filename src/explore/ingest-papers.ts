import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { fitDocument } from '../reader/fit-document.js';
import { readPaperWithModel } from '../reader/read-paper-with-model.js';
import type { Run } from '../runs/run.js';
import type { ExploreInputs } from './explore-inputs.js';
import { readExploreInputs } from './explore-inputs.js';
import type { ExploreSettings } from './explore-settings.js';

/** A paper as the prompts get it: its text fitted to the budget, long sections summarized. */
export interface FittedPaper {
  id: string;
  title: string;
  path: string;
  format: string;
  headings: string[];
  fullText: string;
  promptText: string;
  abstract: string;
}

/**
 * Stage `ingest`: the papers, read by the model inside the run with `--paper-reader model`
 * (logged, so paid once), each fitted to its share of `paperMaxChars` by summarizing long
 * sections.
 */
export async function ingestPapers(
  models: ModelCaller,
  run: Run,
  settings: ExploreSettings,
  checked: ExploreInputs,
): Promise<FittedPaper[]> {
  const inputs =
    settings.paperReader === 'model'
      ? await readExploreInputs(settings, (path) =>
          readPaperWithModel(path, models, { emit: (event) => run.emit(event) }),
        )
      : checked;
  const perPaper = Math.max(2000, Math.floor(settings.paperMaxChars / inputs.papers.length));
  const fitted: FittedPaper[] = [];
  for (const paper of inputs.papers) {
    const view = await fitDocument(paper.document, {
      maxChars: perPaper,
      summarize: async (text, heading) =>
        (
          await models.call({
            role: 'summarizer',
            messages: [
              {
                role: 'user',
                content: loadPrompt('repo-summarize-section', { heading, text, words: '250' }),
              },
            ],
            label: `summarize ${paper.id} ${heading}`,
            expect: 'A dense summary of the section, at most 250 words.',
          })
        ).text,
    });
    fitted.push({
      id: paper.id,
      title: paper.document.title || paper.path,
      path: paper.path,
      format: paper.document.source.format,
      headings: paper.document.sections.map((section) => section.heading),
      fullText: view.fullText,
      promptText: view.text,
      abstract: paper.document.abstract || view.fullText.slice(0, 2000),
    });
  }
  return fitted;
}

/** The ingest stage's line: what was read. */
export function describeIngest(papers: readonly FittedPaper[], inputs: ExploreInputs): string {
  return `${papers.length} paper(s), ${inputs.related.length} related item(s)${inputs.notes === undefined ? '' : ', notes'}`;
}
