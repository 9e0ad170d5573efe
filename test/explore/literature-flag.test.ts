import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addModeOptions } from '../../src/cli/mode-options.js';

function parse(args: string[]): Record<string, unknown> {
  const command = addModeOptions(new Command('explore'), 'explore')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(['node', 'codify', ...args]);
  return command.opts();
}

describe('--literature and --novelty-min-works', () => {
  it('takes OpenAlex when the flag is given alone, and a named service otherwise', () => {
    expect(parse(['paper.md', '--literature']).literature).toBe('openalex');
    expect(parse(['paper.md', '--literature', 'arxiv']).literature).toBe('arxiv');
    expect(parse(['paper.md']).literature).toBeUndefined();
    expect(() => parse(['paper.md', '--literature', 'google'])).toThrow(/google/);
  });

  it('defaults the works a novelty verdict needs to 10', () => {
    expect(parse(['paper.md']).noveltyMinWorks).toBe(10);
    expect(parse(['paper.md', '--novelty-min-works', '25']).noveltyMinWorks).toBe(25);
    expect(() => parse(['paper.md', '--novelty-min-works', '0'])).toThrow();
  });
});
