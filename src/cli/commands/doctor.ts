import type { Command } from 'commander';
import { checkBubblewrap } from '../../sandbox/bubblewrap-check.js';
import {
  candidateInterpreters,
  commonModules,
  probeInterpreter,
} from '../../sandbox/interpreters.js';
import { providerKeyVariables } from '../../llm/provider-keys.js';
import {
  describeGpu,
  gpuDeviceCount,
  nvidiaDeviceFiles,
  queryNvidiaSmi,
} from '../../sandbox/gpus.js';
import { createSandbox } from '../../sandbox/index.js';
import {
  describeTorchCuda,
  probeTorchCuda,
  probeTorchCudaInSandbox,
} from '../../sandbox/torch-cuda.js';

export interface DoctorReport {
  ok: boolean;
  lines: string[];
}

export interface DoctorOptions {
  /** Where device files are looked for (a fake layout in tests); default /dev. */
  devRoot?: string;
  /** The nvidia-smi command; default `nvidia-smi` on PATH. */
  nvidiaSmi?: string;
}

/** Checks what codify needs on this machine and says what to install and how. */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const lines: string[] = [];
  const advice: string[] = [];
  let ok = true;

  const major = Number(process.versions.node.split('.')[0]);
  const nodeOk = major >= 20;
  ok &&= nodeOk;
  lines.push(
    `${nodeOk ? 'ok  ' : 'FAIL'} node ${process.versions.node}${nodeOk ? '' : ' (codify needs Node 20 or newer)'}`,
  );

  const bubblewrap = await checkBubblewrap();
  if (!bubblewrap.found) {
    ok = false;
    lines.push('FAIL bubblewrap: not installed');
    advice.push('Install bubblewrap: `sudo apt-get install bubblewrap` (or run scripts/setup.sh).');
  } else {
    lines.push(
      `${bubblewrap.canStart ? 'ok  ' : 'FAIL'} ${bubblewrap.version ?? 'bubblewrap'}: ${bubblewrap.detail}`,
    );
    if (!bubblewrap.canStart) {
      ok = false;
      advice.push(
        'bubblewrap cannot create namespaces here; enable unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run with --sandbox none at your own risk.',
      );
    }
  }

  const interpreters = await candidateInterpreters();
  const withTorch: string[] = [];
  let anyWithNumpy = false;
  for (const path of interpreters) {
    try {
      const probe = await probeInterpreter(path, commonModules);
      const has = commonModules.filter((name) => probe.modules[name]);
      const lacks = commonModules.filter((name) => !probe.modules[name]);
      anyWithNumpy ||= probe.modules.numpy === true;
      if (probe.modules.torch === true) withTorch.push(path);
      lines.push(
        `ok   python ${probe.version} ${path}${probe.realPath !== path ? ` (${probe.realPath})` : ''}: imports ${has.join(', ') || 'none of the ML modules'}${lacks.length ? `; lacks ${lacks.join(', ')}` : ''}`,
      );
    } catch (error) {
      lines.push(`warn python ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (interpreters.length === 0) {
    ok = false;
    lines.push('FAIL python: no python3 found');
  }
  if (!anyWithNumpy) {
    advice.push(
      'No interpreter imports numpy: `sudo apt-get install python3-numpy python3-torch python3-torchvision python3-sklearn python3-pandas` (or run scripts/setup.sh).',
    );
  }

  const gpu = await gpuLines(withTorch, bubblewrap.canStart, options);
  lines.push(...gpu.lines);
  advice.push(...gpu.advice);

  const setKeys = providerKeyVariables.filter((entry) => process.env[entry.variable]);
  lines.push(
    `info provider keys set: ${setKeys.length ? setKeys.map((entry) => entry.variable).join(', ') : 'none (the demo, exchange: and replay: need none)'}`,
  );

  return { ok, lines: [...lines, ...advice.map((text) => `  -> ${text}`)] };
}

/**
 * GPUs from the device files and nvidia-smi, and, per interpreter with torch, whether torch
 * sees CUDA, on the host and (with GPUs present) inside the sandbox as `--gpu` passes them.
 */
async function gpuLines(
  withTorch: readonly string[],
  sandboxWorks: boolean,
  options: DoctorOptions,
): Promise<{ lines: string[]; advice: string[] }> {
  const lines: string[] = [];
  const advice: string[] = [];
  const devices = nvidiaDeviceFiles(options.devRoot);
  const count = gpuDeviceCount(devices);
  const smi = await queryNvidiaSmi(options.nvidiaSmi);
  if (count === 0 && smi.state !== 'ok') {
    lines.push('info GPUs: none (no /dev/nvidia* devices); scripts run on the CPU');
  } else {
    lines.push(
      `info GPU devices: ${devices.length ? devices.join(' ') : 'none under /dev'} (bound into the sandbox with --gpu, or "gpu": true in codify.config.json)`,
    );
    if (smi.state === 'ok') {
      for (const gpu of smi.gpus) lines.push(`ok   ${describeGpu(gpu)}`);
      if (smi.gpus.length === 0) lines.push('warn nvidia-smi listed no GPUs');
    } else if (smi.state === 'missing') {
      lines.push('warn nvidia-smi: not installed (the NVIDIA driver utilities are missing)');
    } else {
      lines.push(`warn nvidia-smi failed: ${smi.message}`);
      advice.push(
        'nvidia-smi cannot talk to the driver: check that the NVIDIA kernel module is loaded (`lsmod | grep nvidia`) and matches the user-space driver.',
      );
    }
  }
  const hasGpu = count > 0;
  const sandbox = hasGpu && sandboxWorks ? await createSandbox('bubblewrap') : undefined;
  let anyCuda = false;
  for (const interpreter of withTorch) {
    const host = await probeTorchCuda(interpreter);
    anyCuda ||= host.available;
    lines.push(
      `${host.available || !hasGpu ? 'info' : 'warn'} ${interpreter}: ${describeTorchCuda(host)}`,
    );
    if (sandbox !== undefined && host.torch !== null) {
      const inside = await probeTorchCudaInSandbox(sandbox, interpreter);
      const mark = inside.available === host.available ? 'ok  ' : 'warn';
      lines.push(`${mark} ${interpreter} in the sandbox with --gpu: ${describeTorchCuda(inside)}`);
    }
  }
  if (hasGpu && withTorch.length > 0 && !anyCuda) {
    advice.push(
      "A GPU is present but no interpreter's torch sees it: install a CUDA build of torch (e.g. `pip install torch` in a virtual environment; Debian's python3-torch is CPU-only) and pass it with --python.",
    );
  }
  return { lines, advice };
}

/** `codify doctor`: what this machine has for codify, one line per check. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check Node, bubblewrap, Python interpreters and provider keys')
    .action(async () => {
      const report = await runDoctor();
      for (const line of report.lines) process.stdout.write(`${line}\n`);
      process.exitCode = report.ok ? 0 : 1;
    });
}
