import type { SandboxLimits } from './types.js';

/**
 * The script runs under `prlimit` (util-linux). Memory is capped with RLIMIT_DATA, not
 * RLIMIT_AS: since Linux 4.7 RLIMIT_DATA counts private writable memory (heap, anonymous
 * mmaps, thread stacks), which is what a script actually consumes, while RLIMIT_AS also
 * counts address space that is only reserved (torch, CUDA and BLAS reserve gigabytes they
 * never touch) and would break them at a limit that is still safe. RLIMIT_NPROC inside
 * bubblewrap's user namespace counts the sandbox's own processes and threads (per
 * namespace accounting), so a fork bomb stops there.
 */
export function prlimitArguments(prlimitPath: string, limits: SandboxLimits): string[] {
  const bytes = Math.max(1, Math.floor(limits.memoryMb)) * 1024 * 1024;
  return [
    prlimitPath,
    `--data=${bytes}`,
    `--nproc=${Math.max(1, Math.floor(limits.maxProcesses))}`,
    '--core=0',
    '--',
  ];
}
