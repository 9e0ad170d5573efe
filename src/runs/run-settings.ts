import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/codify-error.js';
import type { RunMode } from './events.js';

export const runSettingsFile = 'settings.json';

/** Writes `settings.json`: what the run was started with, so a resume repeats it exactly. */
export function saveRunSettings(runDir: string, mode: RunMode, settings: unknown): void {
  writeFileSync(join(runDir, runSettingsFile), `${JSON.stringify({ mode, settings }, null, 2)}\n`);
}

/** The settings a run was started with; an InputError when the run has none or another mode's. */
export function readRunSettings(runDir: string, mode: RunMode): unknown {
  const path = join(runDir, runSettingsFile);
  if (!existsSync(path)) {
    throw new InputError(
      `${runDir} has no ${runSettingsFile}; it was not started by this codify and cannot be resumed`,
    );
  }
  const saved = JSON.parse(readFileSync(path, 'utf8')) as { mode?: unknown; settings?: unknown };
  if (saved.mode !== mode) {
    throw new InputError(`${runDir} is a ${String(saved.mode)} run, not ${mode}`);
  }
  return saved.settings;
}
