import type { z } from 'zod';
import { errorMessage } from '../../workspace/errors.js';
import { fail } from './action-result.js';
import type { ActionContext, ActionDefinition, ActionPool, ActionResult } from './types.js';

export interface ActionSpecification<Schema extends z.ZodType> {
  name: string;
  description: string;
  pool: ActionPool;
  inputSchema: Schema;
  usage: Record<string, unknown>;
  run(input: z.output<Schema>, context: ActionContext): Promise<ActionResult>;
}

/** Describes why an input does not fit a schema, field by field. */
export function describeInputProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 6)
    .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    .join('; ');
}

/**
 * Builds an action whose `run` never throws: the input is validated again (callers may
 * pass raw model input) and any error becomes an observation with the usage to follow.
 */
export function defineAction<Schema extends z.ZodType>(
  specification: ActionSpecification<Schema>,
): ActionDefinition<z.output<Schema>> {
  const { name, usage, inputSchema } = specification;
  return {
    name,
    description: specification.description,
    pool: specification.pool,
    inputSchema: inputSchema as unknown as z.ZodType<z.output<Schema>>,
    usage,
    async run(input, context) {
      const parsed = inputSchema.safeParse(input);
      if (!parsed.success) {
        return fail(name, `invalid Action Input (${describeInputProblems(parsed.error)})`, usage);
      }
      try {
        return await specification.run(parsed.data, context);
      } catch (error) {
        return fail(name, errorMessage(error), usage);
      }
    },
  };
}
