// Runs `codify implement|resume ...` with just the commands this folder owns, as the real
// CLI will once they are wired into src/cli/main.ts.
import { Command } from 'commander';
import { registerImplementCommand } from '../../src/cli/commands/implement.js';
import { registerResumeCommand } from '../../src/cli/commands/resume.js';

const program = new Command().name('codify');
registerImplementCommand(program);
registerResumeCommand(program);
await program.parseAsync(process.argv);
