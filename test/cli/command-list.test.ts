import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandList, commandNamed } from '../../src/cli/command-list.js';

/** `codify --help` lists commands from the list without loading them: the list must be true. */
describe('the command list main.ts registers lazily', () => {
  it.each(commandList.map((entry) => [entry.name, entry] as const))(
    'lists %s as its module registers it',
    async (name, entry) => {
      const program = new Command();
      (await entry.load())(program);
      const command = program.commands.find((candidate) => candidate.name() === name);
      expect(command, `${name} is registered by its module`).toBeDefined();
      expect(command?.description()).toBe(entry.description);
      const usage = (command?.registeredArguments ?? [])
        .map((argument) => {
          const text = `${argument.name()}${argument.variadic ? '...' : ''}`;
          return argument.required ? `<${text}>` : `[${text}]`;
        })
        .join(' ');
      expect(usage).toBe(entry.arguments);
    },
  );

  it('finds the command an argv names, after options and through `help`', () => {
    expect(commandNamed(['runs', '--json'])?.name).toBe('runs');
    expect(commandNamed(['--no-color', 'show', 'last'])?.name).toBe('show');
    expect(commandNamed(['help', 'explore'])?.name).toBe('explore');
    expect(commandNamed(['--help'])).toBeUndefined();
    expect(commandNamed(['nosuch'])).toBeUndefined();
  });
});
