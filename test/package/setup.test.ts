import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A fresh setup must install exactly the lock file (`npm ci`, which fails when package.json
 * and the lock file disagree, for any platform) and leave the checkout as it found it.
 * Nothing here reinstalls the packages: the lock file is checked with `npm ci --dry-run`, and
 * setup runs in a committed copy of the checkout over the node_modules already installed.
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'codify-setup-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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

/** `npm ci --dry-run` over copies of package.json and the lock file: reads both, installs nothing. */
async function dryRunCi(
  folder: string,
  editManifest?: (manifest: Record<string, Record<string, string>>) => void,
) {
  mkdirSync(folder);
  copyFileSync(join(root, 'package-lock.json'), join(folder, 'package-lock.json'));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
  editManifest?.(manifest);
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  return run(
    'npm',
    ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    folder,
  );
}

describe('installing', () => {
  it('npm ci accepts the lock file as it is', async () => {
    const ci = await dryRunCi(join(scratch, 'as-is'));
    expect(ci.output).not.toMatch(/Missing: .* from lock file/);
    expect(ci.status, ci.output).toBe(0);
  });

  it('npm ci refuses a package.json the lock file does not match (so drift fails CI)', async () => {
    const ci = await dryRunCi(join(scratch, 'drifted'), (manifest) => {
      const dependencies = manifest.dependencies;
      if (dependencies === undefined) throw new Error('package.json has no dependencies');
      dependencies['left-pad'] = '^1.3.0';
    });
    expect(ci.status).not.toBe(0);
    expect(ci.output).toMatch(/left-pad/);
  });

  it('scripts/setup.sh installs with npm ci', () => {
    const setup = readFileSync(join(root, 'scripts/setup.sh'), 'utf8');
    const commands = setup.split('\n').filter((line) => /^\s*npm /.test(line));
    expect(commands.some((line) => /^\s*npm ci\b/.test(line))).toBe(true);
    expect(commands.filter((line) => /^\s*npm (install|i)\b/.test(line))).toEqual([]);
  });

  it('scripts/setup.sh on an installed checkout leaves `git status` clean', async () => {
    const stamp = join(root, 'node_modules/.codify-installed-lock');
    const installedLock = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
    const lockHash = createHash('sha256')
      .update(readFileSync(join(root, 'package-lock.json')))
      .digest('hex');
    // setup would otherwise reinstall (npm ci) through the shared node_modules
    expect(installedLock, 'node_modules is not this lock file: run scripts/setup.sh').toBe(
      lockHash,
    );

    const checkout = join(scratch, 'checkout');
    const listed = await run(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      root,
    );
    expect(listed.status, listed.output).toBe(0);
    // a file deleted but not yet staged is still listed
    const paths = listed.output
      .split('\0')
      .filter((path) => path !== '' && existsSync(join(root, path)));
    for (const path of paths) {
      mkdirSync(dirname(join(checkout, path)), { recursive: true });
      copyFileSync(join(root, path), join(checkout, path));
    }
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'checkout'],
    ]) {
      const git = await run('git', args, checkout);
      expect(git.status, git.output).toBe(0);
    }
    symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'));

    const setup = await run('bash', ['scripts/setup.sh'], checkout);
    expect(setup.status, setup.output).toBe(0);
    expect(setup.output).not.toMatch(/installing npm packages/);
    const status = await run('git', ['status', '--porcelain'], checkout);
    expect(status.status, status.output).toBe(0);
    expect(status.output).toBe('');
  }, 600_000);
});
