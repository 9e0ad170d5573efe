import type { Command } from 'commander';
import { modelFlagsFrom } from '../../config/model-flags.js';
import { ExploreInputError } from '../../explore/explore-input-error.js';
import { join } from 'node:path';
import {
  defaultLiteratureCache,
  resumeExplore,
  runExplore,
  type ExploreResult,
  type ExploreSettings,
} from '../../explore/run-explore.js';
import { PaperError } from '../../reader/paper-error.js';
import type { ExploreSettings as ExploreModeSettings } from '../../modes/explore-settings.js';
import { checkModelPdfReading } from '../../reader/read-paper-with-model.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { RunNotFoundError } from '../../runs/find-run.js';
import type { ModelRouter } from '../../llm/router.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';
import { renderTable } from '../render/render-table.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { addModeOptions } from '../mode-options.js';
import { addJsonOption, addRunFolderOption } from '../options.js';
import type { Run } from '../../runs/run.js';
import { stopOnInterrupt } from '../interrupt.js';
import { interactiveFeedback } from './ask-in-terminal.js';

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
      `${record.idea}: ${record.metric === undefined ? record.status : `${record.metric.name} ${String(record.metric.value)} vs baseline ${String(record.metric.baseline)} (${record.metric.improvement === null ? 'no improvement measured' : `${record.metric.improvement >= 0 ? '+' : ''}${record.metric.improvement}`})`}`,
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
  command.action(async (papers: string[], options: ExploreCommandOptions) => {
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options);
    if (options.run !== undefined && options.sandbox === 'none' && options.json !== true)
      process.stderr.write(`${noSandboxWarning}\n`);
    let exploration: Run | undefined;
    // Ctrl-C or SIGTERM records the exploration as stopped and exits; --resume continues it
    // (its experiments' implement runs, left killed, are resumed after their last step).
    const interrupt = stopOnInterrupt('explore', {
      endNow: (signal) => {
        renderer.finish();
        exploration?.close(
          'stopped',
          `interrupted by ${signal}; \`codify explore --resume ${exploration.id}\` continues it`,
        );
      },
    });
    try {
      if (options.resume === undefined && papers.length === 0) {
        throw new ExploreInputError(
          'give at least one paper (codify explore PAPER…) or --resume RUN',
        );
      }
      if (options.resume !== undefined && papers.length > 0) {
        throw new ExploreInputError(
          '--resume continues a run with its own papers; give no papers with it',
        );
      }
      if ((options.run === undefined) !== (options.code === undefined)) {
        throw new ExploreInputError(
          '--run and --code go together: --run top:K --code DIR runs the K best ideas on the prototype code in DIR',
        );
      }
      if (
        options.literature === undefined &&
        (options.literatureUrl !== undefined || options.literatureCache !== undefined)
      ) {
        throw new ExploreInputError(
          '--literature-url and --literature-cache need --literature semantic-scholar|openalex|arxiv',
        );
      }
      // Bad model flags or missing API keys stop the command before a run folder is made.
      const config = loadModelSetup(flags);
      if (options.paperReader === 'model') {
        for (const paper of papers)
          await checkModelPdfReading(paper, config.roles.planner.models[0]);
      }
      if (config.roles.judge.models.length === 0) {
        throw new ExploreInputError(
          'no model is set for the judge, which reviews the ideas: pass --judge SPEC or --model SPEC',
        );
      }
      // A recording holds one session in call order, which experiments running side by side
      // would interleave; so record and replay one experiment at a time.
      const replays = Object.values(config.roles).some((role) =>
        role.models.some((model) => model.startsWith('replay:')),
      );
      if (options.parallel > 1 && (config.record !== undefined || replays)) {
        throw new ExploreInputError(
          '--parallel runs experiments side by side, which a recording (--record) or a replay (replay:FILE) cannot follow: record and replay with --parallel 1',
        );
      }
      // One caller for the exploration and its experiment runs, each call logged in the run
      // that made it: a recording (--record) and a replay (replay:FILE) hold one session.
      // With --parallel, each experiment run has its own caller.
      let shared: ModelRouter | undefined;
      const common = {
        models: (run: Parameters<typeof createRunModelCaller>[1]) => {
          if (shared === undefined) shared = createRunModelCaller(flags, run);
          else if (options.parallel > 1) return createRunModelCaller(flags, run);
          else shared.useRun(run);
          return shared;
        },
        argv: process.argv.slice(2),
        sinks: [renderer],
        onRun: (run: Run) => {
          exploration = run;
        },
        ...(options.interactive === true ? { feedback: interactiveFeedback() } : {}),
        ...(options.root === undefined ? {} : { runsRoot: options.root }),
      };
      let result: ExploreResult;
      if (options.resume !== undefined) {
        result = await resumeExplore(options.resume, {
          ...common,
          resumeParallel: options.parallel,
        });
      } else {
        const settings: ExploreSettings = {
          paperPaths: papers,
          ideas: options.ideas,
          reviewers: options.reviewers,
          refineRounds: options.refineRounds,
          budgetMinutes: options.budgetMinutes,
          gpu: options.gpu ?? false,
          paperMaxChars: options.paperMaxChars,
          ...(options.paperReader === 'model' ? { paperReader: 'model' as const } : {}),
          ...(options.notes === undefined ? {} : { notesPath: options.notes }),
          ...(options.related === undefined ? {} : { relatedPath: options.related }),
          ...(options.run === undefined || options.code === undefined
            ? {}
            : {
                experiments: {
                  select: options.run,
                  codeDir: options.code,
                  sandbox: options.sandbox,
                  gpu: options.gpu ?? false,
                  ...(options.python === undefined ? {} : { python: options.python }),
                  ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
                  ...(options.parallel > 1 ? { parallel: options.parallel } : {}),
                  ...(options.retrieve === true
                    ? {
                        retrieve: {
                          cacheDir: join(defaultLiteratureCache(), '..', 'hub'),
                          ...(options.hubUrl === undefined ? {} : { baseUrl: options.hubUrl }),
                        },
                      }
                    : {}),
                },
              }),
          ...(options.literature === undefined
            ? {}
            : {
                literature: {
                  service: options.literature,
                  ...(options.literatureUrl === undefined
                    ? {}
                    : { baseUrl: options.literatureUrl }),
                  ...(options.literatureCache === undefined
                    ? {}
                    : { cacheDir: options.literatureCache }),
                },
              }),
        };
        result = await runExplore({ settings, ...common });
      }
      renderer.finish();
      process.stdout.write(
        options.json === true ? `${JSON.stringify(result.exploration)}\n` : `${summary(result)}\n`,
      );
      process.exitCode = 0;
    } catch (error) {
      renderer.finish();
      process.stderr.write(
        `codify explore: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      const usage =
        error instanceof ExploreInputError ||
        error instanceof PaperError ||
        error instanceof RunNotFoundError;
      process.exitCode = usage ? 2 : 1;
    } finally {
      interrupt.dispose();
    }
  });
}
