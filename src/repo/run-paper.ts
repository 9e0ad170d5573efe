import { basename, extname, join, resolve } from 'node:path';
import { EnvironmentError, InputError } from '../errors/codify-error.js';
import type { ModelCaller, RoleName } from '../llm/types.js';
import type { PaperDocument } from '../reader/document.js';
import { fitDocument } from '../reader/fit-document.js';
import { readPaper } from '../reader/read-paper.js';
import type { PaperReader } from '../reader/paper-reader.js';
import { checkPdfForModelReader, readPaperWithModel } from '../reader/read-paper-with-model.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { findRun } from '../runs/find-run.js';
import { withRun, type RunClosing, type RunScope } from '../runs/lifecycle.js';
import { readEvents } from '../runs/read-events.js';
import type { RunHost } from '../runs/run-host.js';
import { readRunSettings } from '../runs/run-settings.js';
import type { Run } from '../runs/run.js';
import { resolveRunsRoot } from '../runs/runs-root.js';
import { createSandbox, defaultLimits, type SandboxKind } from '../sandbox/index.js';
import { unusedGpuNotice } from '../sandbox/gpus.js';
import {
  candidateInterpreters,
  closestInterpreter,
  describeNoInterpreter,
  findInterpreter,
  probeInterpreter,
} from '../sandbox/interpreters.js';
import type { Sandbox } from '../sandbox/types.js';
import { agentRepairer } from './agent-repair.js';
import {
  checkOutputFolder,
  paperToRepository,
  type PaperToRepoOptions,
  type PaperToRepoResult,
} from './pipeline.js';
import { renderDesign } from './planning.js';
import { splitRequirements } from './requirements.js';
import { richestInterpreter, type TargetEnvironment } from './target-environment.js';

/** What a paper run is started with; saved with the run, so `codify resume` repeats it. */
export interface PaperSettings {
  paperPath: string;
  /** `model`: the planner reads the PDF itself, inside the run (default `local`). */
  paperReader?: PaperReader;
  sandbox?: SandboxKind;
  python?: string;
  gpu?: boolean;
  /** Let the smoke run, tests and repair reach the network (default false). */
  network?: boolean;
  outDir?: string;
  selfRefine?: boolean;
  /** Grade the code against the checklist and rewrite for unmet requirements (default true). */
  selfCheck?: boolean;
  /** Agent steps for repairing a failing smoke run (default 15; 0 turns repair off). */
  repairSteps?: number;
  /** Characters of paper given to prompts before sections are summarized (default 60 000). */
  paperMaxChars?: number;
  /** Smoke-run time limit in seconds (default 300). */
  smokeTimeoutS?: number;
  skipVerify?: boolean;
}

/** The run's models: its caller, built once the run exists so calls are logged in it, and the specs run-start lists. */
export interface PaperModels {
  caller: (run: Run) => ModelCaller;
  specs?: Partial<Record<RoleName, string[]>>;
}

/** The repository and its report, the run, and whether the run ended `completed` (it ran, or verify was off). */
export type PaperOutcome = PaperToRepoResult & { run: Run; completed: boolean };

/** Modules the generated code will need at least; the logic design adds its own later. */
const baselineModules = ['numpy'];

/** What preflight found: the paper read locally (unless a model reads it), sandbox, interpreter. */
interface Ready {
  local: PaperDocument | undefined;
  sandbox: Sandbox;
  interpreter: string;
}

/**
 * Everything that can be checked before a run folder exists: the paper, the sandbox, an
 * interpreter and (for a new run) an empty output folder.
 */
