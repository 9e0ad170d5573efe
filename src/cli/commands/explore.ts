import type { Command } from 'commander';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { join } from 'node:path';
import {
  defaultLiteratureCache,
  resumeExplore,
  runExplore,
  type ExploreResult,
  type ExploreSettings,
} from '../../explore/run-explore.js';
import {
  experimentOnlySettings,
  type ExploreSettings as ExploreModeSettings,
} from '../../modes/explore-settings.js';
import { checkModelPdfReading } from '../../reader/read-paper-with-model.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import type { ModelRouter } from '../../llm/router.js';
import type { ModelCaller } from '../../llm/types.js';
import type { ModelFlags } from '../../config/model-flags.js';
import { callsBeforeResume } from '../../explore/experiments/calls-before-resume.js';
import { measuredSummary } from '../../explore/experiments/measured-summary.js';
import type { ExperimentSettings } from '../../explore/experiments/run-experiments.js';
import type { RunHost } from '../../runs/run-host.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { renderTable } from '../render/render-table.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { addModeOptions } from '../mode-options.js';
import { addJsonOption, addRunFolderOption } from '../options.js';
import type { Run } from '../../runs/run.js';
import { stopOnInterrupt } from '../interrupt.js';
import { interactiveFeedback } from './ask-in-terminal.js';
import { reportError } from '../report-error.js';
import { UsageError } from '../../errors/codify-error.js';
import { boundToRun } from '../../llm/run-bound-caller.js';

/** What commander hands the action: the explore settings (less the papers), --resume and the output flags. */
type ExploreCommandOptions = Omit<ExploreModeSettings, 'papers'> & {
  resume?: string;
  root?: string;
  json?: boolean;
};

function summary(result: ExploreResult): string {
  const rows: [string, string][] = result.exploration.ideas.map((idea, index) => [
    `${index + 1}. ${idea.id}`,
    `${idea.card.title} — judge ${idea.score.toFixed(2)}; novelty ${idea.novelty.map((check) => `${check.against} ${check.verdict}`).join(', ')}`,
  ]);
  const totals = result.run.totals();
  return renderTable([
    ...rows,
    [
      'quotes',
      `${result.exploration.quotesChecked - result.exploration.unverifiedQuotes.length}/${result.exploration.quotesChecked} found in the papers`,
    ],
    [
      'model calls',
      `${totals.llmCalls}${result.reusedCalls > 0 ? ` (${result.reusedCalls} reused from the log)` : ''}`,
    ],
    ['tokens', `${totals.inputTokens} in, ${totals.outputTokens} out`],
    ...(result.experiments ?? []).map((record, index): [string, string] => [
      `measured ${index + 1}`,
      `${record.idea}: ${measuredSummary(record)}`,
    ]),
    ['ideas', result.ideasMarkdown],
    ...(result.report === undefined ? [] : [['report', result.report] as [string, string]]),
    ['run', result.run.dir],
  ]);
}

/** `codify explore PAPERS…`: problem analysis, idea cards, reviews and novelty, in a run. */
export function registerExploreCommand(program: Command): void {
  const command = program
    .command('explore')
    .description(
      'research ideas from papers: problem analysis with checked quotes, idea cards, judge reviews, refinement and novelty checks',
    );
  addModeOptions(command, 'explore').option(
    '--resume <run>',
    'continue an interrupted exploration; completed model calls are not paid again',
  );
  addRunFolderOption(command, 'for');
  addJsonOption(command, 'every event as one JSON line, then the result');
  command.action(exploreAction);
}

/** `codify explore PAPERS…` and `codify explore --resume RUN`, checked before a run exists. */
async function exploreAction(papers: string[], options: ExploreCommandOptions): Promise<void> {
  if (options.run !== undefined && options.sandbox === 'none' && options.json !== true)
    process.stderr.write(`${noSandboxWarning}\n`);
  const flags = modelFlagsFrom(options);
  await runExploreCommand(options, flags, async (host, models) => {
    checkFlags(papers, options);
    // Bad model flags or missing API keys stop the command before a run folder is made.
    const config = loadModelSetup(flags);
    if (options.paperReader === 'model') {
      for (const paper of papers) await checkModelPdfReading(paper, config.roles.planner.models[0]);
    }
    if (config.roles.judge.models.length === 0) {
      throw new UsageError(
        'no model is set for the judge, which reviews the ideas: pass --judge SPEC or --model SPEC',
      );
    }
    // A recording holds one session in call order, which experiments running side by side
    // would interleave; so record and replay one experiment at a time.
    const replays = Object.values(config.roles).some((role) =>
      role.models.some((model) => model.startsWith('replay:')),
    );
    if (options.parallel > 1 && (config.record !== undefined || replays)) {
      throw new UsageError(
        '--parallel runs experiments side by side, which a recording (--record) or a replay (replay:FILE) cannot follow: record and replay with --parallel 1',
      );
    }
    return options.resume === undefined
      ? runExplore({ settings: settingsFrom(papers, options), models, host })
      : resumeExplore(options.resume, { models, host, resumeParallel: options.parallel });
  });
}

/** What `codify explore` and `codify resume` share when they run an exploration. */
interface ExploreRunFlags {
  interactive?: boolean;
  root?: string;
  json?: boolean;
  parallel: number;
}

/**
 * Runs an exploration for a command: the host (terminal, Ctrl-C and SIGTERM as a stop, the
 * researcher with --interactive), the model callers, and the outcome: the summary or the
 * exploration's JSON and exit 0; a stop's message and its exit code (130, 143), after which
 * `codify resume RUN` continues the run; the error and exit 2 (input) or 1.
 */
