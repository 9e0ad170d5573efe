import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadPrompt } from '../../prompts/load-prompt.js';
import { detectFormat } from '../../tasks/load-task.js';
import { mlAgentBenchNames, taskFileNames } from '../../tasks/task-file-names.js';
import { metricKey, resultMarker } from '../../tasks/seeds/structured-result.js';
import type { TaskMetric } from '../../tasks/types.js';
import { splitPlan } from '../grounding/plan-steps.js';
import type { IdeaCard } from '../schemas.js';

/** The steps the prototype cannot run, by their reasons only: the agent must not attempt them. */
function notRunNote(reasons: readonly string[]): string {
  if (reasons.length === 0) return '';
  return `\n${loadPrompt('explore-experiment-not-run', {
    steps:
      reasons.length === 1
        ? "one of the plan's steps needs"
        : `${reasons.length} of the plan's steps need`,
    reasons: reasons.map((reason) => `  - ${reason}`).join('\n'),
  }).trimEnd()}`;
}

/** The seeds an experiment runs: its plan's, or the first `maxSeeds` of them (`--max-seeds`). */
export function experimentSeeds(card: IdeaCard, maxSeeds?: number): number[] {
  const planned = card.experimentPlan.seeds;
  return maxSeeds === undefined ? [...planned] : planned.slice(0, maxSeeds);
}

/** The seeds as the methodology names them, saying where `--max-seeds` left some out. */
function seedsText(card: IdeaCard, maxSeeds?: number): string {
  const seeds = experimentSeeds(card, maxSeeds);
  const planned = card.experimentPlan.seeds.length;
  const shown = seeds.join(', ');
  return seeds.length === planned
    ? shown
    : `${shown}: the first ${seeds.length} of the plan's ${planned}, as the exploration allows`;
}

/**
 * The idea's plan as the methodology of an implement task (prompts/explore-experiment.md):
 * only the steps that run on the prototype; the others are named by their reasons.
 */
export function experimentMethodology(
  card: IdeaCard,
  metric: TaskMetric,
  /** Hub candidates (`--retrieve`), already rendered; empty without them. */
  candidates = '',
  /** `--max-seeds`: the experiment runs the first N of the plan's seeds. */
  maxSeeds?: number,
): string {
  const plan = card.experimentPlan;
  const { runnable, notRun } = splitPlan(card);
  return loadPrompt('explore-experiment', {
    title: card.title,
    hypothesis: card.hypothesis.statement,
    expectedEffect: card.hypothesis.expectedEffect,
    method: card.method,
    dataPreparation: plan.dataPreparation,
    procedure: `${runnable.map((step, index) => `  ${index + 1}. ${step}`).join('\n')}${notRunNote(notRun.map((step) => step.reason))}`,
    ablations: plan.ablations.length === 0 ? 'none' : plan.ablations.join('; '),
    stopCriteria: plan.stopCriteria,
    seeds: seedsText(card, maxSeeds),
    firstSeed: String(plan.seeds[0] ?? 0),
    metricLine: `${metric.name}: <value>`,
    resultLine: resultLineExample(card, metric),
    direction: metric.goal === 'max' ? 'higher is better' : 'lower is better',
    candidates,
  });
}

/** `CODIFY_RESULT {"seed": <seed>, "metrics": {...}}` with the experiment's and the plan's metrics. */
function resultLineExample(card: IdeaCard, metric: TaskMetric): string {
  const names = [metric.name, ...card.experimentPlan.metrics.map((planned) => planned.name)];
  const unique = names.filter(
    (name, index) => names.findIndex((other) => metricKey(other) === metricKey(name)) === index,
  );
  return `${resultMarker} {"seed": <seed>, "metrics": {${unique.map((name) => `${JSON.stringify(name)}: <value>`).join(', ')}}}`;
}

/**
 * Builds a task folder for one experiment: a copy of the prototype code (`--code`; a codify
 * task folder, an MLAgentBench folder, or any folder with a runnable starter_code.py), with
 * the methodology, the confirmed metric in task.json and the measured baseline written in.
 * The researcher's folder is only read.
 */
export async function buildExperimentTask(input: {
  codeDir: string;
  destination: string;
  methodology: string;
  metric?: TaskMetric;
  /** starter_code_performance.txt, from the baseline measured once for all experiments. */
  baselinePerformance?: string;
  /** The task's name, so the implement run's folder says which idea it is. */
  name?: string;
}): Promise<string> {
  const { codeDir, destination } = input;
  const format = await detectFormat(codeDir);
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  cpSync(codeDir, destination, {
    recursive: true,
    dereference: true,
    filter: (source) => !['.git', '__pycache__', 'runs'].includes(basename(source)),
  });
  for (const stale of [taskFileNames.problemStatement, taskFileNames.starterPerformance]) {
    rmSync(join(destination, stale), { force: true });
  }
  const methodologyPath =
    format === 'mlagentbench'
      ? join(destination, mlAgentBenchNames.researchProblem)
      : join(destination, taskFileNames.methodology);
  writeFileSync(methodologyPath, input.methodology);
  if (input.baselinePerformance !== undefined) {
    writeFileSync(join(destination, taskFileNames.starterPerformance), input.baselinePerformance);
  }
  const settingsPath = join(destination, taskFileNames.settings);
  const settings = existsSync(settingsPath)
    ? (JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>)
    : {};
  if (input.metric !== undefined) {
    const { inWords, ...metric } = input.metric;
    settings.metric = inWords === undefined ? metric : { ...metric, in_words: inWords };
  }
  if (input.name !== undefined) settings.name = input.name;
  writeFileSync(settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
  return destination;
}