async function preflight(settings: PaperSettings, resumed: boolean): Promise<Ready> {
  const byModel = settings.paperReader === 'model';
  // Read locally now; a model reads inside the run, so its call is logged and counted there.
  const local = byModel ? undefined : await readPaper(settings.paperPath);
  if (byModel) await checkPdfForModelReader(settings.paperPath);
  const sandbox = await createSandbox(settings.sandbox ?? 'bubblewrap');
  const choice = await findInterpreter(baselineModules, settings.python);
  if (choice.chosen === undefined)
    throw new EnvironmentError(describeNoInterpreter(baselineModules, choice.failures));
  if (!resumed && settings.outDir !== undefined) {
    const problem = checkOutputFolder(settings.outDir);
    if (problem !== undefined) throw new InputError(problem);
  }
  return { local, sandbox, interpreter: choice.chosen.path };
}

/**
 * `codify paper`: checks the paper, sandbox, interpreter and output folder before any model
 * call, then runs ingest and the pipeline's stages in a new run (the one lifecycle,
 * src/runs/lifecycle.ts) and closes it with the report.
 */
export async function runPaper(
  settings: PaperSettings,
  host: RunHost,
  models: PaperModels,
): Promise<PaperOutcome> {
  const ready = await preflight(settings, false);
  const saved: PaperSettings = {
    ...settings,
    // Absolute, so a resume from another folder finds them.
    paperPath: resolve(settings.paperPath),
    ...(settings.outDir === undefined ? {} : { outDir: resolve(settings.outDir) }),
  };
  const name =
    ready.local?.title || basename(settings.paperPath, extname(settings.paperPath)) || 'paper';
  return withRun(
    {
      mode: 'paper',
      name,
      task: settings.paperPath,
      settings: saved,
      ...(models.specs === undefined ? {} : { models: models.specs }),
    },
    host,
    models.caller,
    (scope) => paperBody(scope, saved, ready),
  );
}

/**
 * `codify resume RUN` for a paper run: the settings it was started with, the stages it
 * finished returned from their stored results, the model calls it completed answered from
 * its log; the rest is done now. A run that ended `completed` is refused as it is.
 */
export async function resumePaper(
  reference: string,
  host: RunHost,
  models: PaperModels,
): Promise<PaperOutcome> {
  const runDir = findRun(reference, resolveRunsRoot(host.runsRoot));
  refuseFinished(runDir);
  const settings = readRunSettings(runDir, 'paper') as PaperSettings;
  const ready = await preflight(settings, true);
  return withRun(
    { resume: runDir, ...(models.specs === undefined ? {} : { models: models.specs }) },
    host,
    models.caller,
    (scope) => paperBody(scope, settings, ready),
  );
}

/** Only a run that was killed, stopped or failed resumes; the folder is left untouched otherwise. */
function refuseFinished(runDir: string): void {
  const end = readEvents(runDir).events.findLast((event) => event.type === 'run-end');
  if (end?.type === 'run-end' && end.status !== 'failed' && end.status !== 'stopped') {
    throw new InputError(
      `${runDir} has already ended ${end.status}; there is nothing to resume (start a new run with \`codify paper\`)`,
    );
  }
}

/** The run's work: ingest, then the repository's stages; completed unless the smoke run fails. */
async function paperBody(
  scope: RunScope,
  settings: PaperSettings,
  ready: Ready,
): Promise<RunClosing<PaperOutcome>> {
  const { run, stages, models } = scope;
  const paper = await stages.run('ingest', () => ingest(settings, ready, models, run), {
    detail: `${ready.local?.source.format ?? 'pdf, read by the planner model'}: ${settings.paperPath}`,
    describe: (ingested) =>
      `${ingested.sections} sections, ${ingested.fullText.length} characters${ingested.summarized.length > 0 ? `; summarized: ${ingested.summarized.join(', ')}` : ''}`,
  });
  const gpuNotice = unusedGpuNotice(settings.gpu ?? false);
  if (gpuNotice !== undefined) run.emit({ type: 'log', level: 'warn', message: gpuNotice });
  const result = await paperToRepository(
    pipelineOptions({ ...scope, models }, settings, ready, paper),
  );
  const verified = result.report.verify.ok;
  const completed = verified || settings.skipVerify === true;
  return {
    status: completed ? 'completed' : 'failed',
    reason: result.report.verify.summary,
    result: {
      repository: result.repository,
      report: join(run.dir, 'report.md'),
      verified,
      ...(result.report.selfCheck === undefined
        ? {}
        : {
            selfCheck: {
              leaves: result.report.selfCheck.leaves,
              before: result.report.selfCheck.before.score,
              after: (result.report.selfCheck.after ?? result.report.selfCheck.before).score,
            },
          }),
    },
    value: { ...result, run, completed },
  };
}