async function runExploreCommand(
  options: ExploreRunFlags,
  flags: ModelFlags,
  work: (host: RunHost, models: (run: Run) => ModelCaller) => Promise<ExploreResult>,
): Promise<void> {
  const renderer = createTerminalRenderer({ json: options.json ?? false });
  const interrupt = stopOnInterrupt('explore');
  let exploration: Run | undefined;
  const host: RunHost = {
    argv: process.argv.slice(2),
    sinks: [renderer],
    onRun: (run) => {
      exploration = run;
    },
    signal: interrupt.signal,
    ...(options.interactive === true ? { feedback: interactiveFeedback() } : {}),
    ...(options.root === undefined ? {} : { runsRoot: options.root }),
  };
  try {
    const result = await work(host, sharedModels(flags, options.parallel));
    renderer.finish();
    process.stdout.write(
      options.json === true ? `${JSON.stringify(result.exploration)}\n` : `${summary(result)}\n`,
    );
    process.exitCode = 0;
  } catch (error) {
    renderer.finish();
    reportError('explore', error, { runDir: exploration?.id });
  } finally {
    interrupt.dispose();
  }
}

/**
 * One caller for the exploration and its experiment runs, each call logged in the run that
 * made it: a recording (--record) and a replay (replay:FILE) hold one session. With
 * --parallel, each experiment run has its own caller.
 */
function sharedModels(flags: ModelFlags, parallel: number): (run: Run) => ModelCaller {
  let shared: ModelRouter | undefined;
  return (run) => {
    // The exploration's run comes first; resumed, a replay continues after the calls of
    // the session that the resume does not ask again.
    if (shared === undefined) {
      shared = createRunModelCaller(
        flags,
        run,
        run.resumed ? callsBeforeResume(run.dir) : undefined,
      );
      return boundToRun(shared, run);
    }
    if (parallel > 1) return createRunModelCaller(flags, run);
    return boundToRun(shared, run);
  };
}

/** `codify resume RUN` for an exploration: as `codify explore --resume RUN`. */
export async function resumeExplorationCommand(
  reference: string,
  options: { interactive?: boolean; root?: string; json?: boolean },
  flags: ModelFlags,
): Promise<void> {
  await runExploreCommand({ ...options, parallel: 1 }, flags, (host, models) => {
    loadModelSetup(flags);
    return resumeExplore(reference, { models, host, resumeParallel: 1 });
  });
}

function checkFlags(papers: string[], options: ExploreCommandOptions): void {
  if (options.resume === undefined && papers.length === 0) {
    throw new UsageError('give at least one paper (codify explore PAPER…) or --resume RUN');
  }
  if (options.resume !== undefined && papers.length > 0) {
    throw new UsageError('--resume continues a run with its own papers; give no papers with it');
  }
  if ((options.run === undefined) !== (options.code === undefined)) {
    throw new UsageError(
      '--run and --code go together: --run top:K --code DIR runs the K best ideas on the prototype code in DIR',
    );
  }
  const given = Object.entries(experimentOnlySettings)
    .filter(([key]) => options[key as keyof typeof experimentOnlySettings] !== undefined)
    .map(([, flag]) => flag);
  if (options.resume !== undefined && given.length > 0) {
    throw new UsageError(
      `${given.join(' and ')}: a resumed exploration keeps the settings it was started with`,
    );
  }
  if (options.run === undefined && given.length > 0) {
    throw new UsageError(
      `${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} for experiments: give --run top:K --code DIR too`,
    );
  }
  if (
    options.literature === undefined &&
    (options.literatureUrl !== undefined || options.literatureCache !== undefined)
  ) {
    throw new UsageError(
      '--literature-url and --literature-cache need --literature [openalex|semantic-scholar|arxiv]',
    );
  }
}

/** The exploration's settings from the command's papers and flags. */
function settingsFrom(papers: string[], options: ExploreCommandOptions): ExploreSettings {
  return {
    paperPaths: papers,
    ideas: options.ideas,
    reviewers: options.reviewers,
    refineRounds: options.refineRounds,
    budgetMinutes: options.budgetMinutes,
    gpu: options.gpu ?? false,
    paperMaxChars: options.paperMaxChars,
    noveltyMinWorks: options.noveltyMinWorks,
    ...(options.paperReader === 'model' ? { paperReader: 'model' as const } : {}),
    ...(options.notes === undefined ? {} : { notesPath: options.notes }),
    ...(options.related === undefined ? {} : { relatedPath: options.related }),
    ...(options.run === undefined || options.code === undefined
      ? {}
      : { experiments: experimentSettingsFrom(options.run, options.code, options) }),
    ...(options.literature === undefined
      ? {}
      : {
          literature: {
            service: options.literature,
            ...(options.literatureUrl === undefined ? {} : { baseUrl: options.literatureUrl }),
            ...(options.literatureCache === undefined ? {} : { cacheDir: options.literatureCache }),
          },
        }),
  };
}

function experimentSettingsFrom(
  select: string,
  codeDir: string,
  options: ExploreCommandOptions,
): ExperimentSettings {
  return {
    select,
    codeDir,
    sandbox: options.sandbox,
    gpu: options.gpu ?? false,
    ...(options.python === undefined ? {} : { python: options.python }),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.maxSeeds === undefined ? {} : { maxSeeds: options.maxSeeds }),
    ...(options.parallel > 1 ? { parallel: options.parallel } : {}),
    ...(options.retrieve === true
      ? {
          retrieve: {
            cacheDir: join(defaultLiteratureCache(), '..', 'hub'),
            ...(options.hubUrl === undefined ? {} : { baseUrl: options.hubUrl }),
          },
        }
      : {}),
  };
}
