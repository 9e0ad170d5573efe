export interface SandboxLimits {
  /** Wall clock; the whole process tree is killed when it runs out. */
  timeoutMs: number;
  /** Address-space limit for the Python process, in MiB. */
  memoryMb: number;
  /** Most processes/threads the script may have at once. */
  maxProcesses: number;
  /** Bytes of output kept in memory for the model (head and tail); the rest goes to the file. */
  outputCapBytes: number;
}

export const defaultLimits: SandboxLimits = {
  timeoutMs: 10 * 60_000,
  memoryMb: 8192,
  maxProcesses: 256,
  outputCapBytes: 20_000,
};

export interface ExecutionRequest {
  /** Absolute path of the folder the script runs in; read-write inside the sandbox. */
  workspace: string;
  /** Absolute paths under the workspace that stay read-only inside the sandbox (task inputs). */
  readOnlyPaths: string[];
  /** Absolute path of the Python interpreter. */
  interpreter: string;
  /** The script, relative to the workspace. */
  script: string;
  args: string[];
  limits: SandboxLimits;
  network: boolean;
  gpu: boolean;
  /** Count how many times each line of the script ran. */
  trace: boolean;
  /** Where the full output is written (outside the workspace, in the run folder). */
  outputPath: string;
  /**
   * Variables added to the scrubbed environment the script sees (a task's declared seed
   * variable, say); they cannot replace the sandbox's own (PATH, HOME, …).
   */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ExecutionTrace {
  /** `<script>_execution_trace.cover`, beside the script. */
  coverPath: string;
  /** 1-based line number → times it ran, for executable lines. */
  counts: Record<number, number>;
  /** Executable lines that never ran. */
  neverRan: number[];
}

export interface ExecutionResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The process died of the memory limit (MemoryError or killed while at the limit). */
  memoryExceeded: boolean;
  durationMs: number;
  /** Head and tail of the combined stdout/stderr, at most limits.outputCapBytes. */
  output: string;
  outputBytes: number;
  truncated: boolean;
  outputPath: string;
  /** What the sandbox stopped, in words a person or model can act on. */
  blocked: string[];
  trace?: ExecutionTrace;
  /** Other things worth knowing about how it ran (e.g. `gpu: true` but no GPU device exists). */
  notes?: string[];
}

export interface Sandbox {
  readonly kind: 'bubblewrap' | 'none';
  run(request: ExecutionRequest): Promise<ExecutionResult>;
}
