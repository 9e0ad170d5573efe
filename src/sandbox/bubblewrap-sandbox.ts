import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { bubblewrapArguments } from './bubblewrap-arguments.js';
import { executionResult, failedStart, neverThrowing } from './execution-result.js';
import { interpreterLayout } from './interpreter-layout.js';
import { nvidiaDeviceFiles } from './gpus.js';
import { createPidsCgroup } from './pids-cgroup.js';
import { pythonHelpersFolder } from './python-helpers.js';
import { prlimitArguments } from './resource-limits.js';
import { runProcess } from './run-process.js';
import { sandboxEnvironment } from './sandbox-environment.js';
import { scriptCommand } from './script-command.js';
import type { ExecutionRequest, ExecutionResult, Sandbox } from './types.js';

export interface BubblewrapSandboxOptions {
  bwrapPath: string;
  prlimitPath: string;
  outputFileCapBytes: number;
  /** Where NVIDIA device files are looked for; default /dev. */
  deviceRoot?: string;
}

async function runInBubblewrap(
  options: BubblewrapSandboxOptions,
  request: ExecutionRequest,
): Promise<ExecutionResult> {
  const notes: string[] = [];
  let workspace: string;
  let layout;
  try {
    workspace = await realpath(request.workspace);
    layout = await interpreterLayout(request.interpreter);
  } catch (error) {
    return failedStart(request, error instanceof Error ? error.message : String(error));
  }
  const command = scriptCommand(workspace, request.script, request.args, request.trace);
  // The interpreter's packages, wherever its path says they are (read-only).
  const extraReadOnly = [layout.prefix, layout.basePrefix, ...layout.sitePaths];
  if (command.coverPath) extraReadOnly.push(pythonHelpersFolder());
  const devices = request.gpu ? nvidiaDeviceFiles(options.deviceRoot) : [];
  if (request.gpu && devices.length === 0) {
    notes.push('gpu was requested but this machine has no /dev/nvidia* devices; ran on CPU');
  }
  const environment = { ...request.env, ...sandboxEnvironment(layout.executable, '/tmp') };
  // The user's choice of GPUs holds inside too; everything else of the host's environment stays out.
  const visible = process.env.CUDA_VISIBLE_DEVICES;
  if (request.gpu && visible !== undefined) environment.CUDA_VISIBLE_DEVICES = visible;
  const limited = existsSync(options.prlimitPath)
    ? prlimitArguments(options.prlimitPath, request.limits)
    : [];
  if (limited.length === 0) notes.push('prlimit is missing: no memory or process limit applied');
  const args = bubblewrapArguments({
    workspace,
    readOnlyPaths: request.readOnlyPaths,
    extraReadOnly,
    environment,
    network: request.network,
    devices,
    command: [...limited, layout.executable, ...command.arguments],
  });
  const cgroup = createPidsCgroup(request.limits.maxProcesses);
  const launched = cgroup
    ? cgroup.wrap(options.bwrapPath, args)
    : { command: options.bwrapPath, args };
  try {
    const outcome = await runProcess({
      ...launched,
      cwd: workspace,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      timeoutMs: request.limits.timeoutMs,
      outputPath: request.outputPath,
      outputCapBytes: request.limits.outputCapBytes,
      outputFileCapBytes: options.outputFileCapBytes,
      signal: request.signal,
      killStragglers: () => cgroup?.killAll(),
    });
    return await executionResult(request, outcome, {
      coverPath: command.coverPath,
      fileCapBytes: options.outputFileCapBytes,
      notes,
      processLimitReached: cgroup?.limitReached(),
    });
  } finally {
    await cgroup?.remove();
  }
}

/** Runs scripts under bubblewrap: see bubblewrap-arguments.ts for what is isolated. */
export function bubblewrapSandbox(options: BubblewrapSandboxOptions): Sandbox {
  return neverThrowing('bubblewrap', 'the sandbox', (request) => runInBubblewrap(options, request));
}
