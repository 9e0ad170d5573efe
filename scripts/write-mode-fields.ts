// Writes web/src/model/mode-fields.json: the start form's fields and limits, derived from the
// modes' settings schemas (src/modes), as JSON the web app imports without bundling zod.
// test/modes/form-fields.test.ts fails while the file is not what this script would write.
// With --tables it prints the README's settings tables instead.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allFormFields } from '../src/modes/form-fields.js';
import { modeNames } from '../src/modes/modes.js';
import { settingsTable } from '../src/modes/settings-table.js';

export const modeFieldsFile = fileURLToPath(
  new URL('../web/src/model/mode-fields.json', import.meta.url),
);

export const modeFieldsText = (): string => `${JSON.stringify(allFormFields(), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--tables')) {
    // The README's settings tables, one per mode.
    for (const mode of modeNames) process.stdout.write(`${mode}:\n\n${settingsTable(mode)}\n\n`);
  } else {
    writeFileSync(modeFieldsFile, modeFieldsText());
    process.stdout.write(`wrote ${modeFieldsFile}\n`);
  }
}
