import { join } from 'node:path';
import type { ActionDefinition } from '../agent/actions/types.js';
import type { ModelCaller } from '../llm/types.js';
import type { EventOf } from '../runs/events.js';
import { findRun } from '../runs/find-run.js';
import { withRun, type RunClosing, type RunScope } from '../runs/lifecycle.js';
import { readEvents } from '../runs/read-events.js';
import type { RunHost } from '../runs/run-host.js';
import type { Run } from '../runs/run.js';
import { resolveRunsRoot } from '../runs/runs-root.js';
import { analyzeAndCheckQuotes, describeAnalysis, renderAnalysis } from './analysis.js';
import { checkNovelty, describeNovelty } from './check-novelty.js';
import { experimentsAndReport } from './experiments/experiments-stage.js';
import type { ExperimentRecord } from './experiments/run-experiments.js';
import { closeExploration } from './explore-closing.js';
import { approveAnalysis } from './explore-gates.js';
import { ExploreInputError } from './explore-input-error.js';
import type { ExploreInputs } from './explore-inputs.js';
import { checkExploration } from './explore-preflight.js';
import { describeCompute, readExploreSettings, type ExploreSettings } from './explore-settings.js';
import type { Exploration } from './exploration.js';
import { groundOnPrototype } from './grounding/ground-on-prototype.js';
import { generateIdeas, renderRelated } from './ideas.js';
import { describeIngest, ingestPapers } from './ingest-papers.js';
import { describeReviews, reviewIdeas } from './review-ideas.js';
import { rankedExploration, writeIdeas } from './write-ideas.js';

export {
  defaultLiteratureCache,
  describeCompute,
  type ExploreSettings,
} from './explore-settings.js';

export interface RunExploreOptions {
  settings: ExploreSettings;
  /**
   * Builds a run's model caller once the run exists, so calls are logged in it: the
   * exploration's, then each experiment's implement run's.
   */
  models: (run: Run) => ModelCaller;
  /**
   * Where the run goes, who watches, who stops it, and the researcher (`--interactive`), who
   * approves or edits the problem analysis and picks the ideas to run; without one the
   * exploration goes on by its settings.
   */
  host: RunHost;
  /** The agent's actions in experiments (default all); tests give small ones. */
  experimentActions?: readonly ActionDefinition[];
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

/** `codify explore PAPERS…`: a new exploration in a new run (settings.json holds its settings). */
export async function runExplore(options: RunExploreOptions): Promise<ExploreResult> {
  const { inputs, name } = await checkExploration(options.settings);
  const settings: ExploreSettings = {
    ...options.settings,
    paperPaths: inputs.papers.map((paper) => paper.path),
    ...(inputs.notes === undefined ? {} : { notesPath: inputs.notes.path }),
  };
  return withRun(
    { mode: 'explore', name, task: settings.paperPaths.join(' '), settings },
    options.host,
    options.models,
    (scope) => explore(scope, settings, inputs, options),
  );
}

/**
 * `codify explore --resume RUN` and `codify resume RUN`: re-opens an interrupted (killed,
 * stopped or failed) exploration with its saved settings. Finished stages are returned from
 * the run folder, finished experiments are kept, an interrupted experiment's implement run
 * continues after its last completed step, and any model call the interrupted process
 * completed is answered from its log, so nothing is paid twice.
 */
export async function resumeExplore(
  reference: string,
  options: Omit<RunExploreOptions, 'settings'>,
): Promise<ExploreResult> {
  const dir = findRun(reference, resolveRunsRoot(options.host.runsRoot));
  refuseEnded(dir);
  const saved = readExploreSettings(dir);
  const settings: ExploreSettings =
    saved.experiments === undefined
      ? saved
      : { ...saved, experiments: { ...saved.experiments, parallel: options.resumeParallel ?? 1 } };
  const { inputs } = await checkExploration(settings);
  return withRun({ resume: dir }, options.host, options.models, (scope) =>
    explore(scope, settings, inputs, options),
  );
}

/** A finished exploration is not run again (one that failed or was stopped is). */
function refuseEnded(dir: string): void {
  const ended = readEvents(dir).events.findLast(
    (event): event is EventOf<'run-end'> => event.type === 'run-end',
  );
  if (ended !== undefined && ended.status !== 'failed' && ended.status !== 'stopped') {
    throw new ExploreInputError(
      `${dir} has already ended (${ended.status}); its ideas are in ${join(dir, 'ideas.md')}`,
    );
  }
}

/**
 * The exploration's stages: papers → analysis → (with `--code`) baseline and prototype summary →
 * ideas → reviews → novelty → experiments.
 */
async function explore(
  scope: RunScope,
  settings: ExploreSettings,
  inputs: ExploreInputs,
  options: Omit<RunExploreOptions, 'settings'>,
): Promise<RunClosing<ExploreResult>> {
  const { run, stages, host } = scope;
  const { models } = scope;
  const compute = describeCompute(settings);
  const notes = inputs.notes?.text;
  const papers = await stages.run('ingest', () => ingestPapers(models, run, settings, inputs), {
    describe: (fitted) => describeIngest(fitted, inputs),
  });
  const analysis = await stages.run(
    'analysis',
    () => analyzeAndCheckQuotes(models, run, papers, notes),
    { describe: describeAnalysis },
  );
  const analysisText = await approveAnalysis(run, host.feedback, renderAnalysis(analysis));
  // With `--code` the ideas are planned on the prototype as measured: baseline first.
  const grounding =
    settings.experiments === undefined
      ? undefined
      : await groundOnPrototype(scope, settings.experiments, compute);
  const prototype = grounding === undefined ? {} : { prototype: grounding.summary.text };
  const cards = await stages.run(
    'ideas',
    () =>
      generateIdeas(models, {
        analysis: analysisText,
        related: renderRelated(papers, inputs.related),
        compute,
        count: settings.ideas,
        ...(notes === undefined ? {} : { notes }),
        ...prototype,
      }),
    { describe: (generated) => generated.map((card) => card.title).join('; ') },
  );
  const reviewed = await stages.run(
    'review',
    () =>
      reviewIdeas(models, run, cards, {
        ...settings,
        analysis: analysisText,
        compute,
        ...prototype,
      }),
    { describe: describeReviews },
  );
  const keywords = analysis.analysis.keywords;
  const explored = await stages.run(
    'novelty',
    () =>
      checkNovelty(run, models, reviewed, { papers, related: inputs.related }, settings, keywords),
    { describe: describeNovelty },
  );
  const exploration = {
    ...rankedExploration(papers, inputs, analysis, explored, settings, compute),
    ...(grounding === undefined ? {} : { prototype: grounding.summary.text }),
  };
  const files = writeIdeas(run, exploration);
  const measured =
    settings.experiments === undefined
      ? undefined
      : await experimentsAndReport(scope, {
          ranked: exploration.ideas,
          settings: settings.experiments,
          models: options.models,
          keywords,
          compute,
          ...(grounding === undefined ? {} : { baseline: grounding.baseline }),
          ...(options.experimentActions === undefined
            ? {}
            : { actions: options.experimentActions }),
        });
  return closeExploration(scope, exploration, files, measured);
}
