import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, summarizeTrace } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { makeWorkspace, type TestWorkspace } from './sandbox-fixtures.js';

const script = `"""Module docstring."""
import sys
import threading


def square(value):
    """Docstring, not executable."""
    if value < 0:
        raise ValueError("negative")
    return value * value


def worker(results):
    results.append(square(3))


total = 0
for number in range(4):
    total += square(number)
results = []
thread = threading.Thread(target=worker, args=(results,))
thread.start()
thread.join()
print("total", total, results, __name__, sys.argv[1:])
if "--fail" in sys.argv:
    square(-1)
sys.exit(int(sys.argv[1]))
`;

describe.each(['bubblewrap', 'none'] as const)('tracing in the %s sandbox', (kind) => {
  let sandbox: Sandbox;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    sandbox = await createSandbox(kind);
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('counts each line of the script, marks lines that never ran and keeps the exit code', async () => {
    workspace = await makeWorkspace();
    await workspace.write('train.py', script);
    const result = await sandbox.run(workspace.request('train.py', { args: ['3'], trace: true }));
    expect(result.output).toContain("total 14 [9] __main__ ['3']");
    expect(result.exitCode).toBe(3);
    const trace = result.trace;
    expect(trace?.coverPath).toBe(join(workspace.workspace, 'train_execution_trace.cover'));
    // `if value < 0` ran for 0..3 in the loop and once more in the thread
    expect(trace?.counts[8]).toBe(5);
    expect(trace?.counts[14]).toBe(1);
    expect(trace?.counts[18]).toBe(5);
    expect(trace?.counts[19]).toBe(4);
    expect(trace?.neverRan).toEqual([9, 26]);
    const cover = await readFile(trace?.coverPath ?? '', 'utf8');
    const coverLines = cover.split('\n');
    expect(coverLines[7]).toBe('    5:     if value < 0:');
    expect(coverLines[8]).toBe('>>>>>>         raise ValueError("negative")');
    expect(coverLines[6]).toBe('           """Docstring, not executable."""');
    expect(coverLines[4]).toBe('       ');
    const summary = summarizeTrace(trace ?? { coverPath: '', counts: {}, neverRan: [] }, {
      changedLines: [8, 9, 10],
    });
    expect(summary).toContain('lines 9, 26 never ran');
    expect(summary).toContain('Of the new or changed lines, 9 never ran (8, 10 ran)');
  });

  it('keeps an uncaught exception as if the script ran directly', async () => {
    workspace = await makeWorkspace();
    await workspace.write('train.py', script);
    const traced = await sandbox.run(
      workspace.request('train.py', { args: ['0', '--fail'], trace: true }),
    );
    const direct = await sandbox.run(workspace.request('train.py', { args: ['0', '--fail'] }));
    expect(traced.exitCode).toBe(1);
    expect(direct.exitCode).toBe(1);
    expect(traced.output).toBe(direct.output);
    expect(traced.output).toContain('ValueError: negative');
    expect(traced.output).not.toContain('trace_runner');
    expect(traced.trace?.counts[9]).toBe(1);
    expect(traced.trace?.neverRan).toEqual([27]);
  });
});
