import type { Suite } from './suite.js';

/** The suite with every task item run on `seeds` (`codify eval --seeds`, which beats the file's). */
export function withSeeds(suite: Suite, seeds: number[] | undefined): Suite {
  if (seeds === undefined) return suite;
  return {
    ...suite,
    items: suite.items.map((item) => (item.kind === 'task' ? { ...item, seeds } : item)),
  };
}
