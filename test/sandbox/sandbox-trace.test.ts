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
    expect(summary).toContain(
      'New or changed lines that never ran: 9. New or changed lines that ran: 8, 10.',
    );
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

/** Statements of every kind, the counts a line tracer gives them, and a decorator left alone. */
const kinds = `from __future__ import annotations
import functools


def plain(x):
    total = (x +
             1)
    return total


def custom(function):
    return function


@custom
def left_alone(n):
    out = 0
    for i in range(n):
        out += i
    return out


@functools.lru_cache(maxsize=None)
def cached(n):
    return n * 2


class Model:
    scale = 3

    def forward(self, x):
        try:
            return x * self.scale
        except TypeError:
            return None


count = 0
while count < 3:
    count += 1
values = [plain(v) for v in range(2)]
try:
    raise KeyError("k")
except KeyError:
    caught = True
match count:
    case 3:
        matched = "three"
    case _:
        matched = "other"
a = 1; b = 2
print(left_alone(4), cached(2), Model().forward(2), values, matched, count, a + b)
print("instrumented", "__codify_line_hits__" in plain.__code__.co_names, "__codify_line_hits__" in left_alone.__code__.co_names)
`;

describe('the line counter', () => {
  let sandbox: Sandbox;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    sandbox = await createSandbox('bubblewrap');
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('counts every kind of statement as a line tracer would, and changes nothing the script prints', async () => {
    workspace = await makeWorkspace();
    await workspace.write('kinds.py', kinds);
    const traced = await sandbox.run(workspace.request('kinds.py', { trace: true }));
    const direct = await sandbox.run(workspace.request('kinds.py'));
    expect(traced.exitCode, traced.output).toBe(0);
    expect(traced.output.split('\n')[0]).toBe(direct.output.split('\n')[0]);
    expect(traced.output.split('\n')[0]).toBe('6 4 6 [1, 2] three 3 3');
    // plain functions carry the counters; the one under an unknown decorator is left as written
    expect(traced.output).toContain('instrumented True False');
    const counts = traced.trace?.counts ?? {};
    const line = (text: string): number => kinds.split('\n').indexOf(text) + 1;
    expect(counts[line('from __future__ import annotations')]).toBe(1);
    // a continuation line counts with its statement
    expect(counts[line('    total = (x +')]).toBe(2);
    expect(counts[line('             1)')]).toBe(2);
    // counted with sys.settrace: the loop header is entered once and iterates four times
    expect(counts[line('    out = 0')]).toBe(1);
    expect(counts[line('    for i in range(n):')]).toBe(5);
    expect(counts[line('        out += i')]).toBe(4);
    // the decorator and the def line run in the module
    expect(counts[line('@custom')]).toBe(1);
    expect(counts[line('    return n * 2')]).toBe(1);
    expect(counts[line('while count < 3:')]).toBe(4);
    expect(counts[line('    count += 1')]).toBe(3);
    expect(counts[line('except KeyError:')]).toBe(1);
    expect(counts[line('    case 3:')]).toBe(1);
    // two statements on one line count the line once
    expect(counts[line('a = 1; b = 2')]).toBe(1);
    expect(traced.trace?.neverRan).toEqual([
      line('        except TypeError:'),
      line('            return None'),
      line('    case _:'),
      line('        matched = "other"'),
    ]);
  });

  it('reports a syntax error as python does, without the runner', async () => {
    workspace = await makeWorkspace();
    await workspace.write('broken.py', 'x = (\n');
    const traced = await sandbox.run(workspace.request('broken.py', { trace: true }));
    const direct = await sandbox.run(workspace.request('broken.py'));
    expect(traced.exitCode).toBe(1);
    expect(traced.output).toBe(direct.output);
    expect(traced.output).toContain("SyntaxError: '(' was never closed");
  });
});
