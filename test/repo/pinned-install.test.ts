import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/repo/report.js';
import { prepareRepositoryEnvironment } from '../../src/repo/virtual-environment.js';

/**
 * A fake package index (a folder of wheels, pip with --no-index --find-links) holding two
 * versions of `probe-base`, two of `probe-user` (1.0 works with probe-base 1, 2.0 needs
 * probe-base 2) and `probe-new` (needs probe-base 2). The chosen interpreter is a virtual
 * environment that has probe-base 1.0 installed, as a system has its torch.
 */
const wheelScript = `
import os, sys, zipfile
def wheel(folder, name, version, requires):
    module = name.replace("-", "_")
    info = module + "-" + version + ".dist-info"
    files = {
        module + "/__init__.py": "VERSION = %r\\n" % version,
        info + "/METADATA": "Metadata-Version: 2.1\\nName: %s\\nVersion: %s\\n" % (name, version)
        + "".join("Requires-Dist: %s\\n" % requirement for requirement in requires),
        info + "/WHEEL": "Wheel-Version: 1.0\\nGenerator: codify-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }
    record = "".join(path + ",,\\n" for path in files) + info + "/RECORD,,\\n"
    with zipfile.ZipFile(os.path.join(folder, module + "-" + version + "-py3-none-any.whl"), "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(info + "/RECORD", record)
folder = sys.argv[1]
wheel(folder, "probe-base", "1.0", [])
wheel(folder, "probe-base", "2.0", [])
wheel(folder, "probe-user", "1.0", ["probe-base>=1.0"])
wheel(folder, "probe-user", "2.0", ["probe-base>=2.0"])
wheel(folder, "probe-new", "1.0", ["probe-base>=2.0"])
`;

let root = '';
let index = '';
let base = '';
// pip reads no config file and no index: only the wheel folder answers.
const pipEnvironment = () => ({
  PIP_CONFIG_FILE: '/dev/null',
  PIP_NO_INDEX: '1',
  PIP_FIND_LINKS: index,
  PIP_CONSTRAINT: undefined,
});

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'codify-pinned-'));
  index = join(root, 'index');
  mkdirSync(index);
  execFileSync('/usr/bin/python3', ['-c', wheelScript, index]);
  execFileSync('/usr/bin/python3', ['-m', 'venv', join(root, 'interpreter')]);
  base = join(root, 'interpreter', 'bin', 'python');
  execFileSync(base, ['-m', 'pip', 'install', '-q', 'probe-base==1.0'], {
    env: { ...process.env, ...pipEnvironment() },
  });
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The version of `module` the environment's python imports. */
const versionIn = (python: string, module: string) =>
  execFileSync(python, ['-c', `import ${module}; print(${module}.VERSION)`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

const prepare = (name: string, requirements: string[]) =>
  prepareRepositoryEnvironment({
    base,
    dir: join(root, name),
    requirements,
    pipEnvironment: pipEnvironment(),
    installTimeoutMs: 120_000,
  });

describe('the virtual environment keeps what the interpreter provides', () => {
  it('the fake index upgrades probe-base when pip runs without constraints (the failure the pins prevent)', () => {
    const loose = join(root, 'loose');
    const python = join(loose, 'bin', 'python');
    const pip = (...args: string[]) =>
      execFileSync(python, ['-m', 'pip', 'install', '-q', ...args], {
        env: { ...process.env, ...pipEnvironment() },
      });
    execFileSync(base, ['-m', 'venv', loose]);
    pip('probe-base==1.0');
    pip('probe-user');
    expect(versionIn(python, 'probe_user')).toBe('2.0');
    expect(versionIn(python, 'probe_base')).toBe('2.0');
  }, 120_000);

  it('chooses the version of a requirement that fits the pinned package', async () => {
    const environment = await prepare('compatible', ['probe-user']);
    expect(environment.install?.ok).toBe(true);
    expect(environment.conflicts).toBeUndefined();
    // The interpreter's own packages reach the environment (it is itself a venv).
    expect(versionIn(environment.interpreter, 'probe_base')).toBe('1.0');
    expect(versionIn(environment.interpreter, 'probe_user')).toBe('1.0');
    const constraints = readFileSync(environment.constraints?.path ?? '', 'utf8');
    expect(constraints).toContain('probe-base==1.0');
    expect(constraints).not.toMatch(/^pip==/m);
  }, 120_000);

  it('prevents a requirement that would upgrade a pinned package, and says so', async () => {
    const environment = await prepare('upgrade', ['probe-base>=2.0']);
    expect(environment.install?.ok).toBe(false);
    expect(environment.conflicts?.map((conflict) => conflict.requirement)).toEqual([
      'probe-base>=2.0',
    ]);
    expect(environment.conflicts?.[0]?.reason).toContain('probe-base==1.0');
    expect(versionIn(environment.interpreter, 'probe_base')).toBe('1.0');
  }, 120_000);

  it('reports an impossible requirement and installs the others without it', async () => {
    const environment = await prepare('impossible', ['probe-new', 'probe-user']);
    expect(environment.conflicts?.map((conflict) => conflict.requirement)).toEqual(['probe-new']);
    expect(environment.conflicts?.[0]?.reason).toContain(
      'probe-new 1.0 depends on probe-base>=2.0',
    );
    expect(environment.install?.ok).toBe(true);
    expect(versionIn(environment.interpreter, 'probe_user')).toBe('1.0');
    expect(versionIn(environment.interpreter, 'probe_base')).toBe('1.0');
    expect(() => versionIn(environment.interpreter, 'probe_new')).toThrow();
    const markdown = renderReport({
      title: 'Probe',
      repository: join(root, 'repo'),
      entryPoint: 'main.py',
      files: [],
      stages: [],
      totals: { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0 },
      verify: { ok: false, summary: 'not run', skipped: true },
      droppedConfigKeys: [],
      interfacesUsed: {},
      environment,
    });
    expect(markdown).toContain(
      '**Not installed: probe-new** — no version fits the pinned packages',
    );
    expect(markdown).toContain('`pip install probe-user` (the run requirements) succeeded.');
  }, 180_000);
});
