import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { configFileSchema, type ConfigFile } from './config-file-schema.js';

export const configFileName = 'codify.config.json';

/** `roles.planner.models[1]` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text === '' ? '(top level)' : text;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type') {
    return `expected ${issue.expected}`;
  }
  return issue.message;
}

/**
 * Reads the config file named by --config, or codify.config.json in cwd when present.
 * Returns undefined when no file was named and none exists.
 */
export function readConfigFile(
  cwd: string,
  configPath: string | undefined,
): { file: string; config: ConfigFile } | undefined {
  const file = resolve(cwd, configPath ?? configFileName);
  if (configPath === undefined && !existsSync(file)) return undefined;
  const label = configPath === undefined ? configFileName : configPath;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`--config ${configPath ?? file}: cannot read the file (${reason})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${label}: not valid JSON: ${reason}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `${label}: ${formatPath(issue.path)}: ${describeIssue(issue)}`,
    );
    throw new ConfigError(lines.join('\n'));
  }
  return { file, config: parsed.data };
}
