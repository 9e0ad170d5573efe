import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { runRepositoryTests, testCounts } from '../../src/repo/repository-tests.js';
import { isTestFile, isTestPackage } from '../../src/repo/requirements.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { closestInterpreter, findInterpreter } from '../../src/sandbox/interpreters.js';
import { defaultLimits } from '../../src/sandbox/types.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const paper = `# Doubling
We double every input with a factor of 2.`;
const python = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

const mainUsingPackage = `import sys
import codify_probe_pkg

print("package at", codify_probe_pkg.__file__)
print("doubled:", codify_probe_pkg.double(21))
sys.exit(0 if sys.argv[1:] == ["--config", "config_smoke.yaml"] else 3)
`;

function answers(testFile: string) {
  return {
    'plan-overall':
      '## Method\ndouble\n## Data\nnone\n## Settings\nnone\n## Experiments\nTable 1\n## Hyperparameters\nfactor 2\n## Metrics\nnone\n## Unclear\nnothing',
    'plan-design': designAnswer(
      {
        implementationApproach: 'plain Python',
        files: [
          { path: 'model.py', purpose: 'the doubling' },
          { path: 'main.py', purpose: 'entry point' },
          { path: 'tests/test_model.py', purpose: 'tests of model.py' },
        ],
        classDiagram: 'classDiagram\n  class Model',
        sequenceDiagram: 'sequenceDiagram\n  participant M as main',
      },
      {
        requiredPackages: [
          { name: 'codify-probe-pkg', importName: 'codify_probe_pkg' },
          { name: 'pytest', version: '7.0', importName: 'pytest' },
          { name: 'pytest-cov', importName: 'pytest_cov' },
        ],
        fileLogic: [
          { path: 'model.py', logic: 'def double' },
          { path: 'main.py', logic: 'prints the doubled value' },
          { path: 'tests/test_model.py', logic: 'checks double' },
        ],
        order: ['model.py', 'main.py', 'tests/test_model.py'],
        sharedKnowledge: 'factor',
        entryPoint: 'main.py',
      },
    ),
    'plan-config': settingsAnswer({
      entries: [{ key: 'model.factor', value: 2, evidence: 'with a factor of 2' }],
      smokeOverrides: [{ key: 'model.factor', value: 1 }],
    }),
    ...checklist,
    'write model.py': python('def double(x: int) -> int:\n    return 2 * x'),
    'write main.py': python(mainUsingPackage),
    'write tests/test_model.py': python(testFile),
    readme:
      '# Doubling\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
  };
}

const passingTests = `import unittest
from model import double


class DoubleTest(unittest.TestCase):
    def test_positive(self):
        self.assertEqual(double(2), 4)

    def test_zero(self):
        self.assertEqual(double(0), 0)
