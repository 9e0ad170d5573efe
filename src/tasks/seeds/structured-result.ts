import { z } from 'zod';

/**
 * The structured result line a script may print: `CODIFY_RESULT {"metrics": {...}}`, one
 * JSON object on the line after the marker. It carries several metrics of one run (one
 * seed) by name; `seed`, when given, names the seed the run used, so a script that ignored
 * codify's seed is caught rather than paired with the wrong baseline run.
 */
export const resultMarker = 'CODIFY_RESULT';

const resultSchema = z.object({
  seed: z.number().int().optional(),
  metrics: z
    .record(z.string().trim().min(1), z.number().finite())
    .refine((metrics) => Object.keys(metrics).length > 0, 'name at least one metric'),
});

export type StructuredResult = z.output<typeof resultSchema>;

/** The last structured line's result, or why it cannot be read; undefined when none was printed. */
export function readStructuredResult(
  output: string,
): { result: StructuredResult } | { problem: string } | undefined {
  const line = output
    .split(/\r?\n/)
    .findLast((text) => text.trimStart().startsWith(`${resultMarker} `));
  if (line === undefined) return undefined;
  const body = line.trimStart().slice(resultMarker.length).trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return {
      problem: `${resultMarker} line is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const checked = resultSchema.safeParse(parsed);
  if (!checked.success) {
    return {
      problem: `${resultMarker} line does not fit {"seed": N, "metrics": {"name": number}}: ${checked.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    };
  }
  return { result: checked.data };
}

/** A metric's name as compared: "Log-loss", "log_loss" and "log loss" are one metric. */
export const metricKey = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');

/** The structured value of the metric named `name`, matched by metricKey. */
export function structuredValue(
  metrics: Readonly<Record<string, number>> | undefined,
  name: string,
): number | undefined {
  if (metrics === undefined) return undefined;
  const key = metricKey(name);
  const found = Object.entries(metrics).find(([metric]) => metricKey(metric) === key);
  return found?.[1];
}
