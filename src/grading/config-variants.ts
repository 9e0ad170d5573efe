import { diffLines } from 'diff';
import { parse } from 'yaml';
import type { SourceFile } from './source-file.js';

/**
 * A configuration variant beside the base one: `configs/<name>.yaml` (one per experiment)
 * or `config_smoke.yaml`, next to `config.yaml`.
 */
const variantPath = /^(configs\/[^/]+|config_smoke)\.ya?ml$/;

/**
 * One variant as the lines that differ from the base configuration, each with its line
 * number in the variant (`+ 12: alpha: 1.0`) or in the base (`- 12: alpha: 0.2`). The view
 * for a variant that is not a YAML mapping.
 */
export function variantChanges(base: string, variant: string): string {
  const lines: string[] = [];
  let baseLine = 1;
  let variantLine = 1;
  for (const part of diffLines(base, variant)) {
    const partLines = part.value.replace(/\n$/, '').split('\n');
    if (part.added === true) {
      for (const line of partLines) lines.push(`+ ${variantLine++}: ${line}`);
    } else if (part.removed === true) {
      for (const line of partLines) lines.push(`- ${baseLine++}: ${line}`);
    } else {
      baseLine += partLines.length;
      variantLine += partLines.length;
    }
  }
  return lines.join('\n');
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A mapping's settings under dotted keys; a list, a scalar or an empty mapping is one value. */
function settings(value: Record<string, unknown>, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, inner] of Object.entries(value)) {
    if (isMapping(inner) && Object.keys(inner).length > 0) {
      for (const [dotted, shown] of settings(inner, `${prefix}${key}.`)) found.set(dotted, shown);
    } else found.set(`${prefix}${key}`, JSON.stringify(inner));
  }
  return found;
}

/**
 * config.yaml's value beside a change: whole when short; a long list or mapping by its size
 * only (the judge reads config.yaml itself), so ten variants of one ablation list do not
 * repeat that list ten times.
 */
function briefly(shown: string): string {
  if (shown.length <= longValueChars) return shown;
  return sizeOf(JSON.parse(shown) as unknown) ?? `${shown.slice(0, 100)}…`;
}

/** Past this many characters of JSON, a setting's value is named by its size. */
export const longValueChars = 120;

/** A list or mapping by its size ("a list of 10 items"); undefined for anything else. */
export function sizeOf(value: unknown): string | undefined {
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (isMapping(value)) return `a mapping of ${Object.keys(value).length} keys`;
  return undefined;
}

function parsedMapping(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parse(text);
    return isMapping(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One variant as the settings it changes, one line per dotted key with config.yaml's value
 * beside it, after the variant's own opening comment (which names the experiment).
 * Undefined when either file is not a YAML mapping. A per-setting view stays short where a
 * line diff repeats a whole list for one changed element.
 */
export function settingChanges(base: string, variant: string): string | undefined {
  const baseMapping = parsedMapping(base);
  const variantMapping = parsedMapping(variant);
  if (baseMapping === undefined || variantMapping === undefined) return undefined;
  const before = settings(baseMapping);
  const after = settings(variantMapping);
  const lines: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) lines.push(`${key}: ${value} (not in config.yaml)`);
    else if (old !== value) lines.push(`${key}: ${value} (config.yaml: ${briefly(old)})`);
  }
  for (const [key, old] of before)
    if (!after.has(key)) lines.push(`${key}: not set (config.yaml: ${briefly(old)})`);
  const opening: string[] = [];
  for (const line of variant.split('\n')) {
    if (!line.startsWith('#')) break;
    opening.push(line);
  }
  const changes = lines.length === 0 ? ['(no setting differs)'] : lines;
  return [...opening, ...changes].join('\n');
}

/** The note above a variant's changes, by how they are shown and who reads them. */
const variantNotes = {
  settings: {
    judge:
      "(on disk a whole YAML file, config.yaml with these settings changed; shown here as the changes only, config.yaml's value beside each)",
    writer:
      '(settings changed from config.yaml, with its value beside each; the rest as in config.yaml)',
  },
  lines: {
    judge:
      '(on disk a whole file, config.yaml with these lines changed; shown here as the changes only, "-" config.yaml\'s line and "+" this file\'s)',
    writer:
      '(config.yaml with these lines changed, "-" its line and "+" this file\'s; every other line is as in config.yaml)',
  },
} as const;

/**
 * A variant as a judge or a later stage reads it: its changed settings when both files are
 * YAML mappings, its changed lines otherwise; each under a note saying so. `onDisk` (the
 * judge's view of a repository's files) adds that the file itself is whole, so a judge does
 * not take the view for a file that lacks the other settings.
 */
export function variantView(
  base: string,
  variant: string,
  options: { onDisk?: boolean } = {},
): string {
  const bySetting = settingChanges(base, variant);
  const reader = options.onDisk === true ? 'judge' : 'writer';
  return bySetting === undefined
    ? `${variantNotes.lines[reader]}\n${variantChanges(base, variant)}`
    : `${variantNotes.settings[reader]}\n${bySetting}`;
}

/**
 * The repository's files with each configuration variant shown as its changes from
 * `config.yaml` (paper mode writes one variant per experiment and the smoke run, each a copy
 * of `config.yaml` with a few settings overridden): the judge reads the base once and every
 * variant's own settings, not the same settings again for every experiment. A variant whose
 * changes would not be shorter than the file stays whole.
 */
export function withVariantsAsChanges(files: readonly SourceFile[]): SourceFile[] {
  const base = files.find((file) => file.path === 'config.yaml');
  if (base === undefined) return [...files];
  return files.map((file) => {
    if (!variantPath.test(file.path.replaceAll('\\', '/'))) return file;
    const content = variantView(base.content, file.content, { onDisk: true });
    return content.length < file.content.length ? { path: file.path, content } : file;
  });
}
