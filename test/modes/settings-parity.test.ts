import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandList } from '../../src/cli/command-list.js';
import { UsageError } from '../../src/errors/index.js';
import { exploreItemSchema, suiteSchema } from '../../src/eval/suite/suite-schema.js';
import { modeInputShape } from '../../src/mcp/mode-input.js';
import { modeArguments } from '../../src/modes/mode-arguments.js';
import { modeNames, settingsShape, type ModeName } from '../../src/modes/modes.js';
import { jsonSchemaOf, valueTypeOf } from '../../src/modes/setting-limits.js';
import { metaOf } from '../../src/modes/setting-meta.js';
import { suiteKeyOf } from '../../src/modes/suite-settings.js';
import { launchArguments } from '../../src/server/run-launch-request.js';

/**
 * Walks each mode's settings schema and checks that every front end (the CLI, the MCP start
 * tools, the HTTP launch request and, where it takes the setting, the eval suite) accepts
 * and refuses the same values; and that what MCP and HTTP accept, the CLI they spawn accepts.
 */

const folder = mkdtempSync(join(tmpdir(), 'codify-parity-'));
const task = join(folder, 'task');
const paper = join(folder, 'paper.md');
const code = join(folder, 'prototype');
mkdirSync(task);
mkdirSync(code);
writeFileSync(paper, '# A paper\n');

/** The least each mode needs, so one setting at a time can be varied. */
const base: Record<ModeName, Record<string, unknown>> = {
  implement: { task },
  paper: { paper },
  explore: { papers: [paper] },
};
/** Explore's settings that only mean something with others (experiments need run and code). */
const exploreCompanions: Record<string, Record<string, unknown>> = {
  run: { code },
  code: { run: 'top:1' },
  maxSteps: { run: 'top:1', code },
  maxSeeds: { run: 'top:1', code },
  literatureUrl: { literature: 'arxiv' },
  literatureCache: { literature: 'arxiv' },
};

/** What a setting is given with, in its mode. */
const companionsOf = (mode: ModeName, key: string): Record<string, unknown> =>
  (mode === 'explore' ? exploreCompanions[key] : undefined) ?? {};

/** Values to try for a setting, from its own type and limits: some inside, some outside. */
function samples(key: string, schema: z.ZodType): unknown[] {
  const type = valueTypeOf(schema);
  const limits = jsonSchemaOf(type);
  if (type instanceof z.ZodNumber) {
    const values = new Set<number>([-1, 0, 1, 2.5, 3, 1_000_000]);
    for (const bound of [limits.minimum, limits.maximum, limits.exclusiveMinimum]) {
      if (bound === undefined || bound > Number.MAX_SAFE_INTEGER / 2) continue;
      for (const near of [bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1]) values.add(near);
    }
    return [...values];
  }
  if (type instanceof z.ZodEnum) return [...type.options, 'nosuch'];
  if (key === 'run') return ['top:2', '3', 'I1,I3', 'best', 'top:'];
  if (key === 'literatureUrl' || key === 'hubUrl') return ['http://127.0.0.1:9/api', 'not a url'];
  if (Object.hasOwn(modelKeys, key)) return ['openai:gpt-4o-mini', 'nosuch:model', 'no-colon'];
  return [];
}
const modelKeys = { model: 1, planner: 1, expert: 1, worker: 1, summarizer: 1, judge: 1 };

/** Thrown by the CLI's preAction hook: the command line parsed, the action would run now. */
class Parsed extends Error {}

const registers = new Map<ModeName, (program: Command) => void>();
beforeAll(async () => {
  for (const mode of modeNames) {
    const entry = commandList.find((command) => command.name === mode);
    if (entry === undefined) throw new Error(`no command ${mode}`);
    registers.set(mode, await entry.load());
  }
});

/** Whether `codify ARGV` gets past its flags (the action, which would start a run, is not run). */
function cliAccepts(argv: readonly string[]): boolean {
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  const mode = argv[0] as ModeName;
  registers.get(mode)?.(program);
  program.hook('preAction', () => {
    throw new Parsed();
  });
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof Parsed) return true;
    if (error instanceof UsageError || error instanceof CommanderError) return false;
    throw error;
  }
  throw new Error('the command line ran without reaching its action');
}

function mcpAccepts(mode: ModeName, input: Record<string, unknown>): boolean {
  // The SDK checks the tool's input schema, then the tool builds the command line.
  const checked = z.object(modeInputShape(mode)).safeParse(input);
  if (!checked.success) return false;
  try {
    modeArguments(mode, checked.data, folder);
    return true;
  } catch {
    return false;
  }
}

function httpAccepts(mode: ModeName, input: Record<string, unknown>): boolean {
  try {
    launchArguments({ mode, ...input }, folder);
    return true;
  } catch {
    return false;
  }
}

