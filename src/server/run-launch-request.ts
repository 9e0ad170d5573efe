import { CodifyError } from '../errors/index.js';
import { modeArguments } from '../modes/mode-arguments.js';
import { isModeName, type SettingsInputOf } from '../modes/modes.js';
import { HttpError } from './http-error.js';

/**
 * POST /api/runs: the mode and its settings, exactly as the MCP start tools take them (the
 * mode's one settings schema): `{"mode": "implement", "task": "…", "maxSteps": 30}`.
 */
export type RunLaunchRequest =
  | ({ mode: 'implement' } & SettingsInputOf<'implement'>)
  | ({ mode: 'paper' } & SettingsInputOf<'paper'>)
  | ({ mode: 'explore' } & SettingsInputOf<'explore'>);

/**
 * Checks a start request against its mode's settings schema and turns it into the CLI's
 * arguments: every value its own argv element (no shell), paths made absolute and checked on
 * this machine, so none can pass for a flag. A refused request is a 400 naming the setting.
 */
export function launchArguments(body: unknown, workingDirectory: string): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(
      400,
      'send a JSON object: {"mode": "implement" | "paper" | "explore", …the settings of the mode}',
    );
  }
  const { mode, ...settings } = body as Record<string, unknown>;
  if (!isModeName(mode)) throw new HttpError(400, 'mode must be "implement", "paper" or "explore"');
  try {
    return modeArguments(mode, settings, workingDirectory);
  } catch (error) {
    if (error instanceof CodifyError) throw new HttpError(400, error.message);
    throw error;
  }
}
