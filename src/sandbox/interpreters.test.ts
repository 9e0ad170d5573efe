import { describe, expect, it } from 'vitest';
import { describeNoInterpreter, findInterpreter, probeInterpreter } from './interpreters.js';

describe('interpreter discovery', () => {
  it('reports which modules an interpreter imports', async () => {
    const probe = await probeInterpreter('/usr/bin/python3', ['json', 'no_such_module_xyz']);
    expect(probe.modules).toEqual({ json: true, no_such_module_xyz: false });
    expect(probe.version).toMatch(/^3\./);
  });

  it('lists what every candidate lacks when none fits', async () => {
    const choice = await findInterpreter(['no_such_module_xyz']);
    expect(choice.chosen).toBeUndefined();
    expect(choice.failures.length).toBeGreaterThan(0);
    const message = describeNoInterpreter(['no_such_module_xyz'], choice.failures);
    expect(message).toContain('cannot import no_such_module_xyz');
    expect(message).toContain('--python');
  });

  it('counts a pyenv shim and the binary behind it once', async () => {
    const choice = await findInterpreter(['no_such_module_xyz']);
    const executables = choice.probes.map((probe) => probe.executable);
    expect(new Set(executables).size).toBe(executables.length);
    for (const probe of choice.probes) expect(probe.executable).not.toContain('/shims/');
  });

  it('honours an explicit interpreter', async () => {
    const choice = await findInterpreter(['json'], '/usr/bin/python3');
    expect(choice.chosen?.path).toBe('/usr/bin/python3');
  });
});
