import { z } from 'zod';

/** The zod type under `.optional()` / `.default()`: what a given value is checked by. */
export function valueTypeOf(schema: z.ZodType): z.ZodType {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

interface JsonSchemaLimits {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  pattern?: string;
}

/** A setting's type and limits as JSON Schema (zod's own rendering), for forms and messages. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchemaLimits & Record<string, unknown> {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchemaLimits &
    Record<string, unknown>;
}

/** What a number setting takes, in words: "a whole number from 1 to 20", "a number above 0". */
export function describeNumber(schema: z.ZodType): string | undefined {
  const limits = jsonSchemaOf(schema);
  if (limits.type !== 'integer' && limits.type !== 'number') return undefined;
  const kind = limits.type === 'integer' ? 'a whole number' : 'a number';
  const low =
    limits.exclusiveMinimum !== undefined
      ? { text: `above ${limits.exclusiveMinimum}`, value: limits.exclusiveMinimum }
      : limits.minimum !== undefined
        ? { text: `from ${limits.minimum}`, value: limits.minimum }
        : undefined;
  const high =
    limits.maximum !== undefined && limits.maximum < Number.MAX_SAFE_INTEGER
      ? `${low?.text.startsWith('from') === true ? 'to' : 'up to'} ${limits.maximum}`
      : undefined;
  if (low === undefined && high === undefined) return kind;
  if (high === undefined)
    return `${kind} ${low?.text.startsWith('from') === true ? `${low.value} or more` : low?.text}`;
  return [kind, low?.text, high].filter((part) => part !== undefined).join(' ');
}
