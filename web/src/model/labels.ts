import type { NoveltyCheck } from '../../../src/explore/novelty.js';

/** A key as a person reads it: `experimentPlan` → `Experiment plan`, `five-seeds` → `Five seeds`. */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The works a card cites that the literature service could not find (to check by hand). */
export function unfoundCitations(check: NoveltyCheck): string[] {
  return (check.citations ?? [])
    .filter((citation) => citation.status === 'not-found')
    .map((citation) => citation.item);
}

/**
 * A novelty check in one line that names the closest work once: `overlaps · closest of 12:
 * “Title” (similarity 0.61)`; the reason only where it says something the line does not (an
 * unknown verdict's cause).
 */
export function noveltyLine(check: NoveltyCheck): { verdict: string; detail: string } {
  const closest =
    check.closest === undefined
      ? ''
      : ` · closest of ${check.compared}: “${check.closest.title}” (similarity ${check.closest.similarity.toFixed(2)})`;
  const reasonRepeats = check.closest !== undefined && check.reason.includes(check.closest.title);
  const adds = check.difference === undefined ? '' : ` — the idea adds: ${check.difference}`;
  return {
    verdict: check.verdict,
    detail: `${closest}${reasonRepeats || check.reason === '' ? '' : ` — ${check.reason}`}${adds}`,
  };
}
