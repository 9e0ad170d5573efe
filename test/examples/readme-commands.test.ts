import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every command in the READMEs that replays a recording (or runs an example suite) runs
 * offline as written. The run folders go to a scratch folder through $CODIFY_RUNS_DIR, the
 * default --root, so the commands stay exactly as a reader copies them.
 */
const root = resolve(import.meta.dirname, '../..');
const readmes = ['README.md', 'examples/README.md', 'examples/recordings/README.md'];
const runsRoot = mkdtempSync(join(tmpdir(), 'codify-readme-'));

afterAll(() => rmSync(runsRoot, { recursive: true, force: true }));

/** Commands replayed end to end by test/e2e/recorded-sessions.test.ts with the same arguments. */
const recordedSessions = 'test/e2e/recorded-sessions.test.ts';
const coveredElsewhere: Record<string, string> = {
  // `--strategy agent` there is the default here
  'node bin/codify.js implement examples/yona-digits --model replay:examples/recordings/yona-digits.jsonl': `${recordedSessions}: codify implement examples/yona-digits --strategy agent`,
  'node bin/codify.js implement examples/flag-graph --model replay:examples/recordings/flag-graph.jsonl': `${recordedSessions}: codify implement examples/flag-graph --strategy agent`,
  'node bin/codify.js implement examples/attribute-batching --model replay:examples/recordings/attribute-batching.jsonl': `${recordedSessions}: codify implement examples/attribute-batching --strategy agent`,
  'node bin/codify.js implement examples/yona-digits --strategy single-call --model replay:examples/recordings/yona-digits-single-call.jsonl': `${recordedSessions}: codify implement examples/yona-digits --strategy single-call`,
  'node bin/codify.js implement examples/yona-digits --strategy prescribed-plan --model replay:examples/recordings/yona-digits-prescribed-plan.jsonl': `${recordedSessions}: codify implement examples/yona-digits --strategy prescribed-plan`,
  'node bin/codify.js paper examples/papers/mixup-tabular/paper.md --model replay:examples/recordings/paper-mixup-tabular.jsonl': `${recordedSessions}: codify paper examples/papers/mixup-tabular`,
  'node bin/codify.js paper examples/papers/random-fourier-features/paper.md --model replay:examples/recordings/paper-random-fourier-features.jsonl': `${recordedSessions}: codify paper examples/papers/random-fourier-features`,
  'node bin/codify.js paper examples/papers/seq-transformer/paper.pdf --model replay:examples/recordings/paper-seq-transformer.jsonl': `${recordedSessions}: codify paper examples/papers/seq-transformer`,
  'node bin/codify.js explore examples/explore/paper.md --related examples/explore/related.txt --ideas 2 --refine-rounds 0 --run top:2 --code examples/explore/prototype --max-steps 4 --max-seeds 3 --model replay:examples/recordings/explore-wine.jsonl': `${recordedSessions}: codify explore examples/explore/paper.md --run top:2 --code examples/explore/prototype`,
};

/**
 * Commands that name a model the reader chooses (`SPEC`) or answers (`exchange:`): they
 * wait for the reader, so they cannot run here as written.
 */
const needsTheReadersModel = (command: string): boolean => /\bSPEC\b|exchange:/.test(command);

/** `node bin/codify.js …` commands in fenced blocks, indented blocks and inline code. */
function codifyCommands(markdown: string): string[] {
  const found: string[] = [];
  const withoutFenced = markdown.replace(/^ *```[^\n]*\n([\s\S]*?)^ *```/gm, (_, body: string) => {
    found.push(...body.replace(/\\\n/g, ' ').split('\n'));
    return '';
  });
  for (const match of withoutFenced.matchAll(/^ {4}(node bin\/codify\.js .*)$/gm)) {
    found.push(match[1] ?? '');
  }
  // an inline span that starts with the command, found in the whole text: pairing every
  // backtick of a long file would go wrong at the first stray one
  for (const match of markdown.matchAll(/`(node bin\/codify\.js [^`]*)`/g)) {
    found.push(match[1] ?? '');
  }
  return found
    .map((line) =>
      line
        .replace(/\s+#\s.*$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line.startsWith('node bin/codify.js '));
}

const commands = [
  ...new Set(readmes.flatMap((readme) => codifyCommands(readFileSync(join(root, readme), 'utf8')))),
].filter((command) => /examples\/(recordings|eval)\//.test(command));
const runnable = commands.filter(
  (command) => coveredElsewhere[command] === undefined && !needsTheReadersModel(command),
);

function run(command: string): Promise<{ status: number | null; output: string }> {
  const [program = '', ...args] = command.split(' ');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, args, {
      cwd: root,
      env: { ...process.env, CI: 'true', CODIFY_RUNS_DIR: runsRoot },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

describe('README commands that replay recordings', () => {
  it('are found, and each is run here or by the test named for it', () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(runnable).toContain('node bin/codify.js eval examples/eval/ci-suite.yaml');
    expect(runnable).toContain('node bin/codify.js eval examples/eval/explore-suite.yaml');
    // the table names commands the READMEs still hold
    for (const command of Object.keys(coveredElsewhere)) expect(commands).toContain(command);
  });

  it.each(runnable)(
    '%s',
    async (command) => {
      const { status, output } = await run(command);
      expect(output).not.toMatch(/replay: call \d+/);
      expect(output).not.toMatch(/no judge model|exchange:/);
      expect(status, output).toBe(0);
    },
    600_000,
  );
});
