import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { loadTask } from '../tasks/load-task.js';
import { buildExperimentTask } from './experiments/experiment-task.js';
import { basename, extname, join } from 'node:path';
import type { ModelCaller } from '../llm/types.js';
import { fitDocument } from '../reader/fit-document.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import type { EventOf, EventSink } from '../runs/events.js';
import { findRun } from '../runs/find-run.js';
import { readEvents } from '../runs/read-events.js';
import { createRun, openRun, type Run } from '../runs/run.js';
import { resolveRunsRoot } from '../runs/runs-root.js';
import type { ActionDefinition } from '../agent/actions/types.js';
import { analyzeProblem, renderAnalysis } from './analysis.js';
import { renderExperimentReport } from './experiments/render-report.js';
import {
  runExperiments,
  type ExperimentRecord,
  type ExperimentSettings,
} from './experiments/run-experiments.js';
import { checkRunSelection, selectIdeas } from './experiments/select-ideas.js';
import { approveAnalysis, ExplorationStopped, pickExperiments } from './explore-gates.js';
import type { FeedbackChannel } from '../runs/feedback.js';
import { CompletedCallsCaller } from '../llm/completed-calls-caller.js';
import { readExploreInputs } from './explore-inputs.js';
import type { PaperDocument } from '../reader/document.js';
import type { PaperReader } from '../reader/paper-reader.js';
import { checkPdfForModelReader, readPaperWithModel } from '../reader/read-paper-with-model.js';
import { ExploreInputError } from './explore-input-error.js';
import type { Exploration, ExploredIdea } from './exploration.js';
import { generateIdeas, refineIdea, renderRelated } from './ideas.js';
import { checkLiterature } from './literature/search-literature.js';
import type { LiteratureService } from './literature/services.js';
import { compareIdea, type ComparedWork } from './novelty.js';
import { renderIdeasMarkdown } from './render-ideas.js';
import { renderReviews, reviewIdea, type AveragedReview } from './review.js';

/** What an exploration was started with; saved in the run so `--resume` repeats it exactly. */
export interface ExploreSettings {
  paperPaths: string[];
  notesPath?: string;
  relatedPath?: string;
  ideas: number;
  reviewers: number;
  refineRounds: number;
  /** Minutes one experiment run may take. */
  budgetMinutes: number;
  gpu: boolean;
  paperMaxChars: number;
  /** `model`: the planner reads each PDF itself, inside the run (default `local`). */
  paperReader?: PaperReader;
  literature?: {
    service: LiteratureService;
    baseUrl?: string;
    cacheDir?: string;
    retries?: number;
    baseDelayMs?: number;
  };
  /** `--run` with `--code`: the chosen ideas become implement runs on the prototype code. */
  experiments?: ExperimentSettings;
}

export interface RunExploreOptions {
  settings: ExploreSettings;
  /** Builds the run's model caller once the run exists, so calls are logged in it. */
  models: (run: Run) => ModelCaller;
  runsRoot?: string;
  argv?: string[];
  sinks?: EventSink[];
  onRun?: (run: Run) => void;
  /** The agent's actions in experiments (default all); tests give small ones. */
  experimentActions?: readonly ActionDefinition[];
  /**
   * The researcher (`--interactive`): approves or edits the problem analysis, and picks the
   * ideas to run. Without it the exploration goes on by its settings.
   */
  feedback?: FeedbackChannel;
  /**
   * `--resume` with `--parallel N`: how many experiments run at once from now on (the caller
   * the interface builds depends on it, so it is the resuming command's, not the saved one).
   */
  resumeParallel?: number;
}

export interface ExploreResult {
  run: Run;
  exploration: Exploration;
  ideasJson: string;
  ideasMarkdown: string;
  /** Model calls answered from the interrupted run's log instead of the model (resume). */
  reusedCalls: number;
  /** With `--run`: the experiments ranked by measured improvement, and report.md. */
  experiments?: ExperimentRecord[];
  report?: string;
}

const settingsFile = 'explore-settings.json';

export const defaultLiteratureCache = () =>
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'codify', 'literature');

