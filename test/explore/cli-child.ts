// Runs `codify explore ...` with just the command this folder owns, as src/cli/main.ts wires it.
import { Command } from 'commander';
import { registerExploreCommand } from '../../src/cli/commands/explore.js';
import { parseProgram } from '../../src/cli/parse-program.js';

const program = new Command().name('codify');
registerExploreCommand(program);
// Usage errors exit 2 with their message, as in main.ts.
await parseProgram(program, process.argv);
