import { z } from 'zod';
import { taskSeedSchema } from './seeds/task-seed.js';

/** Wall-clock limit for one run of the task's script when task.json sets none. */
export const defaultTimeoutS = 600;

export const taskMetricSchema = z.strictObject({
  name: z.string().min(1),
  pattern: z.string().min(1),
  goal: z.enum(['max', 'min']),
  /** How the pattern reads the value, in words: shown to models instead of the pattern. */
  in_words: z.string().min(1).optional(),
});

/** The schema of task.json; unknown keys are rejected so a misspelt key is not silently ignored. */
export const taskSettingsSchema = z.strictObject({
  name: z.string().min(1).optional(),
  entrypoint: z.string().min(1).optional(),
  output: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  timeout_s: z.number().positive().default(defaultTimeoutS),
  metric: taskMetricSchema.optional(),
  python: z.strictObject({ requires: z.array(z.string().min(1)).default([]) }).optional(),
  network: z.boolean().default(false),
  /** How the script takes its random seed: a flag or an environment variable. */
  seed: taskSeedSchema.optional(),
});

export type TaskSettings = z.output<typeof taskSettingsSchema>;