/** The pipeline's options from the run's settings: limits, interpreters, the agent as repairer. */
function pipelineOptions(
  { run, stages, host, models }: Pick<RunScope, 'run' | 'stages' | 'host' | 'models'>,
  settings: PaperSettings,
  ready: Ready,
  paper: Ingested,
): PaperToRepoOptions {
  const gpu = settings.gpu ?? false;
  const network = settings.network ?? false;
  const limits = { ...defaultLimits, timeoutMs: (settings.smokeTimeoutS ?? 300) * 1000 };
  const signal = host.signal === undefined ? {} : { signal: host.signal };
  // Probed once per process: planning and every later choice of interpreter ask it.
  let usual: Promise<TargetEnvironment | undefined> | undefined;
  const richest = () => (usual ??= candidateInterpreters(settings.python).then(richestInterpreter));
  return {
    paperText: paper.text,
    fullPaperText: paper.fullText,
    title: paper.title,
    models,
    run,
    stages,
    ...signal,
    sandbox: ready.sandbox,
    interpreter: ready.interpreter,
    limits,
    selfRefine: settings.selfRefine ?? false,
    selfCheck: settings.selfCheck ?? true,
    repairBudgetSteps: settings.repairSteps ?? 15,
    gpu,
    network,
    skipVerify: settings.skipVerify ?? false,
    ...(settings.outDir === undefined ? {} : { outDir: settings.outDir }),
    usualInterpreter: richest,
    chooseInterpreter: async (requires) => {
      // The interpreter planning was told, whenever it imports what the code needs.
      const preferred = (await richest())?.interpreter;
      if (preferred !== undefined) {
        const probe = await probeInterpreter(preferred, requires).catch(() => undefined);
        if (probe !== undefined && requires.every((name) => probe.modules[name]))
          return { path: preferred, missing: [] };
      }
      const found = await findInterpreter(requires, settings.python);
      return (
        closestInterpreter(found, requires) ?? {
          problem: describeNoInterpreter(requires, found.failures),
        }
      );
    },
    makeRepairer: (repoDir, plan, interpreter) =>
      agentRepairer({
        repoDir,
        plan,
        design: renderDesign(plan),
        models,
        run,
        sandbox: ready.sandbox,
        interpreter,
        limits,
        gpu,
        network,
        pythonRequires: splitRequirements(plan).run.map((pkg) => pkg.importName),
        ...signal,
      }),
  };
}

/** The paper as the prompts see it (stored, so a resumed run does not read or summarize again). */
interface Ingested {
  title: string;
  text: string;
  fullText: string;
  sections: number;
  summarized: string[];
}

/** Ingest: the paper read (by a model, for `--paper-reader model`) and fitted to the prompts. */
async function ingest(
  settings: PaperSettings,
  ready: Ready,
  models: ModelCaller,
  run: Run,
): Promise<Ingested> {
  const document =
    ready.local ??
    (await readPaperWithModel(settings.paperPath, models, { emit: (event) => run.emit(event) }));
  const fitted = await fitDocument(document, {
    maxChars: settings.paperMaxChars ?? 60_000,
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
          label: `summarize ${heading}`,
          expect: 'A dense summary of the section, at most 250 words.',
        })
      ).text,
  });
  return {
    title: document.title,
    text: fitted.text,
    fullText: fitted.fullText,
    sections: document.sections.length,
    summarized: fitted.summarized,
  };
}
