import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contextTokensOf, defaultContextTokens } from '../../llm/context-windows.js';
import type { ModelCaller } from '../../llm/types.js';
import { readPaper, renderDocument } from '../../reader/index.js';
import type { RepoReport } from '../../repo/report.js';
import type { CodifyEventBody } from '../../runs/events.js';
import { gradeRubric } from './grade-rubric.js';
import { type JudgeScore, judgeScore } from './judge-score.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import type { JudgeSettings } from '../suite/suite.js';
import { isPlanningDocument, repositoryFiles } from './repository-files.js';
import { loadRubric, type ScoredNode } from './rubric.js';
import { stateOf } from '../dispatch/run-state.js';

/** What the judge made of one paper run: `<eval>/judge/<key>.json`. */
export interface JudgeRecord {
  key: string;
  runDir: string;
  judgeModel: string;
  score?: JudgeScore;
  /** The same, reference-based, when the suite gives the authors' repository. */
  referenceScore?: JudgeScore;
  /** `notes`: what did not fit the judge's context whole (the output or the paper cut). */
  rubric?: { file: string; score: number; tree: ScoredNode; notes?: string[] };
  /** Why judging this run failed (the judge never gave a valid answer, no repository). */
  error?: string;
}

export function readJudgeRecord(file: string): JudgeRecord | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as JudgeRecord;
}

/**
 * What running the repository printed, for execution and result leaves: every smoke run's
 * whole output (the grader cuts it only when the judge's context cannot hold it), after a
 * line saying what a smoke run is, so a leaf that asks for the full reproduction's figures
 * is judged knowing that none ran.
 */
function smokeOutputs(report: RepoReport): string {
  if ('skipped' in report.verify || report.verify.runs.length === 0) return '';
  const what = `Only the smoke run ran: \`python ${report.entryPoint} --config config_smoke.yaml\`, the offline check on a tiny stand-in for the data (under a minute on a CPU); the full reproduction (config.yaml, \`bash reproduce.sh\`) was not run.`;
  const runs = report.verify.runs
    .map((run) => {
      let text = '';
      try {
        text = readFileSync(run.outputPath, 'utf8');
      } catch {
        text = run.outputTail;
      }
      return `Smoke run ${run.attempt} (exit code ${String(run.exitCode)}${run.timedOut ? ', timed out' : ''}):\n\`\`\`\n${text}\n\`\`\``;
    })
    .join('\n\n');
  return `${what}\n\n${runs}`;
}

/** PaperCoder's 1–5 score, and the reference-based one when the item names a reference. */
async function scoreRepository(
  record: JudgeRecord,
  shown: {
    judge: ModelCaller;
    emit: (body: CodifyEventBody) => void;
    item: string;
    runDir: string;
    paper: string;
    files: ReturnType<typeof repositoryFiles>;
    contextTokens: number;
  },
  planned: PlannedRun,
  settings: JudgeSettings,
): Promise<void> {
  const scoreOptions = {
    ...shown,
    // PaperCoder judges the repository, not the tool's plans of it.
    files: settings.includeDocs
      ? shown.files
      : shown.files.filter((file) => !isPlanningDocument(file.path)),
    samples: settings.samples,
    temperature: settings.temperature,
    ...(settings.partChars === undefined ? {} : { budgetChars: settings.partChars }),
    ...(settings.paperChars === undefined ? {} : { paperChars: settings.paperChars }),
    ...(settings.referenceChars === undefined
      ? {}
      : { referenceBudgetChars: settings.referenceChars }),
  };
  record.score = await judgeScore(scoreOptions);
  if (planned.item.kind === 'paper' && planned.item.reference !== undefined) {
    record.referenceScore = await judgeScore({
      ...scoreOptions,
      reference: repositoryFiles(planned.item.reference),
    });
  }
}

/**
 * Judges one finished paper run once (a record already written is kept): PaperCoder's 1–5
 * score when the suite has a judge (its samples, temperature and any fixed cuts from the
 * suite's judge: settings), and the item's rubric graded leaf by leaf when it has one.
 */
export async function judgeRun(options: {
  planned: PlannedRun;
  judge: ModelCaller;
  judgeModel: string;
  settings: JudgeSettings;
  emit: (body: CodifyEventBody) => void;
}): Promise<JudgeRecord | undefined> {
  const { planned } = options;
  if (planned.item.kind !== 'paper') return undefined;
  if (existsSync(planned.judgeFile)) return readJudgeRecord(planned.judgeFile);
  const state = stateOf(planned);
  if (state.kind !== 'finished') return undefined;
  const record: JudgeRecord = {
    key: planned.key,
    runDir: state.runDir,
    judgeModel: options.judgeModel,
  };
  try {
    const reportPath = join(state.runDir, 'report.json');
    if (!existsSync(reportPath))
      throw new Error('the run wrote no report.json: there is no repository to judge');
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as RepoReport;
    const files = repositoryFiles(report.repository);
    const document = await readPaper(planned.item.path);
    const paper = renderDocument(document);
    const { settings } = options;
    const contextTokens =
      settings.contextTokens ?? contextTokensOf(options.judgeModel) ?? defaultContextTokens;
    const shared = {
      judge: options.judge,
      emit: options.emit,
      item: planned.item.name,
      runDir: state.runDir,
    };
    if (settings.enabled)
      await scoreRepository(record, { ...shared, paper, files, contextTokens }, planned, settings);
    if (planned.item.rubric !== undefined) {
      const graded = await gradeRubric({
        ...shared,
        rubric: loadRubric(planned.item.rubric),
        title: document.title,
        paper,
        ...(planned.item.addendum === undefined
          ? {}
          : { addendum: readFileSync(planned.item.addendum, 'utf8') }),
        files,
        outputs: smokeOutputs(report),
        contextTokens,
      });
      record.rubric = {
        file: planned.item.rubric,
        score: graded.tree.score,
        tree: graded.tree,
        ...(graded.notes.length === 0 ? {} : { notes: graded.notes }),
      };
    }
  } catch (error) {
    record.error = error instanceof Error ? error.message : String(error);
  }
  mkdirSync(dirname(planned.judgeFile), { recursive: true });
  // Only whole judgements are kept: a failed one is tried again at the next invocation.
  if (record.error === undefined)
    writeFileSync(planned.judgeFile, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
