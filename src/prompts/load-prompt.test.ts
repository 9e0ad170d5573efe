import { describe, expect, it } from 'vitest';
import { fillTemplate, loadPrompt } from './load-prompt.js';

// Templates in memory: a test must not write into prompts/, which other tests read and copy.
const greeting = 'Hello {{who}}, use {{ tool }}.';

describe('loadPrompt', () => {
  it('fills named slots', () => {
    expect(
      fillTemplate(greeting, 'greeting', { who: 'agent', tool: 'List Files', extra: 'x' }),
    ).toBe('Hello agent, use List Files.');
  });
  it('names a missing slot', () => {
    expect(() => fillTemplate(greeting, 'greeting', { who: 'agent' })).toThrow(
      'prompts/greeting.md needs the slot {{tool}}',
    );
  });
  it('reads a prompt of the prompts folder', () => {
    expect(loadPrompt('explore-grounded-plan')).toContain('runsOnPrototype');
  });
  it('fails on an unknown prompt', () => {
    expect(() => loadPrompt('no-such-prompt')).toThrow();
  });
});
