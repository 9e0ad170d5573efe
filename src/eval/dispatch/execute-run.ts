import type { LanguageModel } from 'ai';
import { runImplement } from '../../agent/implement.js';
import { readSettings, settingsFile } from '../../agent/implement-settings.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resumeAgent } from '../../agent/resume.js';
import type { CodifyConfig } from '../../config/codify-config.js';
import type { Answerer } from '../../llm/answerer.js';
import { createModelCaller } from '../../llm/create-model-caller.js';
import type { ModelRouter } from '../../llm/router.js';
import { readEvents } from '../../runs/read-events.js';
import { runPaper } from '../../repo/run-paper.js';
import { resumeExplore, runExplore, type ExploreSettings } from '../../explore/run-explore.js';
import { hasExploreSettings } from '../../explore/explore-settings.js';
import type { EventSink } from '../../runs/events.js';
import type { RunHost } from '../../runs/run-host.js';
import type { Run } from '../../runs/run.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import { positionedReplays } from './resumed-replay.js';
import { modelSpecsOf } from '../../config/model-specs.js';
import { configForRun } from './run-config.js';
import type { RunState } from './run-state.js';
import type { ExploreItem, Suite } from '../suite/suite.js';

/** Models a test or an embedding program supplies by spec, fresh for each run. */
export type AnswererFactory = (
  spec: string,
  planned: PlannedRun,
) => LanguageModel | Answerer | undefined;

export interface ExecuteRunOptions {
  suite: Suite;
  planned: PlannedRun;
  state: RunState;
  baseConfig: CodifyConfig;
  answerers?: AnswererFactory;
  /** The run's watchers, command line and stop signal (runsRoot is the combination's root). */
  host: RunHost;
  onRun: (run: Run, resumed: boolean) => void;
}

function suppliedModels(
  config: CodifyConfig,
  planned: PlannedRun,
  factory: AnswererFactory | undefined,
): Record<string, LanguageModel | Answerer> {
  const models: Record<string, LanguageModel | Answerer> = {};
  if (factory === undefined) return models;
  for (const settings of Object.values(config.roles)) {
    for (const spec of settings.models) {
      const model = models[spec] ?? factory(spec, planned);
      if (model !== undefined) models[spec] = model;
    }
  }
  return models;
}

/**
 * Runs one combination through the pipelines as a library, as `codify implement`,
 * `codify resume` or `codify paper` would: a new run in the combination's root, or the
 * interrupted implement run continued. Resolves once the run has ended (its own
 * result.json or report.json says how); throws for what stops a run before it starts.
 */
export async function executeRun(options: ExecuteRunOptions): Promise<void> {
  const { suite, planned, state } = options;
  if (planned.item.kind === 'explore') {
    await executeExplore(options, planned.item);
    return;
  }
  const specs = planned.model.specsFor(planned.item.name, planned.strategy, planned.trial);
  // A paper run's self-check is part of the method under evaluation: the model under
  // evaluation grades its own code there, never the suite's judge, whose grades score it.
  const config = configForRun(
    options.baseConfig,
    specs,
    planned.item.kind === 'paper' ? (specs.planner?.[0] ?? suite.judge.model) : suite.judge.model,
  );
  const modelSpecs = modelSpecsOf(config);
  if (
    planned.item.kind === 'task' &&
    planned.strategy !== 'paper' &&
    planned.strategy !== 'explore'
  ) {
    // Killed before its settings were saved, a run has nothing to resume: it starts again.
    const resumable = state.kind === 'interrupted' && existsSync(join(state.runDir, settingsFile));
    if (state.kind === 'interrupted' && resumable) {
      const settings = await readSettings(state.runDir);
      const replays = positionedReplays(config, state.runDir, settings.strategy === 'agent');
      const models = { ...replays, ...suppliedModels(config, planned, options.answerers) };
      await resumeAgent(state.runDir, {
        models: (run) => createModelCaller(config, { run, models }),
        runsRoot: planned.root,
        ...hostFields(options.host),
        ...(suite.budgets === undefined ? {} : { agent: suite.budgets }),
        onRun: (run) => options.onRun(run, true),
      });
      return;
    }
    await runImplement({
      taskDir: planned.item.path,
      strategy: planned.strategy,
      models: (run) =>
        createModelCaller(config, {
          run,
          models: suppliedModels(config, planned, options.answerers),
        }),
      modelSpecs,
      sandbox: suite.sandbox,
      ...(suite.python === undefined ? {} : { python: suite.python }),
      agent: { ...suite.budgets, interactive: false },
      runsRoot: planned.root,
      ...hostFields(options.host),
      onRun: (run) => options.onRun(run, false),
    });
    return;
  }
  await runPaper(
    {
      paperPath: planned.item.path,
      sandbox: suite.sandbox,
      ...(suite.python === undefined ? {} : { python: suite.python }),
      ...(suite.paper.repairSteps === undefined ? {} : { repairSteps: suite.paper.repairSteps }),
      ...(suite.paper.smokeTimeoutS === undefined
        ? {}
        : { smokeTimeoutS: suite.paper.smokeTimeoutS }),
      ...(suite.paper.selfRefine === undefined ? {} : { selfRefine: suite.paper.selfRefine }),
    },
    {
      runsRoot: planned.root,
      sinks: options.host.sinks,
      argv: options.host.argv,
      signal: options.host.signal,
      onRun: (run) => options.onRun(run, false),
    },
    {
      caller: (run) =>
        createModelCaller(config, {
          run,
          models: suppliedModels(config, planned, options.answerers),
        }),
      specs: modelSpecs,
    },
  );
}

