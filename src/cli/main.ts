import { Command, CommanderError } from 'commander';
import { CodifyError } from '../errors/index.js';
import { commandList, commandNamed } from './command-list.js';

const program = new Command();
program
  .name('codify')
  .description('Turns machine-learning research into running, measured Python code.')
  .version('0.1.0')
  // Usage errors (unknown option, bad flag value) exit with 2, like every other usage error;
  // inherited by the commands registered below.
  .exitOverride();

// Only the command that runs is loaded with its dependencies; the others are listed by name
// and description, so `codify --help` and `codify runs` start fast.
const named = commandNamed(process.argv.slice(2));
for (const entry of commandList) {
  if (entry === named) (await entry.load())(program);
  else program.command(`${entry.name} ${entry.arguments}`.trim()).description(entry.description);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander has already printed the message, or the help / version asked for (exit 0).
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof CodifyError) {
    // A flag value the settings schema refuses, found while parsing the command line.
    process.stderr.write(`codify: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else {
    throw error;
  }
}
