import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modeNames } from '../../src/modes/modes.js';
import { settingsTable } from '../../src/modes/settings-table.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe("the README's settings tables", () => {
  // Each table lists every setting of the mode with its flag, limits and default, from the schema.
  it.each(modeNames)(
    'hold every setting of %s as its schema declares it (print them: node --import tsx scripts/write-mode-fields.ts --tables)',
    (mode) => {
      expect(readme).toContain(settingsTable(mode));
    },
  );
});
