import { blockedReasons, detectMemoryExceeded } from './blocked-reasons.js';
import type { ProcessOutcome } from './run-process.js';
import { readCover } from './trace-cover.js';
import type { ExecutionRequest, ExecutionResult, Sandbox } from './types.js';

/** Turns a finished process into what callers and the model see. */
export async function executionResult(
  request: ExecutionRequest,
  outcome: ProcessOutcome,
  details: {
    coverPath?: string;
    fileCapBytes: number;
    notes: string[];
    processLimitReached?: boolean;
  },
): Promise<ExecutionResult> {
  const notes = [...details.notes];
  const killedBySandbox = outcome.timedOut || outcome.fileCapped || outcome.aborted;
  const memoryExceeded =
    !outcome.timedOut &&
    detectMemoryExceeded(outcome.output, {
      signal: outcome.signal,
      exitCode: outcome.exitCode,
      killedBySandbox,
    });
  const blocked = blockedReasons({
    output: outcome.output,
    network: request.network,
    timedOut: outcome.timedOut,
    timeoutMs: request.limits.timeoutMs,
    memoryMb: request.limits.memoryMb,
    maxProcesses: request.limits.maxProcesses,
    processLimitReached: details.processLimitReached ?? false,
    signal: outcome.signal,
    exitCode: outcome.exitCode,
    killedBySandbox,
    truncated: outcome.truncated,
    outputBytes: outcome.outputBytes,
    outputCapBytes: request.limits.outputCapBytes,
    fileCapped: outcome.fileCapped,
    fileCapBytes: details.fileCapBytes,
    outputPath: request.outputPath,
  });
  if (outcome.aborted) notes.push('the run was cancelled');
  const result: ExecutionResult = {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    memoryExceeded,
    durationMs: outcome.durationMs,
    output: outcome.output,
    outputBytes: outcome.outputBytes,
    truncated: outcome.truncated,
    outputPath: request.outputPath,
    blocked,
  };
  if (details.coverPath) {
    const trace = await readCover(details.coverPath);
    if (trace) result.trace = trace;
    else notes.push('no execution trace: the script ended before the tracer could write it');
  }
  if (notes.length > 0) result.notes = notes;
  return result;
}

/** A result for a run that could not start (bad interpreter, missing workspace). */
export function failedStart(request: ExecutionRequest, message: string): ExecutionResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    memoryExceeded: false,
    durationMs: 0,
    output: message,
    outputBytes: Buffer.byteLength(message),
    truncated: false,
    outputPath: request.outputPath,
    blocked: [],
    notes: [message],
  };
}

/** A sandbox whose runner never throws: any failure becomes a result saying what failed. */
export function neverThrowing(
  kind: Sandbox['kind'],
  what: string,
  runner: (request: ExecutionRequest) => Promise<ExecutionResult>,
): Sandbox {
  return {
    kind,
    run: async (request) => {
      try {
        return await runner(request);
      } catch (error) {
        return failedStart(
          request,
          `${what} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}
