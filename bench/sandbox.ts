/**
 * Sandbox costs: start latency of an empty script (bubblewrap vs none vs plain python),
 * and the execution tracer's overhead on a CPU-bound script.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../src/sandbox/index.js';
import { defaultLimits, type ExecutionRequest, type Sandbox } from '../src/sandbox/types.js';
import { median } from './lib/median.js';

const interpreter = '/usr/bin/python3';
const startRuns = 30;
const traceRuns = 5;

const cpuBoundScript = `
def primes_below(limit):
    found = []
    for candidate in range(2, limit):
        is_prime = True
        for divisor in found:
            if divisor * divisor > candidate:
                break
            if candidate % divisor == 0:
                is_prime = False
                break
        if is_prime:
            found.append(candidate)
    return found

print(len(primes_below(150_000)))
`;

function plainPython(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(interpreter, ['-c', 'pass'], (error) => {
      if (error) reject(new Error(`${interpreter} -c pass failed: ${error.message}`));
      else resolve();
    });
  });
}

async function timed(action: () => Promise<unknown>, runs: number): Promise<number> {
  const durations: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await action();
    durations.push(performance.now() - started);
  }
  return median(durations);
}

async function runChecked(sandbox: Sandbox, request: ExecutionRequest): Promise<void> {
  const result = await sandbox.run(request);
  if (result.exitCode !== 0) {
    throw new Error(`${sandbox.kind} run failed (${result.exitCode}): ${result.output}`);
  }
}

export async function runBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'codify-bench-'));
  const workspace = join(root, 'workspace');
  await mkdir(workspace);
  await writeFile(join(workspace, 'empty.py'), '');
  await writeFile(join(workspace, 'cpu.py'), cpuBoundScript);
  const request = (script: string, trace = false): ExecutionRequest => ({
    workspace,
    readOnlyPaths: [],
    interpreter,
    script,
    args: [],
    limits: defaultLimits,
    network: false,
    gpu: false,
    trace,
    outputPath: join(root, 'output.txt'),
  });
  try {
    const bubblewrap = await createSandbox('bubblewrap');
    const none = await createSandbox('none');
    // warm caches (interpreter layout, page cache) before measuring
    await runChecked(bubblewrap, request('empty.py'));
    await runChecked(none, request('empty.py'));

    const plain = await timed(plainPython, startRuns);
    const direct = await timed(() => runChecked(none, request('empty.py')), startRuns);
    const isolated = await timed(() => runChecked(bubblewrap, request('empty.py')), startRuns);
    console.log(`start latency, empty script, median of ${startRuns} runs:`);
    console.log(`  python -c pass        ${plain.toFixed(1)} ms`);
    console.log(
      `  --sandbox none        ${direct.toFixed(1)} ms  (${(direct / plain).toFixed(2)}x plain python)`,
    );
    console.log(
      `  --sandbox bubblewrap  ${isolated.toFixed(1)} ms  (${(isolated / plain).toFixed(2)}x plain python, +${(isolated - direct).toFixed(1)} ms over none)`,
    );

    const untraced = await timed(() => runChecked(bubblewrap, request('cpu.py')), traceRuns);
    const traced = await timed(() => runChecked(bubblewrap, request('cpu.py', true)), traceRuns);
    console.log(`trace overhead, CPU-bound script in bubblewrap, median of ${traceRuns} runs:`);
    console.log(`  untraced  ${untraced.toFixed(0)} ms`);
    console.log(
      `  traced    ${traced.toFixed(0)} ms  (${(traced / untraced).toFixed(2)}x untraced)`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
