import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ImplementResult, resultFile } from '../../agent/final-result.js';
import type { RepoReport } from '../../repo/report.js';
import { readEvents } from '../../runs/read-events.js';
import { totalsOf } from '../../runs/run-totals.js';
import { activeTimeMs } from '../../runs/active-time.js';
import { categorize, improvementOf, isFixedSeedGain, type SeededOutcome } from './category.js';
import { type PairedEffect, pairedEffect } from '../../tasks/seeds/paired-effect.js';
import type { SeedRun } from '../../tasks/seeds/run-seeds.js';
import { readFinalSeeds } from '../seed-trials.js';
import type { StarterNoise } from './noise-margin.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { ExploreItem } from '../suite/suite.js';
import { repairLineShare } from './repair-share.js';
import type { ImplementVerdict, RunRecord, SeedFigures, VerifyOutcomeLabel } from './run-record.js';
import { attemptFolders, stateOf } from '../dispatch/run-state.js';
import { readJudgeRecord } from '../judging/judge-run.js';
import { readExploreRun } from './read-explore.js';
import type { ScoredNode } from '../judging/rubric.js';

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function verifyLabel(report: RepoReport | undefined): VerifyOutcomeLabel {
  if (report === undefined) return 'did not run';
  const verify = report.verify;
  if ('skipped' in verify) return 'not verified';
  if (!verify.ok) return 'did not run';
  return verify.runs.length <= 1 ? 'ran as generated' : 'ran after repair';
}

/** The record of one planned combination, read from its newest run folder. */
export async function readRun(
  planned: PlannedRun,
  noise: StarterNoise | undefined,
  seeded?: StarterSeeds,
): Promise<RunRecord> {
  const base = {
    key: planned.key,
    item: planned.item.name,
    kind: planned.item.kind,
    strategy: planned.strategy,
    model: planned.model.name,
    trial: planned.trial,
  };
  const state = stateOf(planned);
  if (state.kind === 'new') {
    return {
      ...base,
      runDir: null,
      status: 'missing',
      steps: 0,
      llmCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      wallTimeMs: 0,
    };
  }
  const { events } = readEvents(state.runDir);
  const totals = totalsOf(events);
  const record: RunRecord = {
    ...base,
    runDir: state.runDir,
    status:
      state.kind === 'finished' ? state.status : state.kind === 'failed' ? 'failed' : 'interrupted',
    ...(state.kind === 'failed' ? { error: state.reason } : {}),
    steps: totals.steps,
    llmCalls: totals.llmCalls,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    costUsd: totals.costUsd,
    wallTimeMs: wallTimeOf(state.runDir, events),
  };
  addEarlierAttempts(record, planned, state.runDir);
  if (planned.item.kind === 'explore') {
    // Read even when interrupted: the report shows how far a killed exploration got.
    addExploreFigures(record, planned.item, state.runDir);
    return record;
  }
  if (state.kind !== 'finished') return record;
  if (planned.item.kind === 'task') {
    addImplementFigures(record, planned, state.runDir, noise, seeded);
  } else {
    await addPaperFigures(record, state.runDir);
    addJudgement(record, planned.judgeFile);
  }
  return record;
}

/**
 * A run's wall time: the figure its result.json states when it has one (time worked on
 * it, over every process, up to its result), else the same measure from its log.
 */
function wallTimeOf(runDir: string, events: Parameters<typeof activeTimeMs>[0]): number {
  return readJson<ImplementResult>(join(runDir, resultFile))?.wallTimeMs ?? activeTimeMs(events);
}

/**
 * Earlier attempts at the combination (a run killed before it saved its settings, or one
 * that failed and was started again): their calls were paid too, so they count in the
 * combination's figures, and are listed.
 */
function addEarlierAttempts(record: RunRecord, planned: PlannedRun, newest: string): void {
  const mode = planned.item.kind === 'explore' ? 'explore' : undefined;
  const earlier = attemptFolders(planned.root, mode).filter((dir) => dir !== newest);
  if (earlier.length === 0) return;
  record.earlierAttempts = earlier.map((dir) => {
    const { events } = readEvents(dir);
    const spent = totalsOf(events);
    const end = events.findLast((event) => event.type === 'run-end');
    return {
      runDir: dir,
      status: end?.type === 'run-end' ? end.status : 'interrupted',
      ...(end?.type === 'run-end' && end.reason !== undefined ? { reason: end.reason } : {}),
      llmCalls: spent.llmCalls,
      inputTokens: spent.inputTokens,
      outputTokens: spent.outputTokens,
      costUsd: spent.costUsd,
      wallTimeMs: wallTimeOf(dir, events),
    };
  });
  for (const attempt of record.earlierAttempts) {
    record.llmCalls += attempt.llmCalls;
    record.inputTokens += attempt.inputTokens;
    record.outputTokens += attempt.outputTokens;
    record.costUsd += attempt.costUsd;
    record.wallTimeMs += attempt.wallTimeMs;
  }
}

