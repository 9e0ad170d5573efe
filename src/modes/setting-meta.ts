import { z } from 'zod';

/** The groups a mode's settings fall in; the CLI help, the README and the web form follow them. */
export const settingGroups = [
  'input',
  'run',
  'budgets',
  'sandbox',
  'models',
  'experiments',
] as const;
export type SettingGroup = (typeof settingGroups)[number];

/**
 * What a front end needs to know of one setting besides its zod type: how the CLI spells it,
 * what its help says, where it belongs. Limits and defaults are read from the zod type itself.
 */
export interface SettingMeta {
  /** The CLI flag (`--max-steps`); absent for the positional input. */
  flag?: string;
  /** The positional argument's name in the CLI usage (`<task>`, `[papers...]`). */
  argument?: string;
  /** The placeholder of the flag's value in the help (`<n>`, `<dir>`). */
  valueName?: string;
  help: string;
  group: SettingGroup;
  /**
   * A path on the machine that runs codify: made absolute against the caller's folder before
   * it reaches the CLI (so it cannot pass for a flag); `existing` ones must exist.
   */
  path?: 'existing' | 'new';
  /**
   * A boolean that defaults to on is written `--no-verify`; one left unset means "the
   * configuration decides" gets both `--gpu` and `--no-gpu`.
   */
  negatable?: boolean;
  /** The value a flag given without one takes (its valueName is then `[optional]`). */
  preset?: string;
  /** The help of the `--no-` flag of a negatable setting. */
  negatedHelp?: string;
  /** The eval suite's key, when not the snake_case of the setting's. */
  suiteKey?: string;
  /** The web start form shows it, with this label (and this accessible name, when shorter). */
  form?: { label: string; aria?: string; placeholder?: string };
}

/** Where every setting's meta is kept: zod's own registry, typed. */
export const settingMeta = z.registry<SettingMeta>();

/** A setting: its zod type with the meta front ends derive flags, help and fields from. */
export function setting<Schema extends z.ZodType>(schema: Schema, meta: SettingMeta): Schema {
  settingMeta.add(schema, meta);
  return schema;
}

/** The meta of a setting declared with `setting()`; throws for one declared without. */
export function metaOf(key: string, schema: z.ZodType): SettingMeta {
  const meta = settingMeta.get(schema);
  if (meta === undefined) throw new Error(`setting ${key} was declared without setting()`);
  return meta;
}
