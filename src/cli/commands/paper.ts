import type { Command } from 'commander';
import { modelSpecsOf } from '../../config/model-specs.js';
import { modelFlagsFrom } from '../../config/model-flags.js';
import type { PaperSettings } from '../../modes/paper-settings.js';
import {
  checkModelPdfReading,
  checkPdfForModelReader,
} from '../../reader/read-paper-with-model.js';
import { runPaper } from '../../repo/run-paper.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import type { Run } from '../../runs/run.js';
import { createTerminalRenderer } from '../render/terminal-renderer.js';
import { addModeOptions } from '../mode-options.js';
import { addJsonOption, addRunFolderOption } from '../options.js';
import { stopOnInterrupt } from '../interrupt.js';
import { renderTable } from '../render/render-table.js';
import { createRunModelCaller, loadModelSetup } from '../model-caller.js';

/** What commander hands the action: the paper settings (less the paper) and the output flags. */
type PaperCommandOptions = Omit<PaperSettings, 'paper'> & { json?: boolean; root?: string };

const money = (cost: number | null) => (cost === null ? 'unknown' : `$${cost.toFixed(4)}`);

/** `codify paper PAPER`: a paper in, a git repository that runs (or says plainly why not) out. */
export function registerPaperCommand(program: Command): void {
  const command = program
    .command('paper')
    .description(
      'turn a paper (PDF, LaTeX, Markdown or text) into a repository: plan, analyze, generate, then run and repair it',
    );
  addModeOptions(command, 'paper');
  addRunFolderOption(command, 'for');
  addJsonOption(command, 'every event as one JSON line');
  command.action(async (paper: string, options: PaperCommandOptions) => {
    if (options.sandbox === 'none' && !options.json) process.stderr.write(`${noSandboxWarning}\n`);
    const renderer = createTerminalRenderer({ json: options.json ?? false });
    const flags = modelFlagsFrom(options);
    let current: Run | undefined;
    // The pipeline has no resume: Ctrl-C or SIGTERM records the run as stopped and exits.
    const interrupt = stopOnInterrupt('paper', {
      endNow: (signal) => {
        renderer.finish();
        current?.close(
          'stopped',
          `interrupted by ${signal}; run \`codify paper\` again to redo it`,
        );
      },
    });
    try {
      // Bad model flags or missing API keys stop the command before a run folder is made.
      if (options.paperReader === 'model') await checkPdfForModelReader(paper);
      const config = loadModelSetup(flags);
      if (options.paperReader === 'model') {
        await checkModelPdfReading(paper, config.roles.planner.models[0]);
      }
      const result = await runPaper({
        paperPath: paper,
        paperReader: options.paperReader,
        models: (run) => createRunModelCaller(flags, run),
        modelSpecs: modelSpecsOf(config),
        sandbox: options.sandbox,
        gpu: options.gpu ?? config.gpu,
        network: options.network ?? false,
        selfRefine: options.selfRefine ?? false,
        repairSteps: options.repairSteps,
        skipVerify: !options.verify,
        smokeTimeoutS: options.smokeTimeoutSeconds,
        paperMaxChars: options.paperMaxChars,
        argv: process.argv.slice(2),
        sinks: [renderer],
        ...(options.python === undefined ? {} : { python: options.python }),
        ...(options.out === undefined ? {} : { outDir: options.out }),
        ...(options.root === undefined ? {} : { runsRoot: options.root }),
        onRun: (run) => {
          current = run;
        },
      });
      renderer.finish();
      if (!options.json) {
        const report = result.report;
        process.stdout.write(
          `${renderTable([
            ['repository', report.repository],
            ['entry point', report.entryPoint],
            [
              'files',
              `${report.files.length} (${report.files.reduce((sum, file) => sum + file.lines, 0)} lines)`,
            ],
            ['verify', `${report.verify.ok ? 'runs' : 'does not run'}: ${report.verify.summary}`],
            ['model calls', String(report.totals.calls)],
            [
              'tokens',
              `${report.totals.inputTokens} in (${report.totals.cachedInputTokens} cached), ${report.totals.outputTokens} out`,
            ],
            ['cost', money(report.totals.costUsd)],
            ['report', result.reportPath],
            ['run', result.run.dir],
          ])}\n`,
        );
      }
      process.exitCode = result.report.verify.ok || !options.verify ? 0 : 1;
    } catch (error) {
      renderer.finish();
      process.stderr.write(
        `codify paper: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 2;
    } finally {
      interrupt.dispose();
    }
  });
}
