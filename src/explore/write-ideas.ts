import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Run } from '../runs/run.js';
import type { AnalysisResult } from './analysis.js';
import type { Exploration, ExploredIdea } from './exploration.js';
import type { ExploreInputs } from './explore-inputs.js';
import type { ExploreSettings } from './explore-settings.js';
import type { FittedPaper } from './ingest-papers.js';
import { defaultNoveltyMinWorks } from './novelty.js';
import { renderIdeasMarkdown } from './render-ideas.js';
import { explainChoices } from './review-choice.js';

/** ideas.json and ideas.md in the run folder. */
export interface IdeasFiles {
  ideasJson: string;
  ideasMarkdown: string;
}

/** What ideas.json holds: the inputs, the analysis and the ideas ranked by the judge. */
export function rankedExploration(
  papers: readonly FittedPaper[],
  inputs: Pick<ExploreInputs, 'notes' | 'related'>,
  analysis: AnalysisResult,
  ideas: readonly ExploredIdea[],
  settings: ExploreSettings,
  compute: string,
): Exploration {
  const ranked = [...ideas].sort((first, second) => second.score - first.score);
  return {
    papers: papers.map(({ id, title, path, format }) => ({ id, title, path, format })),
    ...(inputs.notes === undefined ? {} : { notes: inputs.notes.path }),
    related: inputs.related,
    analysis: analysis.analysis,
    quotesChecked: analysis.checked,
    unverifiedQuotes: analysis.unverified,
    settings: {
      ideas: settings.ideas,
      reviewers: settings.reviewers,
      refineRounds: settings.refineRounds,
      compute,
      ...(settings.literature === undefined ? {} : { literature: settings.literature.service }),
      noveltyMinWorks: settings.noveltyMinWorks ?? defaultNoveltyMinWorks,
    },
    // Stable: ideas with equal scores keep their generated order.
    ideas: ranked,
    ...(settings.experiments === undefined
      ? {}
      : { chosen: explainChoices(settings.experiments.select, ranked) }),
  };
}

/** Writes ideas.json and ideas.md (before any experiment, so a stop leaves them on disk). */
export function writeIdeas(run: Run, exploration: Exploration): IdeasFiles {
  const ideasJson = join(run.dir, 'ideas.json');
  const ideasMarkdown = join(run.dir, 'ideas.md');
  writeFileSync(ideasJson, `${JSON.stringify(exploration, null, 2)}\n`);
  run.emit({ type: 'artifact-write', path: ideasJson, kind: 'ideas' });
  writeFileSync(ideasMarkdown, renderIdeasMarkdown(exploration));
  run.emit({ type: 'artifact-write', path: ideasMarkdown, kind: 'ideas' });
  return { ideasJson, ideasMarkdown };
}
