import { join } from 'node:path';
import { pythonHelpersFolder } from './python-helpers.js';
import { coverPathFor } from './trace-cover.js';

export interface ScriptCommand {
  /** What follows the interpreter: `script args…`, or the tracer with its cover path first. */
  arguments: string[];
  coverPath?: string;
}

/** The interpreter's arguments for running `script` (relative to the workspace), traced or not. */
export function scriptCommand(
  workspace: string,
  script: string,
  args: readonly string[],
  trace: boolean,
): ScriptCommand {
  if (!trace) return { arguments: [script, ...args] };
  const coverPath = coverPathFor(join(workspace, script));
  const runner = join(pythonHelpersFolder(), 'trace_runner.py');
  return { arguments: [runner, coverPath, script, ...args], coverPath };
}
