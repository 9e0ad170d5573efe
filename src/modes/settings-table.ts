import { z } from 'zod';
import { describeNumber, valueTypeOf } from './setting-limits.js';
import { metaOf, type SettingMeta } from './setting-meta.js';
import { settingsShape, type ModeName } from './modes.js';

/** Text settings, by the placeholder of their flag's value. */
const textKinds: Record<string, string> = {
  '<path>': 'a path',
  '<dir>': 'a path',
  '<file>': 'a path',
  '<url>': 'a URL',
  '<spec>': 'a model spec (`provider:model`)',
  '<specs>': 'model specs, comma-separated',
  '<ideas>': '`top:K`, `K` or idea ids `I1,I3`',
};

/** What a setting takes, in words: a number's range, an enum's choices, or its kind. */
function takes(schema: z.ZodType, meta: SettingMeta): string {
  const type = valueTypeOf(schema);
  const number = describeNumber(type);
  if (number !== undefined) return number;
  if (type instanceof z.ZodEnum)
    return type.options.map((option) => `\`${String(option)}\``).join(', ');
  if (type instanceof z.ZodBoolean) return 'true or false';
  if (type instanceof z.ZodArray) return 'one path or more';
  if (meta.flag === undefined) return 'a path';
  return textKinds[meta.valueName ?? ''] ?? 'text';
}

/**
 * A mode's settings as a Markdown table: the MCP / HTTP key, the CLI flag, what it takes and
 * its default. The README holds one per mode (a test checks they are
 * current); `node --import tsx scripts/write-mode-fields.ts --tables` prints them.
 */
export function settingsTable(mode: ModeName): string {
  const rows = Object.entries(settingsShape(mode)).map(([key, schema]) => {
    const meta = metaOf(key, schema);
    const defaultValue: unknown = schema.safeParse(undefined).data;
    const flag =
      meta.flag === undefined
        ? `argument ${meta.argument ?? key}`
        : defaultValue === true
          ? meta.flag.replace(/^--/, '--no-')
          : meta.negatable === true
            ? `${meta.flag}, ${meta.flag.replace(/^--/, '--no-')}`
            : meta.flag;
    return [
      `\`${key}\``,
      `\`${flag}\``,
      takes(schema, meta),
      defaultValue === undefined ? '' : `\`${JSON.stringify(defaultValue)}\``,
    ];
  });
  const header = ['setting', 'CLI', 'takes', 'default'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}
