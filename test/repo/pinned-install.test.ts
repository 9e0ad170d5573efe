import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { renderReport } from '../../src/repo/report.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { defaultLimits } from '../../src/sandbox/types.js';
import { prepareRepositoryEnvironment } from '../../src/repo/virtual-environment.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

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
wheel(folder, "probe-lib", "1.0", [])
wheel(folder, "probe-lib", "2.0", [])
wheel(folder, "probe-tool", "1.0", ["probe-lib>=2.0"])
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

  it('keeps what the run install added when the test install comes', async () => {
    const environment = await prepareRepositoryEnvironment({
      base,
      dir: join(root, 'tests-after-run'),
      requirements: ['probe-lib<2'],
      testRequirements: ['probe-tool'],
      pipEnvironment: pipEnvironment(),
      installTimeoutMs: 120_000,
    });
    expect(environment.install?.ok).toBe(true);
    expect(environment.conflicts?.map((conflict) => conflict.requirement)).toEqual(['probe-tool']);
    expect(versionIn(environment.interpreter, 'probe_lib')).toBe('1.0');
    const constraints = readFileSync(environment.constraints?.path ?? '', 'utf8');
    expect(constraints).toContain('probe-lib==1.0');
    expect(constraints).toContain('probe-base==1.0');
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

const paperAnswers = (main: string) => ({
  'plan-overall':
    '## Method\nprobe\n## Data\nnone\n## Settings\nnone\n## Experiments\nTable 1\n## Hyperparameters\nfactor 2\n## Metrics\nnone\n## Unclear\nnothing',
  'plan-design': designAnswer(
    {
      implementationApproach: 'plain Python',
      files: [{ path: 'main.py', purpose: 'entry point' }],
      classDiagram: 'classDiagram\n  class Main',
      sequenceDiagram: 'sequenceDiagram\n  participant M as main',
    },
    {
      requiredPackages: [
        { name: 'probe-user', importName: 'probe_user' },
        { name: 'probe-new', importName: 'probe_new' },
      ],
      fileLogic: [{ path: 'main.py', logic: 'prints the versions' }],
      order: ['main.py'],
      sharedKnowledge: 'none',
      entryPoint: 'main.py',
    },
  ),
  'plan-config': settingsAnswer({
    entries: [{ key: 'model.factor', value: 2, evidence: 'with a factor of 2' }],
    smokeOverrides: [{ key: 'model.factor', value: 1 }],
  }),
  ...checklist,
  'write main.py': `\`\`\`python\n${main}\n\`\`\``,
  readme:
    '# Probe\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
});

describe('verify with an interpreter that is a virtual environment', () => {
  it('installs what fits, runs the smoke run in the sandbox on the interpreter’s own packages, and tells repair of the conflict', async () => {
    const { run, remove } = fakeRun();
    const repairs: string[] = [];
    try {
      const result = await paperToRepository({
        paperText: 'We probe with a factor of 2.',
        title: 'Probe',
        models: labelledCaller(
          paperAnswers(
            'import probe_base, probe_user, probe_new\nprint(probe_base.VERSION, probe_user.VERSION)',
          ),
        ),
        run,
        sandbox: await createSandbox('bubblewrap'),
        interpreter: '/usr/bin/python3',
        limits: { ...defaultLimits, timeoutMs: 60_000 },
        selfRefine: false,
        repairBudgetSteps: 2,
        pipEnvironment: pipEnvironment(),
        chooseInterpreter: () =>
          Promise.resolve({ path: base, missing: ['probe_user', 'probe_new'] }),
        makeRepairer: (repoDir) => (failure) => {
          repairs.push(failure.outputTail);
          writeFileSync(
            join(repoDir, 'main.py'),
            'import probe_base, probe_user\nprint("versions", probe_base.VERSION, probe_user.VERSION, probe_base.__file__)\n',
          );
          return Promise.resolve({ steps: 1 });
        },
      });
      expect(result.report.environment?.conflicts?.map((conflict) => conflict.requirement)).toEqual(
        ['probe-new'],
      );
      expect(repairs).toHaveLength(1);
      expect(repairs[0]).toMatch(
        /^Environment: probe-new was not installed: no version of it fits/,
      );
      expect(repairs[0]).toContain("No module named 'probe_new'");
      expect(result.report.verify.ok).toBe(true);
      // Inside the sandbox: probe-base from the interpreter's own venv, probe-user 1.0 beside it.
      const smoke = readFileSync(join(run.dir, 'outputs', 'smoke-2.txt'), 'utf8');
      expect(smoke).toContain('versions 1.0 1.0');
      expect(smoke).toContain(join(root, 'interpreter'));
      expect(readFileSync(result.reportPath, 'utf8')).toContain('**Not installed: probe-new**');
    } finally {
      remove();
    }
  }, 180_000);
});
