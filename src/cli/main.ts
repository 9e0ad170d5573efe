import { Command, CommanderError } from 'commander';
import { exitCodes } from '../errors/exit-codes.js';
import { registerCheckCommand } from './commands/check.js';
import { registerExploreCommand } from './commands/explore.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerWorkerCommand } from './commands/worker.js';
import { registerImplementCommand } from './commands/implement.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerPaperCommand } from './commands/paper.js';
import { registerReplayCommand } from './commands/replay.js';
import { registerReadCommand } from './commands/read.js';
import { registerResumeCommand } from './commands/resume.js';
import { runDoctor } from './commands/doctor.js';
import { registerRunsCommand } from './commands/runs.js';
import { registerShowCommand } from './commands/show.js';
import { registerUiCommand } from './commands/ui.js';

const program = new Command();
program
  .name('codify')
  .description('Turns machine-learning research into running, measured Python code.')
  .version('0.1.0')
  // Usage errors (unknown option, bad flag value) exit with 2, like every other usage error;
  // inherited by the commands registered below.
  .exitOverride();

program
  .command('doctor')
  .description('check Node, bubblewrap, Python interpreters and provider keys')
  .action(async () => {
    // each line as soon as it is known: the slow probes come last
    const report = await runDoctor({ onLine: (line) => process.stdout.write(`${line}\n`) });
    process.exitCode = report.ok ? exitCodes.ok : exitCodes.environment;
  });

registerImplementCommand(program);
registerResumeCommand(program);
registerReplayCommand(program);
registerPaperCommand(program);
registerReadCommand(program);
registerExploreCommand(program);
registerCheckCommand(program);
registerRunsCommand(program);
registerShowCommand(program);
registerMcpCommand(program);
registerEvalCommand(program);
registerUiCommand(program);
registerWorkerCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Commander has already printed the message, or the help / version asked for (exit 0).
  process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
}
