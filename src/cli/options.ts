import { type Command, Option } from 'commander';
import { z } from 'zod';
import { UsageError } from '../errors/index.js';
import { paperReaderSetting } from '../modes/paper-settings.js';
import { describeNumber, valueTypeOf } from '../modes/setting-limits.js';
import { metaOf, type SettingMeta } from '../modes/setting-meta.js';
import {
  budgetSettings,
  gpuSetting,
  modelSettings,
  sandboxSettings,
} from '../modes/shared-settings.js';

/**
 * The CLI's shared flags, each declared once as a typed group that every command adds, and
 * the one parser of flag values: a value is checked by the same zod type the MCP tools, the
 * HTTP API and the eval suites check it by, and a refused one is a usage error (exit 2)
 * naming the flag.
 */

const numberText = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A refused flag value: the flag, what was given, and what the schema asks for. */
function refused(flag: string, value: string, schema: z.ZodType, error: z.ZodError): UsageError {
  const wanted = describeNumber(schema);
  if (wanted !== undefined) return new UsageError(`${flag} takes ${wanted} (got "${value}")`);
  return new UsageError(
    `${flag} ${value}: ${error.issues.map((issue) => issue.message).join('; ')}`,
  );
}

/**
 * THE number parser: decimal text only (no hex, no empty string), then the flag's zod type
 * (whole, ranges). Everything the API refuses, the flag refuses.
 */
export function parseNumberFlag(flag: string, schema: z.ZodType): (value: string) => number {
  const type = valueTypeOf(schema);
  return (value) => {
    if (!numberText.test(value.trim())) {
      throw new UsageError(`${flag} takes ${describeNumber(type) ?? 'a number'} (got "${value}")`);
    }
    const checked = type.safeParse(Number(value));
    if (!checked.success) throw refused(flag, value, type, checked.error);
    return checked.data as number;
  };
}

/** A text flag checked by its zod type (a pattern, a URL, a model spec). */
function parseTextFlag(flag: string, schema: z.ZodType): (value: string) => string {
  const type = valueTypeOf(schema);
  return (value) => {
    const checked = type.safeParse(value);
    if (!checked.success) throw refused(flag, value, type, checked.error);
    return checked.data as string;
  };
}

/** What the flag of a setting looks like in commander: kind of value, choices, default. */
function describeType(schema: z.ZodType): {
  kind: 'boolean' | 'number' | 'text' | 'choice';
  choices?: string[];
  defaultValue?: unknown;
} {
  const defaultValue = schema instanceof z.ZodDefault ? schema.def.defaultValue : undefined;
  const type = valueTypeOf(schema);
  if (type instanceof z.ZodBoolean) return { kind: 'boolean', defaultValue };
  if (type instanceof z.ZodNumber) return { kind: 'number', defaultValue };
  if (type instanceof z.ZodEnum) {
    return { kind: 'choice', choices: type.options.map(String), defaultValue };
  }
  return { kind: 'text', defaultValue };
}

/**
 * A setting's flag, whose value commander stores under the setting's key (`--budget` under
 * `budgetMinutes`), so an action reads the same names the schema, MCP and HTTP use.
 */
class SettingOption extends Option {
  constructor(
    flags: string,
    help: string,
    private readonly key: string,
  ) {
    super(flags, help);
  }

  override attributeName(): string {
    return this.key;
  }
}

/** The commander options of one setting (a boolean may have a `--no-` twin). */
export function settingOptions(key: string, schema: z.ZodType, help?: string): Option[] {
  const meta: SettingMeta = metaOf(key, schema);
  if (meta.flag === undefined) return [];
  const text = help ?? meta.help;
  const type = describeType(schema);
  if (type.kind === 'boolean') {
    const negative = meta.flag.replace(/^--/, '--no-');
    // On by default: only its `--no-` form means anything.
    if (type.defaultValue === true) return [new SettingOption(negative, text, key)];
    if (meta.negatable === true) {
      return [
        new SettingOption(meta.flag, text, key),
        new SettingOption(negative, meta.negatedHelp ?? `the opposite of ${meta.flag}`, key),
      ];
    }
    return [new SettingOption(meta.flag, text, key)];
  }
  const option = new SettingOption(`${meta.flag} ${meta.valueName ?? '<value>'}`, text, key);
  if (type.kind === 'choice') option.choices(type.choices ?? []);
  else if (type.kind === 'number') option.argParser(parseNumberFlag(meta.flag, schema));
  else option.argParser(parseTextFlag(meta.flag, schema));
  if (type.defaultValue !== undefined) option.default(type.defaultValue);
  if (meta.preset !== undefined) option.preset(meta.preset);
  return [option];
}