/** An exploration's ideas and experiments; the experiments' model calls count as its own. */
function addExploreFigures(record: RunRecord, item: ExploreItem, runDir: string): void {
  const figures = readExploreRun(runDir, {
    experiments: item.experiments !== undefined,
    margin: item.margin,
  });
  record.explore = figures;
  // The experiments are implement runs of their own: their model calls count here too.
  for (const idea of figures.ideaList) {
    const dir = idea.experiment?.runDir;
    if (dir === undefined || dir === null || !existsSync(dir)) continue;
    const spent = totalsOf(readEvents(dir).events);
    record.llmCalls += spent.llmCalls;
    record.inputTokens += spent.inputTokens;
    record.outputTokens += spent.outputTokens;
    record.costUsd += spent.costUsd;
  }
}

/** The starter on the suite's seeds (two or more), read by the collection once per item. */
export interface StarterSeeds {
  evalDir: string;
  starter: SeedRun[];
}

/** An implement run's category, metric and edits, from its result.json (and its seeds). */
function addImplementFigures(
  record: RunRecord,
  planned: PlannedRun,
  runDir: string,
  noise: StarterNoise | undefined,
  seeded: StarterSeeds | undefined,
): void {
  const result = readJson<ImplementResult>(join(runDir, resultFile));
  const starter = noise?.mean ?? result?.metric?.starter ?? null;
  const margin = noise?.margin ?? 0;
  const seeds =
    seeded === undefined || planned.item.kind !== 'task' || result === undefined
      ? undefined
      : seedFigures(seeded, planned, runDir, result, margin);
  const outcome: SeededOutcome | undefined =
    seeds === undefined
      ? undefined
      : { effect: seeds.effect, finalFailed: seeds.figures.finalFailed };
  const input = { result, starter, margin, ...(outcome === undefined ? {} : { seeds: outcome }) };
  record.implement = {
    category: categorize(input),
    ran: result?.ran ?? false,
    metricName: result?.metric?.name ?? null,
    goal: result?.metric?.goal ?? null,
    metric: result?.metric?.value ?? null,
    starter,
    improvement: result === undefined ? null : improvementOf(result, starter),
    linesAdded: result?.linesEdited.added ?? 0,
    linesRemoved: result?.linesEdited.removed ?? 0,
    finalScript: result?.finalScript ?? null,
    verdict: verdictOf(seeds?.figures, noise, isFixedSeedGain(input)),
    ...(seeds === undefined ? {} : { seeds: seeds.figures }),
  };
  if (result !== undefined) record.steps = result.steps;
}

/** The final script's seeds paired with the starter's; undefined when the script never ran. */
function seedFigures(
  seeded: StarterSeeds,
  planned: PlannedRun,
  runDir: string,
  result: ImplementResult,
  repeatMargin: number,
): { figures: SeedFigures; effect: ReturnType<typeof pairedEffect> } | undefined {
  if (planned.item.kind !== 'task' || result.finalScript === null || !result.ran) return undefined;
  const goal = result.metric?.goal;
  if (goal === undefined) return undefined;
  const final = readFinalSeeds(seeded.evalDir, planned.key, runDir, planned.item);
  const seeds = planned.item.seeds;
  const effect = pairedEffect(seeded.starter, final, goal, repeatMargin);
  const valueOn = (runs: SeedRun[], seed: number) =>
    runs.find((entry) => entry.seed === seed)?.value ?? null;
  const figures: SeedFigures = {
    seeds,
    values: seeds.map((seed) => ({
      seed,
      starter: valueOn(seeded.starter, seed),
      final: valueOn(final, seed),
    })),
    // Only seeds measured count: one not run yet (a stopped evaluation) is not a failure.
    finalFailed: final.filter((entry) => entry.value === null).map((entry) => entry.seed),
    paired: effect === null ? null : withoutPairs(effect),
  };
  return { figures, effect };
}

/** The statistics without the pairs, which `values` already holds. */
function withoutPairs(effect: PairedEffect): Omit<PairedEffect, 'pairs'> {
  const { pairs, ...rest } = effect;
  void pairs;
  return rest;
}

