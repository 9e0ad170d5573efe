/**
 * The figures of the seeded noise task (test/fixtures/tasks/seeded-noise): its seed spread,
 * and the paired effect and category of three "solutions" (a hand-picked fixed seed, every
 * seed moved on by two, a real +0.10), each a real Python run per seed, the model scripted.
 *
 *   node --import tsx scripts/seeded-noise-figures.ts [SEEDS]   (default 5)
 *
 * test/eval/seeded-verdict.test.ts asserts the same figures.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultConfig } from '../src/config/default-config.js';
import { runEvaluation } from '../src/eval/run-evaluation.js';
import { loadSuite } from '../src/eval/suite/load-suite.js';
import type { Answerer } from '../src/llm/answerer.js';

const task = resolve(import.meta.dirname, '../test/fixtures/tasks/seeded-noise');
const starter = readFileSync(join(task, 'starter_code.py'), 'utf8');
const solutions: Record<string, string> = {
  'lucky-seed': starter.replace('SEED = int(os.environ.get("SEED", "0"))', 'SEED = 2  # tuned'),
  'shifted-seed': starter.replace('random.Random(seed)', 'random.Random(seed + 2)'),
  real: starter.replace('return 0.70 + ', 'return 0.80 + '),
};

/** Answers every request with the whole solution script, as the single-call strategy asks. */
const answerer = (name: string): Answerer => ({
  remote: false,
  answer: () =>
    Promise.resolve({
      text: `\`\`\`python\n${solutions[name] ?? ''}\`\`\`\n`,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      costUsd: 0,
    }),
});

const base = mkdtempSync(join(tmpdir(), 'codify-seeded-noise-'));
const suiteFile = join(base, 'suite.yaml');
writeFileSync(
  suiteFile,
  [
    'name: seeded-noise',
    `items: [{task: ${task}}]`,
    'strategies: [single-call]',
    'models:',
    ...Object.keys(solutions).map((name) => `  - {name: ${name}, model: scripted:${name}}`),
    'starter_trials: 2',
    `seeds: ${process.argv[2] ?? '5'}`,
    '',
  ].join('\n'),
);
const { summary, reports } = await runEvaluation({
  suite: loadSuite(suiteFile),
  evalDir: join(base, 'evaluation'),
  baseConfig: defaultConfig(),
  answerers: (spec) => answerer(spec.replace('scripted:', '')),
});
const round = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : String(Number(value.toFixed(4)));
const seeds = summary.starterSeeds['seeded-noise'];
if (seeds !== undefined)
  process.stdout.write(
    `starter on seeds ${seeds.seeds.join(', ') ?? ''}: ${seeds.values.map((entry) => round(entry.value)).join(', ') ?? ''} (sd ${round(seeds.sd)})\n`,
  );
for (const run of summary.runs) {
  const figures = run.implement;
  const paired = figures?.seeds?.paired;
  if (paired === undefined || paired === null) {
    process.stdout.write(
      `${run.model}: ${round(figures?.metric)} (gain ${round(figures?.improvement)}; ${figures?.verdict.marginSource ?? ''}${figures?.verdict.fixedSeedGain === true ? '; gain on the fixed seed' : ''}) → ${figures?.category ?? '–'}\n`,
    );
    continue;
  }
  process.stdout.write(
    `${run.model}: seed 0 ${round(figures?.metric)} (one-seed gain ${round(figures?.improvement)}); paired effect ${round(paired?.effect)}, margin ${round(paired?.margin)} (paired ${round(paired?.pairedMargin)}, seed ${round(paired?.seedMargin)}${paired?.finalIgnoresSeed === true ? ', applies: one value on every seed' : ''}) → ${figures?.category ?? '–'}\n`,
  );
}
process.stdout.write(`report: ${reports.markdown}\n`);
