import { basename, extname, join } from 'node:path';
import type { ModelCaller, RoleName } from '../llm/types.js';
import { fitDocument } from '../reader/fit-document.js';
import { readPaper } from '../reader/read-paper.js';
import type { PaperReader } from '../reader/paper-reader.js';
import { checkPdfForModelReader, readPaperWithModel } from '../reader/read-paper-with-model.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { createRun, type Run } from '../runs/run.js';
import type { EventSink } from '../runs/events.js';
import { createSandbox, defaultLimits, type SandboxKind } from '../sandbox/index.js';
import { unusedGpuNotice } from '../sandbox/gpus.js';
import {
  closestInterpreter,
  describeNoInterpreter,
  findInterpreter,
} from '../sandbox/interpreters.js';
import type { SandboxLimits } from '../sandbox/types.js';
import { agentRepairer } from './agent-repair.js';
import { checkOutputFolder, paperToRepository, type PaperToRepoResult } from './pipeline.js';
import { renderDesign } from './planning.js';
import { splitRequirements } from './requirements.js';

export interface RunPaperOptions {
  paperPath: string;
  /** `model`: the planner reads the PDF itself, inside the run (default `local`). */
  paperReader?: PaperReader;
  /** Builds the run's model caller once the run exists, so calls are logged in it. */
  models: (run: Run) => ModelCaller;
  /** The model specs per role, listed in run-start so the run says which models wrote it. */
  modelSpecs?: Partial<Record<RoleName, string[]>>;
  sandbox?: SandboxKind;
  python?: string;
  gpu?: boolean;
  /** Let the smoke run, tests and repair reach the network (default false). */
  network?: boolean;
  outDir?: string;
  selfRefine?: boolean;
  /** Agent steps for repairing a failing smoke run (default 15; 0 turns repair off). */
  repairSteps?: number;
  /** Characters of paper given to prompts before sections are summarized (default 60 000). */
  paperMaxChars?: number;
  /** Smoke-run time limit in seconds (default 300). */
  smokeTimeoutS?: number;
  skipVerify?: boolean;
  runsRoot?: string;
  argv?: string[];
  sinks?: EventSink[];
  onRun?: (run: Run) => void;
}

/** Modules the generated code will need at least; the logic design adds its own later. */
const baselineModules = ['numpy'];

/**
 * `codify paper`: reads the paper, checks the sandbox, interpreter and output folder before
 * any model call, then runs the pipeline in a new run and closes it with the report.
 */
export async function runPaper(
  options: RunPaperOptions,
): Promise<PaperToRepoResult & { run: Run }> {
  const byModel = options.paperReader === 'model';
  // Read locally now; a model reads inside the run, so its call is logged and counted there.
  const local = byModel ? undefined : await readPaper(options.paperPath);
  if (byModel) await checkPdfForModelReader(options.paperPath);
  const sandboxKind = options.sandbox ?? 'bubblewrap';
  const sandbox = await createSandbox(sandboxKind);
  const choice = await findInterpreter(baselineModules, options.python);
  if (choice.chosen === undefined)
    throw new Error(describeNoInterpreter(baselineModules, choice.failures));
  if (options.outDir !== undefined) {
    const problem = checkOutputFolder(options.outDir);
    if (problem !== undefined) throw new Error(problem);
  }
  const run = createRun({
    mode: 'paper',
    name: local?.title || basename(options.paperPath, extname(options.paperPath)) || 'paper',
    task: options.paperPath,
    ...(options.modelSpecs === undefined ? {} : { models: options.modelSpecs }),
    ...(options.runsRoot === undefined ? {} : { root: options.runsRoot }),
    ...(options.argv === undefined ? {} : { argv: options.argv }),
    ...(options.sinks === undefined ? {} : { sinks: options.sinks }),
  });
  options.onRun?.(run);
  const models = options.models(run);
  try {
    run.emit({
      type: 'stage-start',
      stage: 'ingest',
      detail: `${local?.source.format ?? 'pdf, read by the planner model'}: ${options.paperPath}`,
    });
    const document =
      local ??
      (await readPaperWithModel(options.paperPath, models, { emit: (event) => run.emit(event) }));
    const fitted = await fitDocument(document, {
      maxChars: options.paperMaxChars ?? 60_000,
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
    run.emit({
      type: 'stage-end',
      stage: 'ingest',
      ok: true,
      detail: `${document.sections.length} sections, ${fitted.fullText.length} characters${fitted.summarized.length > 0 ? `; summarized: ${fitted.summarized.join(', ')}` : ''}`,
    });
    const limits: SandboxLimits = {
      ...defaultLimits,
      timeoutMs: (options.smokeTimeoutS ?? 300) * 1000,
    };
    const gpu = options.gpu ?? false;
    const gpuNotice = unusedGpuNotice(gpu);
    if (gpuNotice !== undefined) run.emit({ type: 'log', level: 'warn', message: gpuNotice });
    const network = options.network ?? false;
    const result = await paperToRepository({
      paperText: fitted.text,
      fullPaperText: fitted.fullText,
      title: document.title,
      models,
      run,
      sandbox,
      interpreter: choice.chosen.path,
      limits,
      selfRefine: options.selfRefine ?? false,
      repairBudgetSteps: options.repairSteps ?? 15,
      gpu,
      network,
      skipVerify: options.skipVerify ?? false,
      ...(options.outDir === undefined ? {} : { outDir: options.outDir }),
      chooseInterpreter: async (requires) => {
        const found = await findInterpreter(requires, options.python);
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
          sandbox,
          interpreter,
          limits,
          gpu,
          network,
          pythonRequires: splitRequirements(plan).run.map((pkg) => pkg.importName),
        }),
    });
    const status = result.report.verify.ok || options.skipVerify ? 'completed' : 'failed';
    run.close(status, result.report.verify.summary, {
      repository: result.repository,
      report: join(run.dir, 'report.md'),
      verified: result.report.verify.ok,
    });
    return { ...result, run };
  } catch (error) {
    run.close('failed', error instanceof Error ? error.message : String(error));
    throw error;
  }
}
