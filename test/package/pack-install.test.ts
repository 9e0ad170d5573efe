import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a user gets it: `npm pack` (which builds dist/ through prepack), the
 * tarball installed into an empty folder, and the installed `codify` command run there.
 * The build happens in a copy of the sources, so the checkout's own dist/ is never rewritten
 * while other tests run.
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'codify-pack-'));
const source = join(scratch, 'source');
const prefix = join(scratch, 'installed');
const packageName = 'codify-research';
let tarball = '';

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, CI: 'true' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

beforeAll(async () => {
  mkdirSync(source);
  for (const entry of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'bin',
    'src',
    'web',
    'scripts',
    'prompts',
    'python',
    'examples',
  ]) {
    cpSync(join(root, entry), join(source, entry), {
      recursive: true,
      // the build makes its own outputs; copies of earlier ones would hide a broken build
      filter: (path) => !/\/(node_modules|dist)(\/|$)/.test(path.slice(root.length)),
    });
  }
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'));
  const packed = await run(
    'npm',
    ['pack', '--pack-destination', scratch, '--loglevel=error'],
    source,
  );
  expect(packed.status, packed.output).toBe(0);
  const found = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
  if (found === undefined) throw new Error(`npm pack wrote no tarball:\n${packed.output}`);
  tarball = join(scratch, found);
  mkdirSync(prefix);
  const installed = await run(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      tarball,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
    ],
    scratch,
  );
  expect(installed.status, installed.output).toBe(0);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packed package', () => {
  it('is named codify-research and holds the build, prompts and python helpers but no tests', async () => {
    const listing = await run('tar', ['tzf', tarball], scratch);
    const files = listing.output.split('\n').filter(Boolean);
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(tarball.endsWith(`${packageName}-${version}.tgz`)).toBe(true);
    expect(files).toContain('package/dist/cli/main.js');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/prompts/agent-planner.md');
    expect(files).toContain('package/python/trace_runner.py');
    // the web app, built, for `codify ui`; not its sources
    expect(files).toContain('package/web/dist/index.html');
    expect(files.filter((file) => file.startsWith('package/web/src/'))).toEqual([]);
    expect(files).toContain('package/examples/recordings/yona-digits.jsonl');
    // tests and their helpers (`*.test.ts`, `*.test-helper.ts`) stay out, whatever the build emits
    expect(
      files.filter((file) => /\.test[.-]|^package\/test\/|^package\/src\//.test(file)),
    ).toEqual([]);
  });

  it('runs `codify doctor` from the installed command', async () => {
    const doctor = await run(join(prefix, 'node_modules/.bin/codify'), ['doctor'], scratch);
    expect(doctor.output).toMatch(/^ok {3}node /m);
    expect(doctor.output).toMatch(/bubblewrap/);
    expect(doctor.output).toMatch(/python/);
  });

  it('runs the replayed demo from the installed command', async () => {
    const installedPackage = join(prefix, 'node_modules', packageName);
    const runs = join(scratch, 'runs');
    const demo = await run(
      join(prefix, 'node_modules/.bin/codify'),
      [
        'implement',
        join(installedPackage, 'examples/yona-digits'),
        '--model',
        `replay:${join(installedPackage, 'examples/recordings/yona-digits.jsonl')}`,
        '--root',
        runs,
      ],
      scratch,
    );
    expect(demo.status, demo.output).toBe(0);
    const [folder] = readdirSync(runs);
    if (folder === undefined) throw new Error(`no run folder:\n${demo.output}`);
    const result = JSON.parse(readFileSync(join(runs, folder, 'result.json'), 'utf8')) as {
      outcome: string;
      ran: boolean;
      metric: { value: number | null } | null;
    };
    expect(result.outcome).toBe('completed');
    expect(result.ran).toBe(true);
    expect(typeof result.metric?.value).toBe('number');
  });

  it('is importable as a library by its package name', async () => {
    const imported = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const codify = await import('${packageName}'); console.log([typeof codify.runImplement, typeof codify.runPaper, typeof codify.readPaper, typeof codify.loadTask].join(','));`,
      ],
      prefix,
    );
    expect(imported.status, imported.output).toBe(0);
    expect(imported.output.trim()).toBe('function,function,function,function');
    expect(existsSync(join(prefix, 'node_modules', packageName, 'dist/index.d.ts'))).toBe(true);
  });
});
