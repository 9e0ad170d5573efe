import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandOutput, registerCheckCommand } from '../../src/cli/commands/check.js';
import { nvidiaDeviceFiles } from '../../src/sandbox/gpus.js';
import { checkTask } from '../../src/tasks/check-task.js';
import { fixtureTask } from './fixture-paths.js';

/** Runs `codify check …` through commander, as main.ts will, and collects what it prints. */
async function runCheck(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const output: CommandOutput = {
    write: (text) => (out += text),
    writeError: (text) => (err += text),
  };
  const program = new Command().name('codify').exitOverride();
  registerCheckCommand(program, output);
  const previous = process.exitCode;
  try {
    await program.parseAsync(['check', ...args], { from: 'user' });
    return { code: Number(process.exitCode ?? 0), out, err };
  } finally {
    process.exitCode = previous;
  }
}

const temporary: string[] = [];
afterEach(async () => {
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function copyOf(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'codify-check-test-'));
  temporary.push(dir);
  await cp(fixtureTask(name), dir, { recursive: true });
  return dir;
}

describe('codify check', () => {
  it('reports a usable task: files, settings, the sandboxed run and the metric; exit 0', async () => {
    const before = await readdir(fixtureTask('good-task'));
    const { code, out } = await runCheck([fixtureTask('good-task')]);
    expect(code).toBe(0);
    expect(out).toMatch(/ok {3}methodology_description\.txt +159 B +the method to implement/);
    expect(out).toMatch(/-- {3}problem_statement\.txt +missing \(optional\)/);
    expect(out).toContain('data.csv (63 B)');
    expect(out).toContain('timeout     60 s');
    expect(out).toContain('metric      accuracy (higher is better), pattern ^accuracy: ([0-9.]+)');
    expect(out).toContain('seed        none declared (an evaluation cannot vary it)');
    expect(out).toContain('sandbox bubblewrap');
    expect(out).toMatch(/exit code 0 after \d+\.\d s/);
    expect(out).toContain('metric accuracy = 0.75 (last match of ^accuracy: ([0-9.]+))');
    expect(out).toContain('Result: usable');
    expect(out).not.toContain('Last 40 lines');
    expect(await readdir(fixtureTask('good-task'))).toEqual(before);
  });

  it('shows how a task takes its seed', async () => {
    const { code, out } = await runCheck([fixtureTask('seeded-noise')]);
    expect(code).toBe(0);
    expect(out).toContain('seed        environment variable SEED=N');
    expect(out).toContain('metric accuracy = 0.7188');
  });

  it('--gpu runs the starter with the GPUs passed (here: none, which the report says)', async () => {
    const { code, out } = await runCheck([fixtureTask('good-task'), '--gpu']);
    expect(code).toBe(0);
    if (nvidiaDeviceFiles().length === 0) {
      expect(out).toContain(
        'note: gpu was requested but this machine has no /dev/nvidia* devices; ran on CPU',
      );
    } else {
      expect(out).not.toContain('no /dev/nvidia* devices');
    }
    const { out: cpuOut } = await runCheck([fixtureTask('good-task'), '--no-gpu']);
    expect(cpuOut).not.toContain('gpu was requested');
  });

  it('fails a crashing starter with exit 6 and shows the output tail', async () => {
    const { code, out } = await runCheck([fixtureTask('crashing-task')]);
    expect(code).toBe(6);
    expect(out).toContain('exit code 1 after');
    expect(out).toContain('metric accuracy: not found (pattern accuracy: ([0-9.]+))');
    expect(out).toContain('Last 40 lines of output:');
    expect(out).toContain("  | KeyError: 'missing'");
    expect(out).toContain('Result: NOT usable — the starter code exited with code 1');
  });

  it('fails with exit 7 when the metric is declared but never printed', async () => {
    const dir = await copyOf('good-task');
    await writeFile(
      join(dir, 'task.json'),
      JSON.stringify({ metric: { name: 'f1', pattern: 'f1=([0-9.]+)', goal: 'max' } }),
    );
    const { code, out } = await runCheck([dir]);
    expect(code).toBe(7);
    expect(out).toContain('metric f1: not found (pattern f1=([0-9.]+))');
    expect(out).toContain('  | accuracy: 0.75');
    expect(out).toContain('no match for the metric pattern f1=([0-9.]+)');
  });

  it('fails a task that does not validate with exit 3, still listing what it found', async () => {
    const dir = await copyOf('good-task');
    await rm(join(dir, 'starter_code.py'));
    const { code, out } = await runCheck([dir]);
    expect(code).toBe(3);
    expect(out).toMatch(/MISS starter_code\.py +missing \(required\)/);
    expect(out).toMatch(/ok {3}methodology_description\.txt/);
    expect(out).toContain(`Result: NOT usable — starter_code.py is missing in ${dir}`);
    expect(out).not.toContain('Starter run');
  });

  it('fails with exit 4 when the interpreter given cannot run', async () => {
    const { code, out } = await runCheck([
      fixtureTask('good-task'),
      '--python',
      '/nonexistent/python3',
    ]);
    expect(code).toBe(4);
    expect(out).toContain('--python /nonexistent/python3 cannot be used');
  });

  it('passes --args, --timeout and arguments after -- to the starter; --json prints the report', async () => {
    const dir = await copyOf('good-task');
    await writeFile(
      join(dir, 'starter_code.py'),
      'import sys\nprint("accuracy:", len(sys.argv) - 1)\n',
    );
    const { code, out, err } = await runCheck([
      dir,
      '--args',
      'a',
      'b',
      '--timeout',
      '7',
      '--json',
      '--',
      'c',
    ]);
    expect(code).toBe(0);
    expect(err).toBe('');
    const report = JSON.parse(out) as {
      exitCode: number;
      task: { args: string[]; timeoutS: number };
      run: { command: string; exitCode: number };
      metric: { reading: { value: number } };
    };
    expect(report.exitCode).toBe(0);
    expect(report.task.args).toEqual(['a', 'b', 'c']);
    expect(report.task.timeoutS).toBe(7);
    expect(report.run.command).toBe('python starter_code.py a b c');
    expect(report.metric.reading.value).toBe(3);
  });

  it('reports a starter that outlives --timeout as failed', async () => {
    const dir = await copyOf('good-task');
    await writeFile(
      join(dir, 'starter_code.py'),
      'import time\nprint("started", flush=True)\ntime.sleep(30)\n',
    );
    const report = await checkTask({ taskPath: dir, sandbox: 'bubblewrap', timeoutS: 1 });
    expect(report.exitCode).toBe(6);
    expect(report.run?.timedOut).toBe(true);
    expect(report.problem).toBe('the starter code did not finish within the timeout');
    expect(report.run?.output).toContain('started');
  });

  it('warns on stderr when run without a sandbox', async () => {
    const { code, err } = await runCheck([fixtureTask('mlagentbench-task'), '--sandbox', 'none']);
    expect(code).toBe(0);
    expect(err).toContain('--sandbox none runs generated code directly on this machine');
    expect(err).toContain('Running python train.py with ');
    expect(err).toContain('(sandbox none, timeout 600 s)…');
  });
});
