import type { z } from 'zod';
import { exploreSettings } from './explore-settings.js';
import { implementSettings } from './implement-settings.js';
import { paperSettings } from './paper-settings.js';

/**
 * The modes a front end can start, each with the one schema of its settings: the CLI's
 * flags and help, the MCP tools' inputs, the HTTP launch request, the eval suite's items and
 * the web form's fields are all derived from it.
 */
export const modes = {
  implement: { settings: implementSettings, input: 'task' },
  paper: { settings: paperSettings, input: 'paper' },
  explore: { settings: exploreSettings, input: 'papers' },
} as const;

export type ModeName = keyof typeof modes;
export const modeNames = Object.keys(modes) as ModeName[];

export type SettingsOf<Mode extends ModeName> = z.infer<(typeof modes)[Mode]['settings']>;

/** The zod types of a mode's settings, key by key. */
export function settingsShape(mode: ModeName): Record<string, z.ZodType> {
  return modes[mode].settings.shape;
}

export const isModeName = (value: unknown): value is ModeName =>
  typeof value === 'string' && Object.hasOwn(modes, value);

/** What a front end sends for a mode: its settings, defaults left out. */
export type SettingsInputOf<Mode extends ModeName> = z.input<(typeof modes)[Mode]['settings']>;
