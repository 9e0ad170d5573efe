import { realpath } from 'node:fs/promises';
import { checkBubblewrap, type BubblewrapStatus } from '../../sandbox/bubblewrap-check.js';
import type { Command } from 'commander';
import { exitCodes } from '../../errors/exit-codes.js';
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
  type NvidiaSmiReport,
} from '../../sandbox/gpus.js';
import { createSandbox } from '../../sandbox/index.js';
import {
  fingerprintPython,
  identifyPython,
  type PythonIdentity,
} from '../../sandbox/python-fingerprint.js';
import { defaultProbeCacheFile, PythonProbeCache } from '../../sandbox/python-probe-cache.js';
import {
  describeTorchCuda,
  probeTorchCuda,
  probeTorchCudaInSandbox,
  type TorchCudaProbe,
} from '../../sandbox/torch-cuda.js';
import { isSupportedNode, supportedNode } from '../node-support.js';

export interface DoctorReport {
  ok: boolean;
  lines: string[];
}

export interface DoctorOptions {
  /** Where device files are looked for (a fake layout in tests); default /dev. */
  devRoot?: string;
  /** The nvidia-smi command; default `nvidia-smi` on PATH. */
  nvidiaSmi?: string;
  /** Where the slow probes' answers are kept between runs; default under $XDG_CACHE_HOME. */
  cacheFile?: string;
  /** Receives each line as soon as it is known, in the report's order. */
  onLine?: (line: string) => void;
}

/** What one interpreter imports and, when it has torch, what torch says about CUDA. */
interface InterpreterCheck {
  identity: PythonIdentity;
  realPath: string;
  modules: Record<string, boolean>;
  torchCuda: Promise<TorchCudaProbe> | undefined;
}

/**
 * Checks what codify needs on this machine and says what to install and how. The slow probes
 * (importing torch, asking it about CUDA) run side by side and are cached per interpreter
 * until its binary or a folder on its import path changes.
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    options.onLine?.(line);
  };
  const advice: string[] = [];
  let ok = true;

  const nodeOk = isSupportedNode(process.versions.node);
  ok &&= nodeOk;
  say(
    `${nodeOk ? 'ok  ' : 'FAIL'} node ${process.versions.node}${nodeOk ? '' : ` (codify needs Node ${supportedNode}; \`nvm install 20\` gets one)`}`,
  );

  const cache = await PythonProbeCache.open(options.cacheFile ?? defaultProbeCacheFile());
  const devices = nvidiaDeviceFiles(options.devRoot);
  // everything slow starts now; the lines below wait for each in turn
  const bubblewrapCheck = checkBubblewrap();
  const smiQuery = queryNvidiaSmi(options.nvidiaSmi);
  const interpreters = await candidateInterpreters();
  const byFingerprint = new Map<string, Promise<InterpreterCheck>>();
  const checks = interpreters.map((path) =>
    checkInterpreter(path, cache, devices.join(' '), byFingerprint),
  );
  // a failed check is reported in its turn, not as an unhandled rejection meanwhile
  for (const check of checks) check.catch(() => undefined);

  const bubblewrap = await bubblewrapCheck;
  const sandboxOk = bubblewrapLines(bubblewrap, say, advice);
  ok &&= sandboxOk;
  const python = await interpreterLines(interpreters, checks, say);
  ok &&= interpreters.length > 0;
  if (!python.anyWithNumpy) {
    advice.push(
      'No interpreter imports numpy: `sudo apt-get install python3-numpy python3-torch python3-torchvision python3-sklearn python3-pandas` (or run scripts/setup.sh).',
    );
  }

  const gpu = await gpuLines(python.withTorch, bubblewrap.canStart, devices, smiQuery, say);
  advice.push(...gpu.advice);
  await cache.save();

  const setKeys = providerKeyVariables.filter((entry) => process.env[entry.variable]);
  say(
    `info provider keys set: ${setKeys.length ? setKeys.map((entry) => entry.variable).join(', ') : 'none (the demo, exchange: and replay: need none)'}`,
  );
  for (const text of advice) say(`  -> ${text}`);
  return { ok, lines };
}

/** Whether bubblewrap is there and can start a sandbox; says so, with advice when not. */
function bubblewrapLines(
  bubblewrap: BubblewrapStatus,
  say: (line: string) => void,
  advice: string[],
): boolean {
  if (!bubblewrap.found) {
    say('FAIL bubblewrap: not installed');
    advice.push('Install bubblewrap: `sudo apt-get install bubblewrap` (or run scripts/setup.sh).');
    return false;
  }
  say(
    `${bubblewrap.canStart ? 'ok  ' : 'FAIL'} ${bubblewrap.version ?? 'bubblewrap'}: ${bubblewrap.detail}`,
  );
  if (!bubblewrap.canStart) {
    advice.push(
      'bubblewrap cannot create namespaces here; enable unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`) or run with --sandbox none at your own risk.',
    );
  }
  return bubblewrap.canStart;
}

