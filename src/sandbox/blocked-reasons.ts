export interface BlockedInput {
  output: string;
  network: boolean;
  timedOut: boolean;
  timeoutMs: number;
  memoryMb: number;
  maxProcesses: number;
  /** The kernel refused a fork at the process limit (from the pids cgroup). */
  processLimitReached: boolean;
  signal: string | null;
  exitCode: number | null;
  /** codify itself killed the run (timeout, output cap, cancel). */
  killedBySandbox: boolean;
  truncated: boolean;
  outputBytes: number;
  outputCapBytes: number;
  fileCapped: boolean;
  fileCapBytes: number;
  outputPath: string;
}

const memoryPatterns = [
  /\bMemoryError\b/,
  /Unable to allocate/,
  /can't allocate memory/i,
  /Cannot allocate memory/,
  /std::bad_alloc/,
  /\bout of memory\b/i,
];
const networkPatterns = [
  /Network is unreachable/,
  /Temporary failure in name resolution/,
  /Name or service not known/,
  /nodename nor servname/,
  /Connection refused/,
  /No address associated with hostname/,
];
const processPatterns = [
  /Resource temporarily unavailable/,
  /can't start new thread/,
  /BlockingIOError: \[Errno 11\]/,
  /fork: retry/,
];

/**
 * Whether the run died of the memory limit: an allocation error in the output, or a SIGKILL
 * codify did not send (the kernel's out-of-memory killer; bwrap reports it as exit 137).
 */
export function detectMemoryExceeded(
  output: string,
  death: { signal: string | null; exitCode: number | null; killedBySandbox: boolean },
): boolean {
  if (memoryPatterns.some((pattern) => pattern.test(output))) return true;
  if (death.killedBySandbox) return false;
  return death.signal === 'SIGKILL' || death.exitCode === 137;
}

function readOnlyTargets(output: string): string[] {
  const targets = new Set<string>();
  const pattern = /(?:Read-only file system|Permission denied): '([^']+)'/g;
  for (const match of output.matchAll(pattern)) {
    if (match[1]) targets.add(match[1]);
  }
  return [...targets].slice(0, 5);
}

/** What the sandbox stopped, in words the model can act on. */
export function blockedReasons(input: BlockedInput): string[] {
  const reasons: string[] = [];
  if (input.timedOut) {
    reasons.push(
      `timeout: the script was stopped after ${Math.round(input.timeoutMs / 1000)} s of wall-clock time (with every process it started); make it faster, train on less data or for fewer steps, or print progress`,
    );
  }
  if (detectMemoryExceeded(input.output, input)) {
    reasons.push(
      `memory: the script hit the memory limit of ${input.memoryMb} MiB; use smaller batches, smaller models or less data at once`,
    );
  }
  if (!input.network && networkPatterns.some((pattern) => pattern.test(input.output))) {
    reasons.push(
      'network is disabled for this task: downloads and connections fail; use the files in the workspace (datasets must already be there)',
    );
  }
  if (/Read-only file system/.test(input.output) || /Permission denied: '/.test(input.output)) {
    const targets = readOnlyTargets(input.output);
    reasons.push(
      `read-only path: ${targets.length > 0 ? `${targets.join(', ')} cannot be written` : 'a write was refused'}; task inputs and everything outside the workspace are read-only — write new files in the workspace instead`,
    );
  }
  if (input.processLimitReached || processPatterns.some((pattern) => pattern.test(input.output))) {
    reasons.push(
      `process limit: the script may have at most ${input.maxProcesses} processes and threads at once; use fewer workers (e.g. DataLoader num_workers=0)`,
    );
  }
  if (input.fileCapped) {
    reasons.push(
      `output limit: the script printed more than ${Math.round(input.fileCapBytes / (1024 * 1024))} MB and was stopped; print less (e.g. every N steps)`,
    );
  } else if (input.truncated) {
    reasons.push(
      `output cut: ${input.outputBytes} bytes printed, only the first and last ${input.outputCapBytes} bytes are shown; the full output is in ${input.outputPath}`,
    );
  }
  return reasons;
}
