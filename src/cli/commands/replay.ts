import { exitCodes } from '../../errors/exit-codes.js';
import { reportError } from '../report-error.js';
import type { Command } from 'commander';
import { jsonOption, runFolderOption } from '../options.js';
import { renderTable } from '../render/render-table.js';
import { type ReplayReport, replayRun } from '../replay/replay-run.js';

interface ReplayCommandOptions {
  root?: string;
  json?: boolean;
}

function reportTable(report: ReplayReport): string {
  return renderTable([
    ['original run', `${report.originalRun} (${report.originalStatus})`],
    [
      'replay run',
      `${report.replayRun} (${report.replayStatus}${report.replayReason === null ? '' : `: ${report.replayReason}`})`,
    ],
    ['model calls', `${report.replayedCalls} replayed of ${report.recordedCalls} recorded`],
    ['divergence', report.divergence.message],
  ]);
}

/** `codify replay RUN`: exit 0 when the replay did not diverge, 1 when it did, 2 for a usage error. */
export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description(
      're-run a run with the model answers from its own event log and real execution, as a new run, and report where it diverges',
    )
    .argument('<run>', 'the run: its folder, its id, a unique part of the id, or "last"')
    .addOption(runFolderOption('holding'))
    .addOption(jsonOption("the replay's events as JSON lines, then the report as the last line"))
    .action(async (reference: string, options: ReplayCommandOptions) => {
      try {
        const report = await replayRun(reference, {
          ...(options.root === undefined ? {} : { root: options.root }),
          json: options.json ?? false,
        });
        process.stdout.write(
          options.json === true ? `${JSON.stringify(report)}\n` : `\n${reportTable(report)}\n`,
        );
        process.exitCode = report.divergence.call === null ? exitCodes.ok : exitCodes.runFailed;
      } catch (error) {
        reportError('replay', error);
      }
    });
}
