import { type Command, CommanderError } from 'commander';
import { CodifyError, exitCodes } from '../errors/index.js';

/**
 * Parses and runs a command line, ending usage errors the one way: commander's own (unknown
 * option, missing argument; it has printed them) and a flag value the settings schema
 * refuses (a UsageError, printed here) both exit 2; help and version exit 0.
 */
export async function parseProgram(program: Command, argv: readonly string[]): Promise<void> {
  // Commands take exitOverride when they are made; set it on every one made already.
  const commands = [program];
  for (const command of commands) {
    command.exitOverride();
    commands.push(...command.commands);
  }
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    } else if (error instanceof CodifyError) {
      process.stderr.write(`codify: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      throw error;
    }
  }
}
