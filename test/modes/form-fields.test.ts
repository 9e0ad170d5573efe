import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formFields } from '../../src/modes/form-fields.js';
import { parseModeSettings } from '../../src/modes/mode-arguments.js';
import { modeFieldsFile, modeFieldsText } from '../../scripts/write-mode-fields.js';

describe("the web start form's fields", () => {
  it('are what the settings schemas say (run scripts/write-mode-fields.ts after changing them)', () => {
    expect(readFileSync(modeFieldsFile, 'utf8')).toBe(modeFieldsText());
  });

  it("carry each setting's limits and default, which the schema itself enforces", () => {
    const ideas = formFields('explore').find((field) => field.key === 'ideas');
    expect(ideas).toMatchObject({ kind: 'integer', min: 1, max: 20, default: 5 });
    expect(() => parseModeSettings('explore', { papers: ['p.md'], ideas: 21 })).toThrow(
      'ideas (--ideas): takes a whole number from 1 to 20',
    );
    const steps = formFields('implement').find((field) => field.key === 'maxSteps');
    expect(steps).toMatchObject({ kind: 'integer', min: 1 });
    expect(formFields('implement')[0]).toMatchObject({ key: 'task', aria: 'path', required: true });
  });
});