/** Adds the flags of the given settings, in their order. */
export function addSettingOptions(
  command: Command,
  shape: Record<string, z.ZodType>,
  help: Record<string, string> = {},
): Command {
  for (const [key, schema] of Object.entries(shape)) {
    for (const option of settingOptions(key, schema, help[key])) command.addOption(option);
  }
  return command;
}

/** `--root <dir>`: where run folders are made (`for`) or read from (`holding`). */
export function addRunFolderOption(command: Command, use: 'for' | 'holding'): Command {
  return command.addOption(runFolderOption(use));
}

/** `--json`: machine-readable output instead of the terminal's; `prints` says what. */
export function addJsonOption(command: Command, prints: string): Command {
  return command.addOption(jsonOption(prints));
}

/** Whole milliseconds above 0, checked like every other number flag. */
const timeoutMs = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The models group: `--model` and the role flags (from the settings every mode shares), then
 * where the configuration comes from, the recording and the per-call timeout.
 */
export function addModelOptions(command: Command): Command {
  addSettingOptions(command, modelSettings);
  return command
    .option('--config <file>', 'config file (default: ./codify.config.json when present)')
    .option(
      '--record <file>',
      'write every model call to this JSONL file (replay it with replay:FILE)',
    )
    .option(
      '--timeout-ms <n>',
      'per-attempt timeout for network model calls',
      parseNumberFlag('--timeout-ms', timeoutMs),
    );
}

/** A count of things: a whole number, at least 1. */
export const countSchema = z.number().int().positive();
/** An amount: any number above 0. */
export const amountSchema = z.number().positive();
/** A TCP port; 0 asks the system for a free one. */
export const portSchema = z.number().int().min(0).max(65_535);

/** The budgets group (`--max-steps`, `--max-minutes`, `--max-tokens`, `--max-cost`). */
export function addBudgetOptions(command: Command, help: Record<string, string> = {}): Command {
  return addSettingOptions(command, budgetSettings, help);
}

/** The sandbox group (`--python`, `--sandbox`, `--gpu` / `--no-gpu`); `help` says what runs there. */
export function addSandboxOptions(
  command: Command,
  help: { python: string; sandbox: string },
): Command {
  return addSettingOptions(command, { ...sandboxSettings(help), gpu: gpuSetting });
}

/** `--root <dir>` as an option to add to a chain (`.addOption(runFolderOption('holding'))`). */
export function runFolderOption(use: 'for' | 'holding'): Option {
  return new Option(
    '--root <dir>',
    `${use === 'for' ? 'folder for run folders' : 'folder holding the runs'} (default: $CODIFY_RUNS_DIR or ./runs)`,
  );
}

/** `--json` as an option to add to a chain; `prints` says what it prints. */
export function jsonOption(prints: string): Option {
  return new Option('--json', `print ${prints}`);
}

/** One budget flag (`maxSteps` → `--max-steps`) with a command's own help. */
export function budgetOption(key: keyof typeof budgetSettings, help: string): Option {
  const [option] = settingOptions(key, budgetSettings[key], help);
  if (option === undefined) throw new Error(`budget ${key} has no flag`);
  return option;
}

/** `--paper-reader <kind>`, from the paper settings, for the commands that read papers. */
export function paperReaderOption(): Option {
  const [option] = settingOptions('paperReader', paperReaderSetting);
  if (option === undefined) throw new Error('paperReader has no flag');
  return option;
}
