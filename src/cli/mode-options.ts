import type { Command } from 'commander';
import { metaOf } from '../modes/setting-meta.js';
import { modelSettings } from '../modes/shared-settings.js';
import { settingsShape, type ModeName } from '../modes/modes.js';
import { addModelOptions, addSettingOptions } from './options.js';

/**
 * `codify MODE`'s argument and flags, derived from the mode's settings schema: its input as
 * the positional argument, each other setting as its flag, then the models group.
 */
export function addModeOptions(command: Command, mode: ModeName): Command {
  const shape = settingsShape(mode);
  const flags: typeof shape = {};
  for (const [key, schema] of Object.entries(shape)) {
    const meta = metaOf(key, schema);
    if (meta.flag === undefined) command.argument(meta.argument ?? `<${key}>`, meta.help);
    else if (!Object.hasOwn(modelSettings, key)) flags[key] = schema;
  }
  return addModelOptions(addSettingOptions(command, flags));
}