export function describeCompute(settings: Pick<ExploreSettings, 'budgetMinutes' | 'gpu'>): string {
  return `${settings.gpu ? 'one GPU' : 'CPU only, no GPU'}; each experiment run at most ${settings.budgetMinutes} minutes; data must ship with a Python package or be generated (no downloads)`;
}

/** `codify explore PAPERS…`: a new exploration in a new run. */
export async function runExplore(options: RunExploreOptions): Promise<ExploreResult> {
  await checkExperimentSettings(options.settings.experiments);
  const byModel = options.settings.paperReader === 'model';
  if (byModel) {
    for (const path of options.settings.paperPaths) await checkPdfForModelReader(path);
  }
  // A model reads the papers inside the run, so the calls are logged; notes and related
  // work are still checked before the run exists.
  const checked = byModel
    ? await readExploreInputs(options.settings, pendingDocument)
    : await readExploreInputs(options.settings);
  const first = options.settings.paperPaths[0] ?? 'explore';
  const title = byModel
    ? basename(first, extname(first))
    : (checked.papers[0]?.document.title ?? 'explore');
  const run = createRun({
    mode: 'explore',
    name: title || 'explore',
    task: options.settings.paperPaths.join(' '),
    ...(options.runsRoot === undefined ? {} : { root: options.runsRoot }),
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    ...(options.sinks === undefined ? {} : { sinks: options.sinks }),
  });
  const settings: ExploreSettings = {
    ...options.settings,
    paperPaths: checked.papers.map((paper) => paper.path),
    ...(checked.notes === undefined ? {} : { notesPath: checked.notes.path }),
  };
  writeFileSync(join(run.dir, settingsFile), `${JSON.stringify(settings, null, 2)}\n`);
  options.onRun?.(run);
  const models = options.models(run);
  const inputs = byModel
    ? await readExploreInputs(settings, (path) =>
        readPaperWithModel(path, models, { emit: (event) => run.emit(event) }),
      )
    : checked;
  return explore(run, settings, inputs, models, 0, options);
}

