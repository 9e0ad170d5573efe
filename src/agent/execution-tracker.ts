import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import type { RunContext } from '../runs/context.js';
import type { ExecutionSeen } from './checkpoint.js';

export const hashText = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A RunContext that notices every execution of the output script announced on the event
 * stream (by Execute Script or anyone else), remembering which content ran and how it ended.
 */
export function trackExecutions(
  run: RunContext,
  workspaceRoot: string,
  output: string,
  seen: { last: ExecutionSeen | null },
): RunContext {
  const target = normalize(output);
  return {
    id: run.id,
    dir: run.dir,
    emit(body) {
      if (body.type === 'execution-end' && normalize(body.script) === target) {
        let contentHash = '';
        try {
          contentHash = hashText(readFileSync(join(workspaceRoot, target), 'utf8'));
        } catch {
          contentHash = '';
        }
        seen.last = {
          script: target,
          contentHash,
          exitCode: body.exitCode,
          timedOut: body.timedOut,
          outputPath: body.outputPath,
          metric: body.metric,
          durationMs: body.durationMs,
        };
      }
      return run.emit(body);
    },
  };
}