/** One line per interpreter, in order, each as soon as its own check is in. */
async function interpreterLines(
  interpreters: readonly string[],
  checks: readonly Promise<InterpreterCheck>[],
  say: (line: string) => void,
): Promise<{
  withTorch: { path: string; torchCuda: Promise<TorchCudaProbe> }[];
  anyWithNumpy: boolean;
}> {
  const withTorch: { path: string; torchCuda: Promise<TorchCudaProbe> }[] = [];
  let anyWithNumpy = false;
  for (const [index, path] of interpreters.entries()) {
    try {
      const check = await checks[index];
      if (check === undefined) continue;
      const { identity, realPath, modules } = check;
      const has = commonModules.filter((name) => modules[name]);
      const lacks = commonModules.filter((name) => !modules[name]);
      anyWithNumpy ||= modules.numpy === true;
      if (check.torchCuda !== undefined) withTorch.push({ path, torchCuda: check.torchCuda });
      say(
        `ok   python ${identity.version} ${path}${realPath !== path ? ` (${realPath})` : ''}: imports ${has.join(', ') || 'none of the ML modules'}${lacks.length ? `; lacks ${lacks.join(', ')}` : ''}`,
      );
    } catch (error) {
      say(`warn python ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (interpreters.length === 0) say('FAIL python: no python3 found');
  return { withTorch, anyWithNumpy };
}

/**
 * Identifies the interpreter (fast), then takes what it imports and torch's view of CUDA from
 * the cache, or probes them; paths that run one interpreter the same way (pyenv shims, links)
 * share the probes.
 */
async function checkInterpreter(
  path: string,
  cache: PythonProbeCache,
  devices: string,
  byFingerprint: Map<string, Promise<InterpreterCheck>>,
): Promise<InterpreterCheck> {
  const identity = await identifyPython(path);
  const realPath = await realpath(path).catch(() => path);
  const fingerprint = await fingerprintPython(identity);
  const shared = byFingerprint.get(fingerprint);
  if (shared !== undefined) {
    const check = await shared;
    cache.storeModules(path, fingerprint, check.modules);
    const torchCuda = check.torchCuda?.then((probe) => {
      cache.storeTorchCuda(path, fingerprint, devices, probe);
      return probe;
    });
    return { identity, realPath, modules: check.modules, torchCuda };
  }
  const check = probeOnce(identity, realPath, fingerprint, cache, devices);
  byFingerprint.set(fingerprint, check);
  return check;
}

async function probeOnce(
  identity: PythonIdentity,
  realPath: string,
  fingerprint: string,
  cache: PythonProbeCache,
  devices: string,
): Promise<InterpreterCheck> {
  const { path } = identity;
  let modules = cache.modules(path, fingerprint, commonModules);
  if (modules === undefined) {
    modules = (await probeInterpreter(path, commonModules)).modules;
    cache.storeModules(path, fingerprint, modules);
  }
  let torchCuda: Promise<TorchCudaProbe> | undefined;
  if (modules.torch === true) {
    const known = cache.torchCuda(path, fingerprint, devices);
    torchCuda =
      known !== undefined
        ? Promise.resolve(known)
        : probeTorchCuda(path).then((probe) => {
            cache.storeTorchCuda(path, fingerprint, devices, probe);
            return probe;
          });
  }
  return { identity, realPath, modules, torchCuda };
}

/**
 * GPUs from the device files and nvidia-smi, and, per interpreter with torch, whether torch
 * sees CUDA, on the host and (with GPUs present) inside the sandbox as `--gpu` passes them.
 */
async function gpuLines(
  withTorch: readonly { path: string; torchCuda: Promise<TorchCudaProbe> }[],
  sandboxWorks: boolean,
  devices: readonly string[],
  smiQuery: Promise<NvidiaSmiReport>,
  say: (line: string) => void,
): Promise<{ advice: string[] }> {
  const advice: string[] = [];
  const count = gpuDeviceCount(devices);
  const smi = await smiQuery;
  if (count === 0 && smi.state !== 'ok') {
    say('info GPUs: none (no /dev/nvidia* devices); scripts run on the CPU');
  } else {
    say(
      `info GPU devices: ${devices.length ? devices.join(' ') : 'none under /dev'} (bound into the sandbox with --gpu, or "gpu": true in codify.config.json)`,
    );
    if (smi.state === 'ok') {
      for (const gpu of smi.gpus) say(`ok   ${describeGpu(gpu)}`);
      if (smi.gpus.length === 0) say('warn nvidia-smi listed no GPUs');
    } else if (smi.state === 'missing') {
      say('warn nvidia-smi: not installed (the NVIDIA driver utilities are missing)');
    } else {
      say(`warn nvidia-smi failed: ${smi.message}`);
      advice.push(
        'nvidia-smi cannot talk to the driver: check that the NVIDIA kernel module is loaded (`lsmod | grep nvidia`) and matches the user-space driver.',
      );
    }
  }
  const hasGpu = count > 0;
  const sandbox = hasGpu && sandboxWorks ? await createSandbox('bubblewrap') : undefined;
  // the in-sandbox probes start together, each once its interpreter's host probe is in
  const inSandbox = withTorch.map(({ path, torchCuda }) =>
    torchCuda.then((host) =>
      sandbox !== undefined && host.torch !== null
        ? probeTorchCudaInSandbox(sandbox, path)
        : undefined,
    ),
  );
  for (const settled of inSandbox) settled.catch(() => undefined);
  let anyCuda = false;
  for (const [index, { path, torchCuda }] of withTorch.entries()) {
    const host = await torchCuda;
    anyCuda ||= host.available;
    say(`${host.available || !hasGpu ? 'info' : 'warn'} ${path}: ${describeTorchCuda(host)}`);
    const inside = await inSandbox[index];
    if (inside !== undefined) {
      const mark = inside.available === host.available ? 'ok  ' : 'warn';
      say(`${mark} ${path} in the sandbox with --gpu: ${describeTorchCuda(inside)}`);
    }
  }
  if (hasGpu && withTorch.length > 0 && !anyCuda) {
    advice.push(
      "A GPU is present but no interpreter's torch sees it: install a CUDA build of torch (e.g. `pip install torch` in a virtual environment; Debian's python3-torch is CPU-only) and pass it with --python.",
    );
  }
  return { advice };
}

/** `codify doctor`: what this machine has for codify, one line per check. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check Node, bubblewrap, Python interpreters and provider keys')
    .action(async () => {
      // each line as soon as it is known: the slow probes come last
      const report = await runDoctor({ onLine: (line) => process.stdout.write(`${line}\n`) });
      process.exitCode = report.ok ? exitCodes.ok : exitCodes.environment;
    });
}
