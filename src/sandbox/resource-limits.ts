import type { SandboxLimits } from './types.js';

/**
 * The script runs under `prlimit` (util-linux). Memory is capped with RLIMIT_DATA, not
 * RLIMIT_AS: since Linux 4.7 RLIMIT_DATA counts private writable memory (heap, anonymous
 * mmaps, thread stacks), which is what a script actually consumes, while RLIMIT_AS also
 * counts address space that is only reserved (torch, CUDA and BLAS reserve gigabytes they
 * never touch) and would break them at a limit that is still safe. RLIMIT_NPROC inside
 * bubblewrap's user namespace counts the sandbox's own processes and threads (per
 * namespace accounting) on kernels that do that accounting; where codify may create cgroups
 * (root, as in containers and CI), a pids cgroup per run enforces the limit everywhere.
 */
export function prlimitArguments(
  prlimitPath: string,
  limits: SandboxLimits,
  options: { processes: boolean } = { processes: true },
): string[] {
  const bytes = Math.max(1, Math.floor(limits.memoryMb)) * 1024 * 1024;
  const args = [prlimitPath, `--data=${bytes}`, '--core=0'];
  if (options.processes) args.push(`--nproc=${Math.max(1, Math.floor(limits.maxProcesses))}`);
  args.push('--');
  return args;
}