`;

const wheelScript = `
import sys, zipfile
name = "codify_probe_pkg"
files = {
    name + "/__init__.py": "def double(x):\\n    return 2 * x\\n",
    name + "-0.1.dist-info/METADATA": "Metadata-Version: 2.1\\nName: codify-probe-pkg\\nVersion: 0.1\\n",
    name + "-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: codify-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = "".join(path + ",,\\n" for path in files) + name + "-0.1.dist-info/RECORD,,\\n"
with zipfile.ZipFile(sys.argv[1] + "/" + name + "-0.1-py3-none-any.whl", "w") as archive:
    for path, text in files.items():
        archive.writestr(path, text)
    archive.writestr(name + "-0.1.dist-info/RECORD", record)
`;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

// pip reads no config file, so the machine's own index or wheel folders cannot answer.
const isolatedPip = { PIP_CONFIG_FILE: '/dev/null', PIP_FIND_LINKS: undefined };

async function generate(testFile: string, pipEnvironment: Record<string, string | undefined>) {
  const { run, events, remove } = fakeRun();
  cleanups.push(remove);
  const chosenFor: string[][] = [];
  const repairs: string[] = [];
  const result = await paperToRepository({
    paperText: paper,
    title: 'Doubling',
    models: labelledCaller(answers(testFile)),
    run,
    sandbox: await createSandbox('bubblewrap'),
    interpreter: '/usr/bin/python3',
    limits: { ...defaultLimits, timeoutMs: 60_000 },
    selfRefine: false,
    repairBudgetSteps: 4,
    pipEnvironment,
    chooseInterpreter: async (requires) => {
      chosenFor.push(requires);
      const choice = await findInterpreter(requires, '/usr/bin/python3');
      return closestInterpreter(choice, requires) ?? { problem: 'no interpreter' };
    },
    makeRepairer: (repoDir) => (failure) => {
      repairs.push(failure.outputTail);
      writeFileSync(join(repoDir, 'main.py'), 'from model import double\nprint(double(21))\n');
      return Promise.resolve({ steps: 1 });
    },
  });
  return { result, events, chosenFor, repairs, run };
}

describe('verify: run requirements, a virtual environment, and the repository tests', () => {
  it('tells test packages and test files from what the code needs', () => {
    const pkg = (name: string, importName = name) => ({ name, importName });
    expect(isTestPackage(pkg('pytest'))).toBe(true);
    expect(isTestPackage(pkg('pytest-cov', 'pytest_cov'))).toBe(true);
    expect(isTestPackage(pkg('Hypothesis', 'hypothesis'))).toBe(true);
    expect(isTestPackage(pkg('torch'))).toBe(false);
    expect(isTestPackage(pkg('scikit-learn', 'sklearn'))).toBe(false);
    expect(
      ['test_model.py', 'model_test.py', 'tests/check.py', 'src/test_a.py'].map(isTestFile),
    ).toEqual([true, true, true, true]);
    expect(['model.py', 'tests/__init__.py', 'conftest.py', 'testing.py'].map(isTestFile)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('reads the summary of pytest and unittest', () => {
    expect(testCounts('pytest', '..F.\n=== 1 failed, 3 passed in 0.12s ===\n')).toEqual({
      passed: 3,
      failed: 1,
      errors: 0,
    });
    expect(testCounts('pytest', 'E\n=== 2 passed, 1 error in 0.3s ===')).toEqual({
      passed: 2,
      failed: 0,
      errors: 1,
    });
    expect(
      testCounts('unittest', 'Ran 5 tests in 0.001s\n\nFAILED (failures=1, errors=2)\n'),
    ).toEqual({ passed: 2, failed: 1, errors: 2 });
    expect(testCounts('unittest', 'Ran 2 tests in 0.001s\n\nOK\n')).toEqual({
      passed: 2,
      failed: 0,
      errors: 0,
    });
  });

  it('does not count pytest-style tests that unittest cannot see as passing', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'codify-tests-'));
    cleanups.push(() => rmSync(repo, { recursive: true, force: true }));
    writeFileSync(join(repo, 'test_sum.py'), 'def test_sum():\n    assert 1 + 1 == 2\n');
    const tests = await runRepositoryTests({
      sandbox: await createSandbox('bubblewrap'),
      repoDir: repo,
      files: ['test_sum.py'],
      interpreter: '/usr/bin/python3',
      limits: { ...defaultLimits, timeoutMs: 30_000 },
      outputPath: join(repo, '..', `${repo.split('/').at(-1) ?? 'x'}-tests.txt`),
    });
    cleanups.push(() => rmSync(tests.outputPath, { force: true }));
    expect(tests).toMatchObject({ runner: 'unittest', exitCode: 0, ok: false, passed: 0 });
    expect(tests.note).toContain('written for pytest');
  });

  it('offline: the install fails for real, the smoke runs anyway, repair decides, tests run', async () => {
    // A closed port on this machine: pip meets a refused connection, as on a machine without network.
    const { result, events, chosenFor, repairs } = await generate(passingTests, {
      ...isolatedPip,
      PIP_INDEX_URL: 'http://127.0.0.1:9/simple',
    });
    const repo = result.repository;
    expect(readFileSync(join(repo, 'requirements.txt'), 'utf8')).toBe('codify-probe-pkg\n');
    expect(readFileSync(join(repo, 'requirements-dev.txt'), 'utf8')).toBe(
      '-r requirements.txt\npytest>=7.0\npytest-cov\n',
    );
    // The interpreter is chosen by what the code needs to run, never by pytest: once for
    // the versions generation writes for, once for the smoke run.
    expect(chosenFor).toEqual([['codify_probe_pkg'], ['codify_probe_pkg']]);
    const report = result.report;
    expect(report.environment?.venv).toBe(join(result.report.repository, '..', 'venv'));
    expect(report.environment?.create.ok).toBe(true);
    expect(report.environment?.install?.ok).toBe(false);
    expect(report.environment?.install?.outputTail).toMatch(/codify-probe-pkg|codify_probe_pkg/);
    // What the tests lack is installed apart from what the code lacks (and fails here too).
    expect(report.environment?.testRequirements).toEqual(['pytest>=7.0', 'pytest-cov']);
    expect(report.environment?.testInstall?.ok).toBe(false);
    const install = events.find((event) => event.type === 'stage-end' && event.stage === 'install');
    // The stage finished (pip ran); what it could not install is its detail and a warning.
    expect(install?.type === 'stage-end' && install.ok).toBe(true);
    expect(install?.type === 'stage-end' ? install.detail : '').toMatch(
      /^pip could not install codify-probe-pkg/,
    );
    const warnings = events.filter((event) => event.type === 'log' && event.level === 'warn');
    expect(warnings.map((event) => (event.type === 'log' ? event.message : ''))).toContainEqual(
      install?.type === 'stage-end' ? install.detail : 'no install stage',
    );
    // The smoke ran in the environment anyway, failed on the missing module, and repair decided.
    expect(repairs).toHaveLength(1);
    expect(repairs[0]).toContain("No module named 'codify_probe_pkg'");
    expect(report.verify.ok).toBe(true);
    // /usr/bin/python3 has no pytest, so the tests ran under unittest, in the sandbox.
    expect(report.tests).toMatchObject({
      runner: 'unittest',
      ok: true,
      passed: 2,
      failed: 0,
      files: ['tests/test_model.py'],
    });
    const markdown = readFileSync(result.reportPath, 'utf8');
    expect(markdown).toContain('**Tests: pass** (2 passed, 0 failed, 0 errors)');
    expect(markdown).toContain(
      '`pip install codify-probe-pkg` (the run requirements) failed, so the runs went ahead without them',
    );
    expect(existsSync(join(repo, '.pytest_cache'))).toBe(false);
  });

  it('installs a missing requirement into the environment the smoke run uses; failing tests are reported', async () => {
    const wheels = mkdtempSync(join(tmpdir(), 'codify-wheels-'));
    cleanups.push(() => rmSync(wheels, { recursive: true, force: true }));
    execFileSync('/usr/bin/python3', ['-c', wheelScript, wheels]);
    const failingTests = passingTests.replace('double(0), 0', 'double(0), 1');
    const { result, repairs, run } = await generate(failingTests, {
      ...isolatedPip,
      PIP_NO_INDEX: '1',
      PIP_FIND_LINKS: wheels,
    });
    const report = result.report;
    expect(report.environment?.install?.ok).toBe(true);
    // pytest is not in the wheel folder: its failure does not keep the run requirement out.
    expect(report.environment?.testInstall?.ok).toBe(false);
    expect(report.environment?.interpreter).toBe(join(run.dir, 'venv', 'bin', 'python'));
    expect(repairs).toHaveLength(0);
    expect(report.verify.ok).toBe(true);
    const smoke = readFileSync(join(run.dir, 'outputs', 'smoke-1.txt'), 'utf8');
    expect(smoke).toContain(join(run.dir, 'venv'));
    expect(smoke).toContain('doubled: 42');
    expect(report.tests).toMatchObject({ runner: 'unittest', ok: false, passed: 1, failed: 1 });
    expect(readFileSync(result.reportPath, 'utf8')).toContain('**Tests: fail (exit 1)**');
  });
});