/** The margin's source of a paired verdict, in the report's words. */
function pairedSource(
  seeds: number,
  paired: Omit<PairedEffect, 'pairs'>,
  noise: StarterNoise | undefined,
): string {
  const parts = [`t × sd(differences)/√n (${short(paired.pairedMargin)})`];
  if (noise !== undefined) parts.push(`the repeat-run margin (${short(noise.margin)})`);
  if (paired.finalIgnoresSeed) {
    parts.push(
      `2 × the starter's seed sd (${short(paired.seedMargin)}), as the final script printed one value on every seed while the starter's varied: it may ignore the seed`,
    );
  }
  return `${seeds} seeds, paired: the larger of ${parts.join(', ')}`;
}

/** Four significant digits: enough to compare margins in a sentence. */
const short = (value: number): string => String(Number(value.toPrecision(4)));

/** What the category rests on, in the words the report shows. */
function verdictOf(
  seeds: SeedFigures | undefined,
  noise: StarterNoise | undefined,
  fixedSeedGain: boolean,
): ImplementVerdict {
  if (seeds !== undefined) {
    const paired = seeds.paired;
    return {
      basis: 'seeds',
      margin: paired?.margin ?? 0,
      marginSource:
        paired === null
          ? `${seeds.seeds.length} seeds, fewer than two paired: no verdict of improvement`
          : pairedSource(seeds.seeds.length, paired, noise),
      fixedSeedGain: false,
    };
  }
  return {
    basis: 'seed fixed',
    margin: noise?.margin ?? 0,
    marginSource:
      noise === undefined
        ? 'margin: none measured (no repeat runs, seed fixed)'
        : `margin: repeat runs only, seed fixed (${noise.measured} starter runs)`,
    fixedSeedGain,
  };
}

/** A paper run's verify outcome, size and repair share, from its report.json. */
async function addPaperFigures(record: RunRecord, runDir: string): Promise<void> {
  const report = readJson<RepoReport>(join(runDir, 'report.json'));
  const verify = report?.verify;
  const verifyCommit = report?.stages.find((stage) => stage.stage === 'verify')?.commit;
  const files = report?.files.map((file) => file.path) ?? [];
  record.paper = {
    verify: verifyLabel(report),
    smokeRuns: verify !== undefined && 'runs' in verify ? verify.runs.length : 0,
    repairSteps: verify !== undefined && 'repairSteps' in verify ? verify.repairSteps : 0,
    files: files.length,
    lines: report?.files.reduce((sum, file) => sum + file.lines, 0) ?? 0,
    // No verify commit: repair changed nothing.
    repairLineShare:
      report === undefined
        ? null
        : verifyCommit === undefined
          ? 0
          : await repairLineShare(report.repository, verifyCommit, files),
    repository: report?.repository ?? null,
  };
}

/** The judge's score and rubric grades of a paper run, when it has been judged. */
function addJudgement(record: RunRecord, judgeFile: string): void {
  const judged = readJudgeRecord(judgeFile);
  if (judged?.score !== undefined) {
    record.judge = {
      score: judged.score.score,
      samples: judged.score.samples,
      parts: judged.score.parts,
      critiques: judged.score.critiques,
      ...(judged.score.temperature === undefined ? {} : { temperature: judged.score.temperature }),
      ...(judged.score.split === undefined ? {} : { split: judged.score.split }),
      ...(judged.referenceScore === undefined
        ? {}
        : {
            reference: {
              score: judged.referenceScore.score,
              samples: judged.referenceScore.samples,
              critiques: judged.referenceScore.critiques,
              ...(judged.referenceScore.split === undefined
                ? {}
                : { split: judged.referenceScore.split }),
            },
          }),
    };
  }
  if (judged?.rubric !== undefined) {
    const leaves: NonNullable<RunRecord['rubric']>['leaves'] = [];
    const walk = (node: ScoredNode) => {
      if (node.subTasks.length === 0) {
        leaves.push({
          id: node.id,
          requirements: node.requirements,
          score: node.score,
          reason: node.reason ?? '',
          ...(node.selection === undefined ? {} : { selection: node.selection }),
        });
      }
      node.subTasks.forEach(walk);
    };
    walk(judged.rubric.tree);
    record.rubric = {
      score: judged.rubric.score,
      leaves,
      ...(judged.rubric.notes === undefined ? {} : { notes: judged.rubric.notes }),
    };
  }
}
