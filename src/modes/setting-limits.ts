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
  const { minimum, exclusiveMinimum } = limits;
  const maximum =
    limits.maximum !== undefined && limits.maximum < Number.MAX_SAFE_INTEGER
      ? limits.maximum
      : undefined;
  if (minimum !== undefined && maximum !== undefined)
    return `${kind} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `${kind} ${minimum} or more`;
  const above = exclusiveMinimum === undefined ? '' : ` above ${exclusiveMinimum}`;
  return `${kind}${above}${maximum === undefined ? '' : ` up to ${maximum}`}`;
}
