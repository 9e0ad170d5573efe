import { writeFileSync, rmSync } from 'node:fs';
import { describe, expect, it, afterAll } from 'vitest';
import { loadPrompt, promptsDirectory } from './load-prompt.js';

const name = `zz-test-${process.pid}`;
const path = `${promptsDirectory}${name}.md`;
writeFileSync(path, 'Hello {{who}}, use {{ tool }}.');
afterAll(() => rmSync(path, { force: true }));

describe('loadPrompt', () => {
  it('fills named slots', () => {
    expect(loadPrompt(name, { who: 'agent', tool: 'List Files', extra: 'x' })).toBe(
      'Hello agent, use List Files.',
    );
  });
  it('names a missing slot', () => {
    expect(() => loadPrompt(name, { who: 'agent' })).toThrow('{{tool}}');
  });
  it('fails on an unknown prompt', () => {
    expect(() => loadPrompt('no-such-prompt')).toThrow();
  });
});
