import { describe, expect, it } from 'vitest';
import { parseCover } from './trace-cover.js';
import { lineRanges, summarizeTrace } from './trace-summary.js';

describe('trace summaries', () => {
  it('reads counts and never-ran lines from a .cover file', () => {
    const cover = ['    1: import os', '       ', '   12:     x += 1', '>>>>>>     y = 2', ''].join(
      '\n',
    );
    const trace = parseCover(cover, '/w/a_execution_trace.cover');
    expect(trace.counts).toEqual({ 1: 1, 3: 12 });
    expect(trace.neverRan).toEqual([4]);
  });

  it('groups lines into ranges', () => {
    expect(lineRanges([52, 40, 41, 42, 77, 41])).toBe('40-42, 52, 77');
    expect(lineRanges([])).toBe('');
  });

  it('says when everything ran and when changed lines did not', () => {
    const all = summarizeTrace({ coverPath: 'c', counts: { 1: 1, 2: 3 }, neverRan: [] });
    expect(all).toContain('all 2 executable lines ran');
    const some = summarizeTrace(
      { coverPath: 'c', counts: { 1: 1, 2: 1 }, neverRan: [40, 41, 42, 77] },
      { changedLines: [2, 41, 42, 43] },
    );
    expect(some).toContain('2 of 6 executable lines ran; lines 40-42, 77 never ran');
    expect(some).toContain(
      'New or changed lines that never ran: 41-42. New or changed lines that ran: 2.',
    );
  });
});