/** `--run` and `--code` are checked before anything runs. */
async function checkExperimentSettings(experiments: ExperimentSettings | undefined): Promise<void> {
  if (experiments === undefined) return;
  const problem = checkRunSelection(experiments.select);
  if (problem !== undefined) throw new ExploreInputError(problem);
  if (!existsSync(experiments.codeDir) || !statSync(experiments.codeDir).isDirectory()) {
    throw new ExploreInputError(
      `--code: ${experiments.codeDir} is not a folder; give the prototype code (a folder with starter_code.py, or an MLAgentBench folder)`,
    );
  }
  // The experiments' tasks are built from it later; a folder that cannot make one fails now.
  const scratch = mkdtempSync(join(tmpdir(), 'codify-code-check-'));
  try {
    await loadTask(
      await buildExperimentTask({
        codeDir: experiments.codeDir,
        destination: join(scratch, 'task'),
        methodology: 'check\n',
      }),
    );
  } catch (error) {
    throw new ExploreInputError(
      `--code: ${experiments.codeDir} cannot hold experiments: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `codify explore --resume RUN`: re-opens an interrupted exploration and runs it again with
 * its saved settings; every model call the interrupted process completed is answered from
 * its log, so nothing is paid twice, and the literature cache answers earlier searches.
 */
export async function resumeExplore(
  reference: string,
  options: Omit<RunExploreOptions, 'settings'>,
): Promise<ExploreResult> {
  const dir = findRun(reference, resolveRunsRoot(options.runsRoot));
  const path = join(dir, settingsFile);
  if (!existsSync(path)) {
    throw new ExploreInputError(
      `${dir} is not an exploration (it has no ${settingsFile}); give an explore run`,
    );
  }
  const saved = JSON.parse(readFileSync(path, 'utf8')) as ExploreSettings;
  const settings: ExploreSettings =
    saved.experiments === undefined
      ? saved
      : {
          ...saved,
          experiments: { ...saved.experiments, parallel: options.resumeParallel ?? 1 },
        };
  const { events } = readEvents(dir);
  // A failed exploration may be resumed (e.g. after a provider outage), and one stopped by
  // Ctrl-C or SIGTERM; a finished one not. (One stopped at a gate stops there again: the
  // gate's recorded answer is reused.)
  const ended = events.findLast(
    (event): event is EventOf<'run-end'> =>
      event.type === 'run-end' && event.status !== 'failed' && event.status !== 'stopped',
  );
  if (ended !== undefined) {
    throw new ExploreInputError(
      `${dir} has already ended (${ended.status}); its ideas are in ${join(dir, 'ideas.md')}`,
    );
  }
  const completed = events.filter((event): event is EventOf<'llm-end'> => event.type === 'llm-end');
  const byModel = settings.paperReader === 'model';
  const checked = byModel
    ? await readExploreInputs(settings, pendingDocument)
    : await readExploreInputs(settings);
  const run = openRun(dir, {
    ...(options.runsRoot === undefined ? {} : { root: options.runsRoot }),
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    ...(options.sinks === undefined ? {} : { sinks: options.sinks }),
  });
  options.onRun?.(run);
  const caller = new CompletedCallsCaller(completed, options.models(run));
  // The model's readings of the papers are among the completed calls: answered from the log.
  const inputs = byModel
    ? await readExploreInputs(settings, (path) =>
        readPaperWithModel(path, caller, { emit: (event) => run.emit(event) }),
      )
    : checked;
  const result = await explore(run, settings, inputs, caller, completed.length, options, caller);
  return { ...result, reusedCalls: caller.reused };
}

async function explore(
  run: Run,
  settings: ExploreSettings,
  inputs: Awaited<ReturnType<typeof readExploreInputs>>,
  models: ModelCaller,
  earlierCalls: number,
  options: Omit<RunExploreOptions, 'settings'>,
  reuse?: CompletedCallsCaller,
): Promise<ExploreResult> {
  const stage = async <T>(name: string, work: () => Promise<{ value: T; detail: string }>) => {
    run.emit({ type: 'stage-start', stage: name });
    try {
      const { value, detail } = await work();
      run.emit({ type: 'stage-end', stage: name, ok: true, detail });
      return value;
    } catch (error) {
      run.emit({
        type: 'stage-end',
        stage: name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  };
  try {
    if (earlierCalls > 0) {
      run.emit({
        type: 'log',
        level: 'info',
        message: `resuming: ${earlierCalls} completed model calls will be answered from the log`,
      });
    }
    const compute = describeCompute(settings);
    const perPaper = Math.max(2000, Math.floor(settings.paperMaxChars / inputs.papers.length));
    const papers = await stage('ingest', async () => {
      const fitted = [];
      for (const paper of inputs.papers) {
        const view = await fitDocument(paper.document, {
          maxChars: perPaper,
          summarize: async (text, heading) =>
            (
              await models.call({
                role: 'summarizer',
                messages: [
                  {
                    role: 'user',
                    content: loadPrompt('repo-summarize-section', { heading, text, words: '250' }),
                  },
                ],
                label: `summarize ${paper.id} ${heading}`,
                expect: 'A dense summary of the section, at most 250 words.',
              })
            ).text,
        });
        fitted.push({
          id: paper.id,
          title: paper.document.title || paper.path,
          path: paper.path,
          format: paper.document.source.format,
          headings: paper.document.sections.map((section) => section.heading),
          fullText: view.fullText,
          promptText: view.text,
          abstract: paper.document.abstract || view.fullText.slice(0, 2000),
        });
      }
      return {
        value: fitted,
        detail: `${fitted.length} paper(s), ${inputs.related.length} related item(s)${inputs.notes === undefined ? '' : ', notes'}`,
      };
    });
    const notes = inputs.notes?.text;
    const analysis = await stage('analysis', async () => {
      const result = await analyzeProblem(models, papers, notes === undefined ? {} : { notes });
      run.emit({
        type: 'quote-check',
        checked: result.checked,
        unverified: result.unverified.map(({ where, paper, quote, reason }) => ({
          where,
          paper,
          quote,
          reason,
        })),
      });
      return {
        value: result,
        detail: `${result.analysis.tasks.length} tasks, ${result.analysis.gaps.length} gaps; ${result.checked - result.unverified.length}/${result.checked} quotes found in the papers`,
      };
    });
    const analysisText = await approveAnalysis(run, options.feedback, renderAnalysis(analysis));
    const cards = await stage('ideas', async () => {
      const value = await generateIdeas(models, {
        analysis: analysisText,
        related: renderRelated(papers, inputs.related),
        compute,
        count: settings.ideas,
        ...(notes === undefined ? {} : { notes }),
      });
      return { value, detail: value.map((card) => card.title).join('; ') };
    });
    const ideas = await stage('review', async () => {
      const reviewed: Omit<ExploredIdea, 'novelty'>[] = [];
      for (const [index, generated] of cards.entries()) {
        const id = `I${index + 1}`;
        let card = generated;
        const earlierVersions = [];
        const reviews: AveragedReview[] = [];
        const review = async (round: number) => {
          const averaged = await reviewIdea(models, {
            card,
            analysis: analysisText,
            reviewers: settings.reviewers,
            label: `explore-review ${id} round ${round}`,
          });
          run.emit({
            type: 'idea-review',
            idea: index + 1,
            round,
            reviewers: averaged.reviewers,
            average: averaged.overall,
          });
          reviews.push(averaged);
          return averaged;
        };
        let last = await review(0);
        for (let round = 1; round <= settings.refineRounds; round += 1) {
          earlierVersions.push(card);
          card = await refineIdea(models, {
            card,
            reviews: renderReviews(last),
            compute,
            label: `explore-refine ${id} round ${round}`,
          });
          last = await review(round);
        }
        reviewed.push({ id, card, earlierVersions, reviews, score: last.overall });
      }
      return {
        value: reviewed,
        detail: reviewed.map((idea) => `${idea.id} ${idea.score.toFixed(2)}`).join(', '),
      };
    });
    const offlineWorks: ComparedWork[] = [
      // Abstracts, like the related items: whole papers would make every idea built on them
      // look like a copy, since it shares their vocabulary.
      ...papers.map((paper) => ({ title: paper.title, text: paper.abstract, source: paper.path })),
      ...inputs.related.map((item) => ({
        title: item.title,
        text: item.abstract,
        source: item.source,
      })),
    ];
    const explored = await stage('novelty', async () => {
      const checked: ExploredIdea[] = [];
      for (const [index, idea] of ideas.entries()) {
        const checks = [compareIdea(idea.card, offlineWorks, 'offline')];
        const literature = settings.literature;
        if (literature !== undefined) {
          checks.push(
            await checkLiterature(idea.card, analysis.analysis.keywords, {
              service: literature.service,
              cacheDir: literature.cacheDir ?? defaultLiteratureCache(),
              ...(literature.baseUrl === undefined ? {} : { baseUrl: literature.baseUrl }),
              ...(literature.retries === undefined ? {} : { retries: literature.retries }),
              ...(literature.baseDelayMs === undefined
                ? {}
                : { baseDelayMs: literature.baseDelayMs }),
              onRetry: (attempt, delayMs, reason) =>
                run.emit({
                  type: 'log',
                  level: 'warn',
                  message: `${literature.service}: retry ${attempt} in ${delayMs} ms (${reason})`,
                }),
            }),
          );
        }
        for (const check of checks) {
          run.emit({
            type: 'novelty-check',
            idea: index + 1,
            against: check.against,
            verdict: check.verdict,
            reason: check.reason,
            ...(check.closest === undefined ? {} : { closest: check.closest }),
          });
        }
        checked.push({ ...idea, novelty: checks });
      }
      const verdicts = checked.map(
        (idea) => `${idea.id} ${idea.novelty.map((check) => check.verdict).join('/')}`,
      );
      return { value: checked, detail: verdicts.join(', ') };
    });
    // Stable: ideas with equal scores keep their generated order.
    const ranked = [...explored].sort((first, second) => second.score - first.score);
    const exploration: Exploration = {
      papers: papers.map(({ id, title, path, format }) => ({ id, title, path, format })),
      ...(inputs.notes === undefined ? {} : { notes: inputs.notes.path }),
      related: inputs.related,
      analysis: analysis.analysis,
      quotesChecked: analysis.checked,
      unverifiedQuotes: analysis.unverified,
      settings: {
        ideas: settings.ideas,
        reviewers: settings.reviewers,
        refineRounds: settings.refineRounds,
        compute,
        ...(settings.literature === undefined ? {} : { literature: settings.literature.service }),
      },
      ideas: ranked,
    };
    const ideasJson = join(run.dir, 'ideas.json');
    const ideasMarkdown = join(run.dir, 'ideas.md');
    writeFileSync(ideasJson, `${JSON.stringify(exploration, null, 2)}\n`);
    run.emit({ type: 'artifact-write', path: ideasJson, kind: 'ideas' });
    writeFileSync(ideasMarkdown, renderIdeasMarkdown(exploration));
    run.emit({ type: 'artifact-write', path: ideasMarkdown, kind: 'ideas' });
    let experiments: ExperimentRecord[] | undefined;
    let report: string | undefined;
    if (settings.experiments !== undefined) {
      const picked = await pickExperiments(
        run,
        options.feedback,
        ranked,
        selectIdeas(settings.experiments.select, ranked),
      );
      const experimentSettings = {
        ...settings.experiments,
        ...(picked === undefined ? {} : { select: picked }),
      };
      experiments = await stage('experiments', async () => {
        const records = await runExperiments({
          run,
          ideas: ranked,
          settings: experimentSettings,
          models: options.models,
          keywords: analysis.analysis.keywords,
          compute,
          ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
          ...(options.runsRoot === undefined ? {} : { runsRoot: options.runsRoot }),
          ...(options.experimentActions === undefined
            ? {}
            : { actions: options.experimentActions }),
        });
        return {
          value: records,
          detail: records.map((record) => `${record.idea} ${record.status}`).join(', '),
        };
      });
      report = join(run.dir, 'report.md');
      writeFileSync(report, renderExperimentReport(experiments, run.dir));
      run.emit({ type: 'artifact-write', path: report, kind: 'report' });
    }
    const best = ranked[0];
    const measured = experiments?.[0];
    const improvement =
      measured?.metric?.seeds?.improvement ?? measured?.metric?.improvement ?? null;
    const over =
      measured?.metric?.seeds === undefined
        ? 'over the baseline'
        : `over the baseline, mean of ${measured.metric.seeds.runs.length} seeds`;
    run.close(
      'completed',
      `${ranked.length} ideas${best === undefined ? '' : `; best by the judge: ${best.id} "${best.card.title}" (${best.score.toFixed(2)})`}${measured === undefined || improvement === null ? '' : `; best measured: ${measured.idea} (${measured.metric?.name ?? ''} ${improvement >= 0 ? '+' : ''}${Number(improvement.toPrecision(4))} ${over})`}`,
      {
        ideas: ideasJson,
        report: report ?? ideasMarkdown,
        count: ranked.length,
        reusedCalls: reuse?.reused ?? 0,
        ...(experiments === undefined ? {} : { experiments: join(run.dir, 'experiments.json') }),
      },
    );
    return {
      run,
      exploration,
      ideasJson,
      ideasMarkdown,
      reusedCalls: reuse?.reused ?? 0,
      ...(experiments === undefined ? {} : { experiments }),
      ...(report === undefined ? {} : { report }),
    };
  } catch (error) {
    run.close(
      error instanceof ExplorationStopped ? 'stopped' : 'failed',
      error instanceof Error ? error.message : String(error),
    );
    throw error;
  }
}

/**
 * What a PDF counts as while the inputs are checked before the run exists: the model reads
 * the papers only inside the run (so the reading is logged and paid once), and this check
 * needs no more than the path, already checked to be a PDF. The real reading replaces it.
 */
function pendingDocument(path: string): Promise<PaperDocument> {
  return Promise.resolve({
    title: '',
    authors: [],
    abstract: '',
    sections: [],
    source: { format: 'pdf', path },
  });
}
