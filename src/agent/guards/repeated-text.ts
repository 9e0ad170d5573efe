export interface RepetitionLimits {
  /** A tail that repeats with one period must cover at least this many characters... */
  minimumLoopChars: number;
  /** ...and repeat at least this many times. */
  minimumRepeats: number;
  /** The same non-blank line this many times in a row is a loop too. */
  maximumSameLines: number;
}

export const defaultRepetitionLimits: RepetitionLimits = {
  minimumLoopChars: 600,
  minimumRepeats: 5,
  maximumSameLines: 12,
};

/** Longest periods checked; a loop of longer blocks is rare and costly to look for. */
const maximumPeriod = 2000;

/**
 * Finds the degenerate output of a model stuck in a loop: text whose tail repeats one block
 * over and over, or one line said many times in a row. Returns a reason, or undefined.
 */
export function findRepetition(
  text: string,
  limits: RepetitionLimits = defaultRepetitionLimits,
): string | undefined {
  const length = text.length;
  const longestPeriod = Math.min(maximumPeriod, Math.floor(length / limits.minimumRepeats));
  for (let period = 1; period <= longestPeriod; period += 1) {
    let index = length - 1 - period;
    while (index >= 0 && text[index] === text[index + period]) index -= 1;
    const span = length - 1 - index;
    if (span >= limits.minimumLoopChars && span >= period * limits.minimumRepeats) {
      const block = text
        .slice(length - period)
        .trim()
        .slice(0, 80);
      return `your answer repeats itself: the block "${block}" comes ${Math.floor(span / period)} times in a row`;
    }
  }
  let previous = '';
  let run = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    run = trimmed !== '' && trimmed === previous ? run + 1 : 1;
    previous = trimmed;
    if (run >= limits.maximumSameLines && trimmed.length >= 4) {
      return `your answer repeats itself: the line "${trimmed.slice(0, 80)}" comes ${run} times in a row`;
    }
  }
  return undefined;
}
