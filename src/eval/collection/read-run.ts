import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ImplementResult, resultFile } from '../../agent/final-result.js';
import type { RepoReport } from '../../repo/report.js';
import { readEvents } from '../../runs/read-events.js';
import { totalsOf } from '../../runs/run-totals.js';
import { activeTimeMs } from '../../runs/active-time.js';
import { categorize, improvementOf } from './category.js';
import type { StarterNoise } from './noise-margin.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { ExploreItem } from '../suite/suite.js';
import { repairLineShare } from './repair-share.js';
import type { RunRecord, VerifyOutcomeLabel } from './run-record.js';
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
    addImplementFigures(record, state.runDir, noise);
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

/** An implement run's category, metric and edits, from its result.json. */
function addImplementFigures(
  record: RunRecord,
  runDir: string,
  noise: StarterNoise | undefined,
): void {
  const result = readJson<ImplementResult>(join(runDir, resultFile));
  const starter = noise?.mean ?? result?.metric?.starter ?? null;
  record.implement = {
    category: categorize({ result, starter, margin: noise?.margin ?? 0 }),
    ran: result?.ran ?? false,
    metricName: result?.metric?.name ?? null,
    metric: result?.metric?.value ?? null,
    starter,
    improvement: result === undefined ? null : improvementOf(result, starter),
    linesAdded: result?.linesEdited.added ?? 0,
    linesRemoved: result?.linesEdited.removed ?? 0,
    finalScript: result?.finalScript ?? null,
  };
  if (result !== undefined) record.steps = result.steps;
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
      ...(judged.referenceScore === undefined
        ? {}
        : {
            reference: {
              score: judged.referenceScore.score,
              samples: judged.referenceScore.samples,
              critiques: judged.referenceScore.critiques,
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
        });
      }
      node.subTasks.forEach(walk);
    };
    walk(judged.rubric.tree);
    record.rubric = { score: judged.rubric.score, leaves };
  }
}
