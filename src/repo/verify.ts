import { join } from 'node:path';
import { throwIfStopped } from '../errors/run-stopped.js';
import type { ExecutionResult, Sandbox, SandboxLimits } from '../sandbox/types.js';

export interface SmokeRun {
  attempt: number;
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  outputTail: string;
  outputPath: string;
  blocked: string[];
}

export interface VerifyOutcome {
  ok: boolean;
  /** Plain words: ran on the first try, ran after repair, or still fails. */
  summary: string;
  runs: SmokeRun[];
  repairSteps: number;
}

/** Repairs the repository after a failed smoke run; returns how many agent steps it used. */
export type Repairer = (failure: SmokeRun, stepsLeft: number) => Promise<{ steps: number }>;

export interface VerifyOptions {
  sandbox: Sandbox;
  repoDir: string;
  entryPoint: string;
  interpreter: string;
  limits: SandboxLimits;
  outputsDir: string;
  gpu?: boolean;
  /** Whether the smoke run may reach the network (`--network`); default false. */
  network?: boolean;
  /** Agent steps the repair may spend in total; 0 disables repair. */
  repairBudgetSteps: number;
  repair?: Repairer;
  onRun?: (run: SmokeRun) => void;
  /** Stops the smoke run in flight and the repair (Ctrl-C, SIGTERM). */
  signal?: AbortSignal;
}

const tail = (text: string, characters = 3000) =>
  text.length > characters ? `…${text.slice(-characters)}` : text;

/** Runs `python <entry> --config config_smoke.yaml` in the sandbox, repairing until it runs or the budget ends. */
export async function verifyRepository(options: VerifyOptions): Promise<VerifyOutcome> {
  const runs: SmokeRun[] = [];
  let repairSteps = 0;
  for (let attempt = 1; ; attempt += 1) {
    const result: ExecutionResult = await options.sandbox.run({
      workspace: options.repoDir,
      // The repository's git folder stays read-only, so the script cannot plant hooks or
      // config that the host's git would run at the next stage commit.
      readOnlyPaths: [join(options.repoDir, '.git')],
      interpreter: options.interpreter,
      script: options.entryPoint,
      args: ['--config', 'config_smoke.yaml'],
      limits: options.limits,
      network: options.network ?? false,
      gpu: options.gpu ?? false,
      trace: false,
      outputPath: join(options.outputsDir, `smoke-${attempt}.txt`),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    throwIfStopped(options.signal);
    const run: SmokeRun = {
      attempt,
      ok: result.exitCode === 0 && !result.timedOut,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      outputTail: tail(result.output),
      outputPath: result.outputPath,
      blocked: result.blocked,
    };
    runs.push(run);
    options.onRun?.(run);
    if (run.ok) {
      const summary =
        attempt === 1
          ? 'the smoke run succeeded on the first try'
          : `the smoke run succeeded after repair (${repairSteps} agent steps, ${attempt - 1} failed runs before)`;
      return { ok: true, summary, runs, repairSteps };
    }
    const stepsLeft = options.repairBudgetSteps - repairSteps;
    if (options.repair === undefined || stepsLeft <= 0) {
      const why = run.timedOut ? 'timed out' : `exited with ${String(run.exitCode)}`;
      const budget =
        options.repair === undefined || options.repairBudgetSteps === 0
          ? 'repair was off'
          : `the repair budget of ${options.repairBudgetSteps} steps is spent`;
      return {
        ok: false,
        summary: `the smoke run still fails (${why}) and ${budget}`,
        runs,
        repairSteps,
      };
    }
    const used = await options.repair(run, stepsLeft);
    throwIfStopped(options.signal);
    repairSteps += Math.max(1, used.steps);
  }
}
