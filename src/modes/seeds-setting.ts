import { z } from 'zod';

/** Most seeds one evaluation item may ask for: each is a run of the starter and of every final script. */
export const maxSeeds = 100;

const countMessage = `give a count from 1 to ${maxSeeds} (seeds 0 … N−1) or a list of seeds, e.g. [0, 1, 2]`;

/**
 * Seeds an evaluation runs each task's starter and final scripts on: a count N (seeds 0 to
 * N − 1) or the seeds themselves. The suite's `seeds:` (suite-wide or per task item) and
 * `codify eval --seeds` take this one type, so they accept and refuse the same values.
 */
export const seedsSetting = z.union(
  [
    z.number().int(countMessage).min(1, countMessage).max(maxSeeds, countMessage),
    z
      .array(z.number().int().min(0, 'a seed is a whole number ≥ 0'))
      .min(1, 'list at least one seed')
      .max(maxSeeds, `list at most ${maxSeeds} seeds`)
      .refine((seeds) => new Set(seeds).size === seeds.length, 'each seed once'),
  ],
  {
    error: `give a count from 1 to ${maxSeeds} (seeds 0 … N−1) or a list of seeds, e.g. [0, 1, 2]`,
  },
);

export type SeedsSetting = z.output<typeof seedsSetting>;

/** The seeds a setting names: N means 0 … N − 1. */
export function seedList(setting: SeedsSetting): number[] {
  return typeof setting === 'number'
    ? Array.from({ length: setting }, (_, index) => index)
    : [...setting];
}

/** `--seeds 5` or `--seeds 0,1,7`, checked by the suite's own type; the message says what is wrong. */
export function parseSeedsText(
  text: string,
): { ok: true; seeds: number[] } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const value: unknown = /^\d+$/.test(trimmed)
    ? Number(trimmed)
    : trimmed.split(',').map((part) => (/^\s*\d+\s*$/.test(part) ? Number(part) : part.trim()));
  const checked = seedsSetting.safeParse(value);
  if (!checked.success) {
    return { ok: false, reason: checked.error.issues[0]?.message ?? 'not a seed setting' };
  }
  return { ok: true, seeds: seedList(checked.data) };
}
