import type { NoveltyCheck } from './novelty.js';
import type { UnverifiedQuote } from './quote-check.js';
import type { RelatedItem } from './related-work.js';
import type { AveragedReview } from './review.js';
import type { IdeaChoice } from './review-choice.js';
import type { IdeaCard, ProblemAnalysis } from './schemas.js';

export interface ExploredIdea {
  /** I1, I2, … in the order the ideas were generated. */
  id: string;
  card: IdeaCard;
  /** Each refinement round's card, before it was revised (empty when not refined). */
  earlierVersions: IdeaCard[];
  /** One averaged review per round: the first of the generated card, the last of `card`. */
  reviews: AveragedReview[];
  /** The last review's overall mean, 1–5. */
  score: number;
  novelty: NoveltyCheck[];
}

/** What ideas.json holds. */
export interface Exploration {
  papers: { id: string; title: string; path: string; format: string }[];
  notes?: string;
  related: RelatedItem[];
  analysis: ProblemAnalysis;
  quotesChecked: number;
  unverifiedQuotes: UnverifiedQuote[];
  settings: {
    ideas: number;
    reviewers: number;
    refineRounds: number;
    compute: string;
    literature?: string;
    /** Works a novelty check compared below which it said `unknown` (older runs: absent). */
    noveltyMinWorks?: number;
  };
  /** Grounding (`--code`): the prototype summary every idea stage saw. */
  prototype?: string;
  /** Ranked by the judge's score, best first (experiments, when run, rank by measurement). */
  ideas: ExploredIdea[];
  /** Reviews part: with `--run`, the ideas it takes and why (the gate may change them; report.md says). */
  chosen?: IdeaChoice[];
}
