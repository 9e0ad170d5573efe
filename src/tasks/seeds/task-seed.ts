import { z } from 'zod';

/**
 * How a task's script takes its random seed, as task.json declares it: a command-line flag
 * (`{"seed": {"flag": "--seed"}}`, the value follows as the next argument) or an environment
 * variable (`{"seed": {"env": "SEED"}}`). Without it codify cannot vary the seed, and an
 * evaluation's verdict rests on repeat runs of one seed.
 */
export const taskSeedSchema = z.union(
  [
    z.strictObject({
      flag: z
        .string()
        .regex(
          /^--?[A-Za-z][A-Za-z0-9_-]*$/,
          'a flag starts with - or -- and a letter, e.g. "--seed"',
        ),
    }),
    z.strictObject({
      env: z
        .string()
        .regex(
          /^[A-Za-z_][A-Za-z0-9_]*$/,
          'an environment variable name is letters, digits and _, e.g. "SEED"',
        ),
    }),
  ],
  { error: 'give {"flag": "--seed"} or {"env": "SEED"}: how the script reads its seed' },
);

export type TaskSeed = z.output<typeof taskSeedSchema>;

/** What to add to one run of the script so that it uses `seed`. */
export interface SeededInvocation {
  args: string[];
  env: Record<string, string>;
}

export function seededInvocation(
  declaration: TaskSeed,
  seed: number,
  args: readonly string[],
): SeededInvocation {
  if ('flag' in declaration) {
    return { args: [...args, declaration.flag, String(seed)], env: {} };
  }
  return { args: [...args], env: { [declaration.env]: String(seed) } };
}

/** The declaration in words, for reports and `codify check`. */
export function describeTaskSeed(declaration: TaskSeed): string {
  return 'flag' in declaration
    ? `flag ${declaration.flag} N`
    : `environment variable ${declaration.env}=N`;
}
