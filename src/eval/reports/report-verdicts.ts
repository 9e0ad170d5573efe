import type { EvalSummary } from '../collection/collect-evaluation.js';
import type { RunRecord } from '../collection/run-record.js';
import { type Block, heading, type Inline, paragraph, table, text } from './report-blocks.js';
import { formatNumber, runLink } from './report-format.js';

const figure = (value: number | null | undefined): string =>
  value === null || value === undefined ? '–' : formatNumber(value);

/** mean ± sd of the values that are there. */
function meanAndSd(values: (number | null)[]): string {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return '–';
  const mean = known.reduce((sum, value) => sum + value, 0) / known.length;
  if (known.length < 2) return formatNumber(mean);
  const sd = Math.sqrt(
    known.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (known.length - 1),
  );
  return `${formatNumber(mean)} ± ${formatNumber(sd)}`;
}

type ImplementFigures = NonNullable<RunRecord['implement']>;

/** The effect the category judged: the paired mean across seeds, else the one-seed gain. */
function effectOf(figures: ImplementFigures): string {
  if (figures.seeds !== undefined) return figure(figures.seeds.paired?.effect);
  return figure(figures.improvement);
}

function runCell(summary: EvalSummary, run: RunRecord): Inline[] {
  return run.runDir === null
    ? [{ code: run.key }]
    : [{ text: run.key, href: runLink(summary.evalDir, run.runDir) }];
}

/**
 * What each implement run's category rests on: across seeds, the paired effect against
 * its margin; with the seed fixed, the one-seed gain, flagged and not called A.
 */
export function verdictBlocks(summary: EvalSummary): Block[] {
  const runs = summary.runs.filter((run) => run.implement !== undefined);
  if (runs.length === 0) return [];
  const blocks: Block[] = [
    heading(2, 'Implement: verdicts and their margin'),
    paragraph(
      'With seeds (the suite\'s seeds:, the task\'s task.json "seed"), the starter and the final script run on the same seeds and the effect is the mean of the paired differences (final − starter, seed by seed); it must clear the paired margin, t(97.5 %, n − 1) × sd of the differences / √n (and the repeat-run margin when larger). A final script that prints one value on every seed while the starter\'s vary has no seed variation to pair (it may ignore the seed): its value must also clear twice the starter\'s standard deviation over the seeds, what a lucky seed alone gives. With the seed fixed (no seeds asked for, one seed, or a task that declares none), the margin comes from repeat runs only: it measures nondeterminism under one seed, never seed variance, so a gain beyond it is flagged "gain on the fixed seed" and counted B, not A.',
    ),
    table(
      ['run', 'category', 'basis', 'starter', 'final', 'effect', 'margin', 'margin source'],
      runs.map((run) => {
        const figures = run.implement as ImplementFigures;
        const seeds = figures.seeds;
        return [
          runCell(summary, run),
          text(
            `${figures.category}${figures.verdict.fixedSeedGain ? ' (gain on the fixed seed)' : ''}`,
          ),
          text(
            figures.verdict.basis === 'seeds' ? `${seeds?.seeds.length ?? 0} seeds` : 'seed fixed',
          ),
          text(
            seeds === undefined
              ? figure(figures.starter)
              : meanAndSd(seeds.values.map((entry) => entry.starter)),
          ),
          text(
            seeds === undefined
              ? figure(figures.metric)
              : meanAndSd(seeds.values.map((entry) => entry.final)),
          ),
          text(effectOf(figures)),
          text(formatNumber(figures.verdict.margin)),
          text(figures.verdict.marginSource),
        ];
      }),
    ),
  ];
  return [...blocks, ...seedTables(summary, runs)];
}

/** Per task run on seeds: the starter's and every final script's metric, seed by seed. */
function seedTables(summary: EvalSummary, runs: RunRecord[]): Block[] {
  const blocks: Block[] = [];
  for (const [item, starter] of Object.entries(summary.starterSeeds)) {
    const seeded = runs.filter((run) => run.item === item && run.implement?.seeds !== undefined);
    blocks.push(
      heading(3, `${item}: the metric seed by seed`),
      paragraph(
        `The starter's seed spread: ${starter.sd === null ? '–' : formatNumber(starter.sd)} (sample sd over ${starter.values.filter((entry) => entry.value !== null).length} seeds).`,
      ),
      table(
        [
          'seed',
          'starter',
          ...seeded.map((run) => `${run.strategy} · ${run.model} · ${run.trial}`),
        ],
        starter.values.map((entry) => [
          text(entry.seed),
          text(figure(entry.value)),
          ...seeded.map((run) =>
            text(
              figure(
                run.implement?.seeds?.values.find((value) => value.seed === entry.seed)?.final,
              ),
            ),
          ),
        ]),
      ),
    );
  }
  return blocks;
}
