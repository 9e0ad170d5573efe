import { describe, expect, it } from 'vitest';
import {
  describePlanningEnvironment,
  describeTargetEnvironment,
  probeTargetEnvironment,
  richestInterpreter,
} from '../../src/repo/target-environment.js';

describe('the target environment generation writes for', () => {
  it("reads the interpreter's Python version and each package's installed version", async () => {
    const found = await probeTargetEnvironment('python3', [
      { name: 'numpy', importName: 'numpy' },
      { name: 'codify-absent-package', importName: 'codify_absent_package' },
    ]);
    expect(found.python).toMatch(/^3\.\d+\.\d+/);
    expect(found.packages[0]?.name).toBe('numpy');
    expect(found.packages[0]?.version).toMatch(/^\d+\.\d+/);
    expect(found.packages[1]).toEqual({ name: 'codify-absent-package', version: null });
    const text = describeTargetEnvironment(found);
    expect(text).toContain(`- Python ${found.python}`);
    expect(text).toContain(`- installed: numpy ${found.packages[0]?.version ?? ''}`);
    expect(text).toMatch(/not installed.*: codify-absent-package$/m);
  });

  it('says when the code uses the standard library only', () => {
    expect(
      describeTargetEnvironment({ interpreter: 'python3', python: '3.11.2', packages: [] }),
    ).toBe('- Python 3.11.2\n- the standard library only');
  });

  it('tells planning the versions installed, not the usual packages missing', () => {
    const missing = { name: 'matplotlib', version: null };
    const packages = [{ name: 'torch', version: '1.13.1' }, missing];
    expect(describePlanningEnvironment({ interpreter: 'p', python: '3.11.2', packages })).toBe(
      '- Python 3.11.2\n- installed: torch 1.13.1',
    );
    expect(
      describePlanningEnvironment({ interpreter: 'p', python: '3.12.0', packages: [missing] }),
    ).toContain('none of the usual packages');
  });

  it('picks the interpreter with the most of the usual packages, skipping one that cannot run', async () => {
    // Debian's interpreter has torch, numpy, scikit-learn, pandas and PyYAML (scripts/setup.sh).
    const candidates = ['/no/such/python', 'python3', '/usr/bin/python3'];
    const richest = await richestInterpreter(candidates);
    expect(['python3', '/usr/bin/python3']).toContain(richest?.interpreter);
    expect(richest?.packages.find((pkg) => pkg.name === 'torch')?.version).toMatch(/^\d/);
    expect(await richestInterpreter(['/no/such/python'])).toBeUndefined();
  });
});