/** The host's watchers, command line and stop signal, as the implement entry points take them. */
function hostFields(host: RunHost): { sinks: EventSink[]; argv?: string[]; signal?: AbortSignal } {
  return {
    sinks: host.sinks ?? [],
    ...(host.argv === undefined ? {} : { argv: host.argv }),
    ...(host.signal === undefined ? {} : { signal: host.signal }),
  };
}

/** The paper defaults `codify explore` uses when no flag says otherwise. */
const explorePaperMaxChars = 60_000;

/**
 * An exploration as `codify explore` runs it, or `codify explore --resume` continues it: an
 * interrupted one with its settings saved is resumed (the calls it completed are answered
 * from its log, and a replayed recording continues after them); one killed before that
 * starts again. One caller serves the exploration and its experiment runs, as in the
 * command, so a recorded session replays in order across them.
 */
async function executeExplore(options: ExecuteRunOptions, item: ExploreItem): Promise<void> {
  const { suite, planned, state } = options;
  const specs = planned.model.specsFor(item.name, planned.strategy, planned.trial);
  // The reviews are part of the exploration: the suite's judge gives them when it names one
  // (scores comparable across models), else the model under evaluation.
  const config = configForRun(options.baseConfig, specs, suite.judge.model ?? specs.expert);
  const resume =
    state.kind === 'interrupted' && hasExploreSettings(state.runDir) ? state.runDir : undefined;
  const completedCalls =
    resume === undefined
      ? 0
      : readEvents(resume).events.filter((event) => event.type === 'llm-end').length;
  let shared: ModelRouter | undefined;
  const common = {
    models: (run: Run) => {
      if (shared === undefined) {
        shared = createModelCaller(config, {
          run,
          models: suppliedModels(config, planned, options.answerers),
          completedCalls,
        });
      } else shared.useRun(run);
      return shared;
    },
    host: {
      runsRoot: planned.root,
      sinks: options.host.sinks,
      childSinks: options.host.childSinks,
      argv: options.host.argv,
      signal: options.host.signal,
      onRun: (run: Run) => options.onRun(run, resume !== undefined),
    },
  };
  if (resume !== undefined) {
    await resumeExplore(resume, common);
    return;
  }
  const maxSteps = item.experiments?.maxSteps ?? suite.budgets.maxSteps;
  const settings: ExploreSettings = {
    paperPaths: item.papers,
    ...(item.notes === undefined ? {} : { notesPath: item.notes }),
    ...(item.related === undefined ? {} : { relatedPath: item.related }),
    ideas: item.ideas,
    reviewers: item.reviewers,
    refineRounds: item.refineRounds,
    budgetMinutes: item.budgetMinutes,
    gpu: item.gpu,
    paperMaxChars: explorePaperMaxChars,
    ...(item.experiments === undefined
      ? {}
      : {
          experiments: {
            select: item.experiments.select,
            codeDir: item.experiments.codeDir,
            sandbox: suite.sandbox,
            gpu: item.gpu,
            ...(suite.python === undefined ? {} : { python: suite.python }),
            ...(maxSteps === undefined ? {} : { maxSteps }),
          },
        }),
  };
  await runExplore({ settings, ...common });
}
