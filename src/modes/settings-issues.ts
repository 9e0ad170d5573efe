import type { z } from 'zod';
import { UsageError } from '../errors/index.js';
import { describeNumber } from './setting-limits.js';
import { metaOf } from './setting-meta.js';
import { settingsShape, type ModeName } from './modes.js';

/** How a setting is named to whoever gave it: its key, and its flag when it has one. */
export function settingName(mode: ModeName, key: string): string {
  const schema = settingsShape(mode)[key];
  if (schema === undefined) return key;
  const meta = metaOf(key, schema);
  return meta.flag === undefined ? key : `${key} (${meta.flag})`;
}

/** Settings a front end gave that the mode's schema refuses; the message names each one. */
export class SettingsError extends UsageError {
  constructor(
    readonly mode: ModeName,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(
      `codify ${mode}: ${issues
        .map((issue) => {
          const key = issue.path[0];
          if (issue.code === 'unrecognized_keys') {
            return `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
          }
          // A rule across settings names the settings itself.
          if (typeof key !== 'string' || issue.code === 'custom') return issue.message;
          const schema = settingsShape(mode)[key];
          const wanted = schema === undefined ? undefined : describeNumber(schema);
          const numeric = issue.code === 'too_small' || issue.code === 'too_big';
          const text =
            wanted !== undefined && (numeric || issue.code === 'invalid_type')
              ? `takes ${wanted}`
              : issue.message;
          return `${settingName(mode, key)}: ${text}`;
        })
        .join('; ')}`,
    );
  }
}
