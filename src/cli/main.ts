import { Command } from 'commander';
import { commandList, commandNamed } from './command-list.js';
import { parseProgram } from './parse-program.js';

const program = new Command();
program
  .name('codify')
  .description('Turns machine-learning research into running, measured Python code.')
  .version('0.1.0');

// Only the command that runs is loaded with its dependencies; the others are listed by name
// and description, so `codify --help` and `codify runs` start fast.
const named = commandNamed(process.argv.slice(2));
for (const entry of commandList) {
  if (entry === named) (await entry.load())(program);
  else program.command(`${entry.name} ${entry.arguments}`.trim()).description(entry.description);
}

await parseProgram(program, process.argv);
