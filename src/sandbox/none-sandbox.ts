import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executionResult, failedStart, neverThrowing } from './execution-result.js';
import { interpreterLayout } from './interpreter-layout.js';
import { createPidsCgroup } from './pids-cgroup.js';
import { killMarkedProcesses } from './process-tree.js';
import { prlimitArguments } from './resource-limits.js';
import { runProcess } from './run-process.js';
import { sandboxEnvironment } from './sandbox-environment.js';
import { scriptCommand } from './script-command.js';
import type { ExecutionRequest, ExecutionResult, Sandbox } from './types.js';

/** What the caller prints when `--sandbox none` is chosen. */
export const noSandboxWarning =
  'Warning: --sandbox none runs generated code directly on this machine, as your user: it can read and change your files and use the network. Only the timeout, the output cap, the memory limit and a scrubbed environment (no API keys) still apply. Use bubblewrap (apt-get install bubblewrap) to isolate it.';

export interface NoSandboxOptions {
  prlimitPath: string;
  outputFileCapBytes: number;
}

async function runDirectly(
  options: NoSandboxOptions,
  request: ExecutionRequest,
): Promise<ExecutionResult> {
  let workspace: string;
  let layout;
  try {
    workspace = await realpath(request.workspace);
    layout = await interpreterLayout(request.interpreter);
  } catch (error) {
    return failedStart(request, error instanceof Error ? error.message : String(error));
  }
  const notes = ['ran without a sandbox (--sandbox none)'];
  if (request.gpu) notes.push('gpu: without a sandbox the script sees whatever devices exist');
  const command = scriptCommand(workspace, request.script, request.args, request.trace);
  // no RLIMIT_NPROC here: outside a user namespace it counts every process of the user
  const limited = existsSync(options.prlimitPath)
    ? prlimitArguments(options.prlimitPath, request.limits, { processes: false })
    : [];
  const [program, ...programArguments] = [...limited, layout.executable, ...command.arguments];
  const home = await mkdtemp(join(tmpdir(), 'codify-run-'));
  // every descendant inherits this marker, so even ones that daemonize can be found and killed
  const marker = `CODIFY_RUN_MARKER=${randomUUID()}`;
  const [markerName = '', markerValue = ''] = marker.split('=');
  const cgroup = createPidsCgroup(request.limits.maxProcesses);
  const programName = program ?? layout.executable;
  const launched = cgroup
    ? cgroup.wrap(programName, programArguments)
    : { command: programName, args: programArguments };
  try {
    const outcome = await runProcess({
      ...launched,
      cwd: workspace,
      env: {
        ...request.env,
        ...sandboxEnvironment(layout.executable, home),
        [markerName]: markerValue,
      },
      timeoutMs: request.limits.timeoutMs,
      outputPath: request.outputPath,
      outputCapBytes: request.limits.outputCapBytes,
      outputFileCapBytes: options.outputFileCapBytes,
      signal: request.signal,
      killStragglers: () => {
        cgroup?.killAll();
        killMarkedProcesses(marker);
      },
    });
    return await executionResult(request, outcome, {
      coverPath: command.coverPath,
      fileCapBytes: options.outputFileCapBytes,
      notes,
      processLimitReached: cgroup?.limitReached(),
    });
  } finally {
    await cgroup?.remove();
    await rm(home, { recursive: true, force: true });
  }
}

/** Runs scripts directly (no isolation), with the same limits, output cap and clean environment. */
export function noSandbox(options: NoSandboxOptions): Sandbox {
  return neverThrowing('none', 'the run', (request) => runDirectly(options, request));
}
