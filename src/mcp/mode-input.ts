import type { z } from 'zod';
import { metaOf } from '../modes/setting-meta.js';
import { settingsShape, type ModeName } from '../modes/modes.js';

/** How a setting reads to a client that has no `--help`: its help, and its flag for reference. */
function description(key: string, schema: z.ZodType): string {
  const meta = metaOf(key, schema);
  if (meta.flag === undefined) {
    return `${meta.help} (absolute, or relative to the server folder)`;
  }
  const defaultOn = schema.safeParse(undefined).data === true;
  if (defaultOn) return `false: ${meta.help} (\`${meta.flag.replace(/^--/, '--no-')}\`)`;
  return `${meta.help} (\`${meta.flag}\`)`;
}

/**
 * A start tool's input schema: the mode's settings, each described for the client. The tool
 * then checks the whole input against the mode's schema (the rules across settings, such as
 * run needing code) as it builds the command line.
 */
export function modeInputShape(mode: ModeName): Record<string, z.ZodType> {
  return describedShape(settingsShape(mode));
}

/** Settings as tool inputs, each with its description. */
export function describedShape<Shape extends Record<string, z.ZodType>>(shape: Shape): Shape {
  return Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => [key, schema.describe(description(key, schema))]),
  ) as Shape;
}
