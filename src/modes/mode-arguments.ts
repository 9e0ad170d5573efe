import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors/index.js';
import { metaOf } from './setting-meta.js';
import { modes, settingsShape, type ModeName, type SettingsOf } from './modes.js';
import { SettingsError } from './settings-issues.js';

/** Checks settings from any front end against the mode's one schema; defaults filled in. */
export function parseModeSettings<Mode extends ModeName>(
  mode: Mode,
  input: unknown,
): SettingsOf<Mode> {
  const parsed = modes[mode].settings.safeParse(input);
  if (!parsed.success) throw new SettingsError(mode, parsed.error.issues);
  return parsed.data as SettingsOf<Mode>;
}

/** A path on this machine, absolute (so it cannot pass for a flag), checked when it must exist. */
function machinePath(value: string, cwd: string, mustExist: boolean): string {
  const path = isAbsolute(value) ? value : resolve(cwd, value);
  if (mustExist && !existsSync(path))
    throw new InputError(`${path} does not exist on this machine`);
  return path;
}

/** A checked setting's value as one argv element (settings hold text and numbers). */
function textOf(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new Error(`setting ${key} holds a value the CLI cannot take: ${JSON.stringify(value)}`);
}

/** The default a setting's schema fills in, if any. */
function defaultOf(schema: unknown): unknown {
  const definition = (schema as { def?: { type?: string; defaultValue?: unknown } }).def;
  return definition?.type === 'default' ? definition.defaultValue : undefined;
}

/**
 * The `codify MODE …` command line for settings given by any front end (MCP, the web app,
 * an eval suite): checked against the mode's schema, each value its own argv element (no
 * shell), paths absolute against `cwd`. Values equal to their default are left out.
 */
export function modeArguments(mode: ModeName, input: unknown, cwd: string): string[] {
  const settings = parseModeSettings(mode, input) as Record<string, unknown>;
  const shape = settingsShape(mode);
  const positional: string[] = [];
  const flags: string[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    const meta = metaOf(key, schema);
    const value = settings[key];
    if (value === undefined) continue;
    const asPath = (text: string) =>
      meta.path === undefined ? text : machinePath(text, cwd, meta.path === 'existing');
    if (meta.flag === undefined) {
      const values: unknown[] = Array.isArray(value) ? value : [value];
      positional.push(...values.map((item) => asPath(textOf(key, item))));
      continue;
    }
    if (value === defaultOf(schema)) continue;
    if (typeof value === 'boolean') {
      if (value) flags.push(meta.flag);
      else if (meta.negatable === true) flags.push(meta.flag.replace(/^--/, '--no-'));
      continue;
    }
    const text = typeof value === 'string' ? asPath(value) : textOf(key, value);
    // A value that starts with a dash is joined to its flag, so it cannot be read as one.
    flags.push(...(text.startsWith('-') ? [`${meta.flag}=${text}`] : [meta.flag, text]));
  }
  return [mode, ...positional, ...flags];
}
