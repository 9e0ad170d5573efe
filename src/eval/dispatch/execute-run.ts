import type { LanguageModel } from 'ai';
import { runImplement } from '../../agent/implement.js';
import { settingsFile } from '../../agent/implement-settings.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resumeAgent } from '../../agent/resume.js';
import type { CodifyConfig } from '../../config/codify-config.js';
import type { StrategyName } from '../../agent/strategies/strategy.js';
import type { Answerer } from '../../llm/answerer.js';
import { createModelCaller } from '../../llm/create-model-caller.js';
import type { ModelRouter } from '../../llm/router.js';
import { readEvents } from '../../runs/read-events.js';
import { resumePaper, runPaper, type PaperModels } from '../../repo/run-paper.js';
import { callsInHistory } from '../../llm/calls-from-events.js';
import { runSettingsFile } from '../../runs/run-settings.js';
import { resumeExplore, runExplore, type ExploreSettings } from '../../explore/run-explore.js';
import { hasExploreSettings } from '../../explore/explore-settings.js';
import type { EventSink } from '../../runs/events.js';
import type { RunHost } from '../../runs/run-host.js';
import type { Run } from '../../runs/run.js';
import type { PlannedRun } from '../suite/plan-runs.js';
import { modelSpecsOf } from '../../config/model-specs.js';
import { configForRun } from './run-config.js';
import type { RunState } from './run-state.js';
import type { ExploreItem, Suite } from '../suite/suite.js';
import { boundToRun } from '../../llm/run-bound-caller.js';
import { callsBeforeResume } from '../../explore/experiments/calls-before-resume.js';

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
 * `codify paper` or `codify resume` would: a new run in the combination's root (also
 * after a run that failed), or the interrupted run continued in its folder. Resolves once
 * the run has ended (its own result.json or report.json says how); throws for what stops
 * a run before it starts, and for an error that ends it (`failed`).
 */
export async function executeRun(options: ExecuteRunOptions): Promise<void> {
  const { suite, planned } = options;
  const { item, strategy } = planned;
  if (item.kind === 'explore') {
    await executeExplore(options, item);
    return;
  }
  const specs = planned.model.specsFor(item.name, strategy, planned.trial);
  // A paper run's self-check is part of the method under evaluation: the model under
  // evaluation grades its own code there, never the suite's judge, whose grades score it.
  const config = configForRun(
    options.baseConfig,
    specs,
    item.kind === 'paper' ? (specs.planner?.[0] ?? suite.judge.model) : suite.judge.model,
  );
  if (item.kind === 'task' && strategy !== 'paper' && strategy !== 'explore') {
    await executeImplement(options, config, item.path, strategy);
    return;
  }
  await executePaper(options, config, item.path);
}

/** An implement run: the interrupted one continued after its last completed step, else a new one. */
async function executeImplement(
  options: ExecuteRunOptions,
  config: CodifyConfig,
  taskDir: string,
  strategy: StrategyName,
): Promise<void> {
  const { suite, planned, state } = options;
  const supplied = suppliedModels(config, planned, options.answerers);
  // Killed before its settings were saved, a run has nothing to resume: it starts again.
  if (state.kind === 'interrupted' && existsSync(join(state.runDir, settingsFile))) {
    await resumeAgent(state.runDir, {
      // Every call of the run's history is answered from its log (never paid twice): a
      // replayed recording continues after them.
      models: (run, resumed) =>
        createModelCaller(config, {
          run,
          models: supplied,
          completedCalls: resumed.completedCalls,
        }),
      runsRoot: planned.root,
      ...hostFields(options.host),
      ...(suite.budgets === undefined ? {} : { agent: suite.budgets }),
      onRun: (run) => options.onRun(run, true),
    });
    return;
  }
  await runImplement({
    taskDir,
    strategy,
    models: (run) => createModelCaller(config, { run, models: supplied }),
    modelSpecs: modelSpecsOf(config),
    sandbox: suite.sandbox,
    ...(suite.python === undefined ? {} : { python: suite.python }),
    agent: { ...suite.budgets, interactive: false },
    runsRoot: planned.root,
    ...hostFields(options.host),
    onRun: (run) => options.onRun(run, false),
  });
}

/**
 * A paper run: one killed or stopped after it saved its settings continues in its folder
 * (the stages it finished kept, the calls it completed answered from its log), else a new one.
 */
async function executePaper(
  options: ExecuteRunOptions,
  config: CodifyConfig,
  paperPath: string,
): Promise<void> {
  const { suite, planned, state } = options;
  const resume =
    state.kind === 'interrupted' && existsSync(join(state.runDir, runSettingsFile))
      ? state.runDir
      : undefined;
  const completedCalls =
    resume === undefined ? undefined : callsInHistory(readEvents(resume).events);
  const models: PaperModels = {
    caller: (run) =>
      createModelCaller(config, {
        run,
        models: suppliedModels(config, planned, options.answerers),
        ...(completedCalls === undefined ? {} : { completedCalls }),
      }),
    specs: modelSpecsOf(config),
  };
  const host = {
    runsRoot: planned.root,
    sinks: options.host.sinks,
    argv: options.host.argv,
    signal: options.host.signal,
    onRun: (run: Run) => options.onRun(run, resume !== undefined),
  };
  if (resume !== undefined) {
    await resumePaper(resume, host, models);
    return;
  }
  await runPaper(
    {
      paperPath,
      sandbox: suite.sandbox,
      ...(suite.python === undefined ? {} : { python: suite.python }),
      ...(suite.paper.repairSteps === undefined ? {} : { repairSteps: suite.paper.repairSteps }),
      ...(suite.paper.smokeTimeoutS === undefined
        ? {}
        : { smokeTimeoutS: suite.paper.smokeTimeoutS }),
      ...(suite.paper.selfRefine === undefined ? {} : { selfRefine: suite.paper.selfRefine }),
    },
    host,
    models,
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
  // The exploration's own calls and its experiments' (one caller, one session in call order).
  const completedCalls = resume === undefined ? 0 : callsBeforeResume(resume);
  let shared: ModelRouter | undefined;
  const common = {
    models: (run: Run) => {
      if (shared === undefined) {
        shared = createModelCaller(config, {
          run,
          models: suppliedModels(config, planned, options.answerers),
          completedCalls,
        });
      }
      return boundToRun(shared, run);
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
            ...(item.experiments.maxSeeds === undefined
              ? {}
              : { maxSeeds: item.experiments.maxSeeds }),
          },
        }),
  };
  await runExplore({ settings, ...common });
}
