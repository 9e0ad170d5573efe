import { describe, expect, it } from 'vitest';
import { squashText } from './quote-check.js';

describe('squashText: what a quote is compared by', () => {
  it('ignores case, line breaks and punctuation, full stops included, but keeps decimal points', () => {
    const paper = 'We train for 10 epochs.\nThe rate is 0.1, as in\n[3].';
    expect(squashText(paper)).toBe('we train for 10 epochs the rate is 0.1 as in 3');
    expect(squashText(paper)).toContain(squashText('epochs The rate is 0.1 as in'));
    expect(squashText('Epochs. the rate')).toBe(squashText('epochs; The RATE'));
  });
});