/** The eval suite's verdict, for the settings a suite takes (undefined for the others). */
function suiteAccepts(mode: ModeName, key: string, value: unknown): boolean | undefined {
  const schema = settingsShape(mode)[key];
  if (schema === undefined) return undefined;
  const suiteKey = suiteKeyOf(key, schema);
  if (mode === 'explore') {
    if (!Object.hasOwn(exploreItemSchema.shape, suiteKey)) return undefined;
    const companion = Object.fromEntries(
      Object.entries(companionsOf(mode, key)).map(([other, given]) => [
        suiteKeyOf(other, settingsShape(mode)[other] ?? z.unknown()),
        given,
      ]),
    );
    return exploreItemSchema.safeParse({ explore: paper, ...companion, [suiteKey]: value }).success;
  }
  const block = mode === 'implement' ? 'budgets' : 'paper';
  const blockSchema = suiteSchema.shape[block].unwrap();
  if (!Object.hasOwn(blockSchema.shape, suiteKey)) return undefined;
  return blockSchema.safeParse({ [suiteKey]: value }).success;
}

/** The flag form of one value, as a person would type it. */
function typed(flag: string, value: unknown): string[] {
  return [flag, String(value)];
}

describe('settings parity across the CLI, MCP, HTTP and eval suites', () => {
  for (const mode of modeNames) {
    for (const [key, schema] of Object.entries(settingsShape(mode))) {
      const meta = metaOf(key, schema);
      const values = samples(key, schema);
      if (meta.flag === undefined || values.length === 0) continue;
      const flag = meta.flag;
      it(`${mode} ${key} (${flag}): ${values.map((value) => JSON.stringify(value)).join(' ')}`, () => {
        for (const value of values) {
          const input = { ...base[mode], ...companionsOf(mode, key), [key]: value };
          const mcp = mcpAccepts(mode, input);
          const http = httpAccepts(mode, input);
          const positional = mode === 'implement' ? [task] : [paper];
          const companionFlags = Object.entries(companionsOf(mode, key)).flatMap(([other, given]) =>
            typed(metaOf(other, settingsShape(mode)[other] ?? z.unknown()).flag ?? '', given),
          );
          const cli = cliAccepts([mode, ...positional, ...companionFlags, ...typed(flag, value)]);
          const verdicts = { cli, mcp, http, suite: suiteAccepts(mode, key, value) };
          const expected = schema.safeParse(value).success;
          expect(verdicts, `${mode} ${key} = ${JSON.stringify(value)}`).toEqual({
            cli: expected,
            mcp: expected,
            http: expected,
            suite: verdicts.suite === undefined ? undefined : expected,
          });
          // What MCP and the web app accept, the codify process they start accepts too.
          if (mcp) expect(cliAccepts(modeArguments(mode, input, folder))).toBe(true);
        }
      });
    }
  }

  it('takes fractional experiment budgets everywhere: budgetMinutes 2.5 / --budget 2.5', () => {
    const input = { papers: [paper], budgetMinutes: 2.5 };
    expect(mcpAccepts('explore', input)).toBe(true);
    expect(httpAccepts('explore', input)).toBe(true);
    expect(exploreItemSchema.safeParse({ explore: paper, budget_minutes: 2.5 }).success).toBe(true);
    expect(modeArguments('explore', input, folder)).toEqual(['explore', paper, '--budget', '2.5']);
    expect(cliAccepts(['explore', paper, '--budget', '2.5'])).toBe(true);
    expect(cliAccepts(['explore', paper, '--budget', '-2.5'])).toBe(false);
  });

  it('refuses the rules across settings in every front end (run needs code)', () => {
    const input = { papers: [paper], run: 'top:1' };
    expect(mcpAccepts('explore', input)).toBe(false);
    expect(httpAccepts('explore', input)).toBe(false);
  });

  it('refuses a refused flag value with a usage error (exit 2) that names the flag', () => {
    const program = new Command().exitOverride();
    registers.get('explore')?.(program);
    expect(() => program.parse(['explore', paper, '--ideas', '21'], { from: 'user' })).toThrow(
      new UsageError('--ideas takes a whole number from 1 to 20 (got "21")'),
    );
    expect(new UsageError('x').exitCode).toBe(2);
  });

  it("derives every setting's flag into its command, and nothing else", () => {
    for (const mode of modeNames) {
      const program = new Command();
      registers.get(mode)?.(program);
      const command = program.commands.find((candidate) => candidate.name() === mode);
      const flags = new Set(command?.options.map((option) => option.long));
      for (const [key, schema] of Object.entries(settingsShape(mode))) {
        const meta = metaOf(key, schema);
        if (meta.flag === undefined) continue;
        const defaultOn = schema.safeParse(undefined).data === true;
        const expected = defaultOn ? meta.flag.replace(/^--/, '--no-') : meta.flag;
        expect(flags.has(expected), `${mode} ${expected}`).toBe(true);
      }
    }
  });
});
