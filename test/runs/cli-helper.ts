// The runs and show commands on a commander program, as src/cli/main.ts wires them.
import { Command } from 'commander';
import { registerRunsCommand } from '../../src/cli/commands/runs.js';
import { registerShowCommand } from '../../src/cli/commands/show.js';

const program = new Command().name('codify');
registerRunsCommand(program);
registerShowCommand(program);
await program.parseAsync(process.argv);
