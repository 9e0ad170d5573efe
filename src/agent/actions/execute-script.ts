import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { z } from 'zod';
import { summarizeTrace } from '../../sandbox/trace-summary.js';
import type { ExecutionResult } from '../../sandbox/types.js';
import { parseMetric } from '../../tasks/parse-metric.js';
import type { Task } from '../../tasks/types.js';
import type { ActionResult } from './types.js';
import { changedLines } from './changed-lines.js';
import { neverRanCode } from './never-ran-code.js';
import { defineAction } from './define-action.js';
import { executionBaseline } from './execution-baseline.js';
import { argumentsField, pathField } from './input-fields.js';

function outcome(result: ExecutionResult, timeoutMs: number): string {
  if (result.timedOut)
    return `stopped: it ran past the time limit of ${Math.round(timeoutMs / 1000)} s`;
  if (result.memoryExceeded) return 'stopped: it ran out of memory (the memory limit)';
  if (result.signal !== null) return `killed by signal ${result.signal}`;
  return result.exitCode === 0
    ? 'exit code 0 (success)'
    : `exit code ${String(result.exitCode)} (failure)`;
}

function metricLine(
  task: Task,
  output: string,
): { line: string; value: number | null | undefined } {
  if (task.metric === undefined) return { line: '', value: undefined };
  const reading = parseMetric(output, task.metric);
  if (reading === undefined) {
    return {
      line: `Metric ${task.metric.name}: not found in the output (the task reads it ${task.metric.inWords === undefined ? `with the pattern ${task.metric.pattern}` : `as ${task.metric.inWords}`}).`,
      value: null,
    };
  }
  const direction = task.metric.goal === 'max' ? 'higher' : 'lower';
  return {
    // As the script printed it (0.9120, not 0.912): the model compares it with the output.
    line: `Metric ${task.metric.name}: ${reading.raw.trim()} (${direction} is better).`,
    value: reading.value,
  };
}

export const executeScript = defineAction({
  name: 'Execute Script',
  description:
    "Runs a Python script in the sandbox and shows its exit status, output, the task's metric and which lines (especially new or changed ones) never ran.",
  pool: 'coding',
  inputSchema: z.object({ script_name: pathField, arguments: argumentsField }),
  usage: { script_name: 'methodology_implementation.py', arguments: [] },
  async run({ script_name, arguments: given }, context): Promise<ActionResult> {
    const { workspace, task, run } = context;
    const resolved = await workspace.resolve(script_name);
    if (!resolved.ok) throw new Error(resolved.reason);
    const source = await workspace.read(resolved.relative);
    const args = given.length > 0 ? given : task.args;
    const outputDirectory = join(run.dir, 'outputs');
    await mkdir(outputDirectory, { recursive: true });
    const outputPath = join(
      outputDirectory,
      `${context.step}-${resolved.relative.replace(/[/\\]/g, '_')}.txt`,
    );
    const result = await context.sandbox.run({
      workspace: workspace.root,
      readOnlyPaths: task.inputFiles.map((input) => join(workspace.root, input)),
      interpreter: context.interpreter,
      script: resolved.relative,
      args,
      limits: context.limits,
      network: task.network,
      gpu: context.gpu,
      trace: true,
      outputPath,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    const metric = metricLine(task, result.output);
    let traceLine = '';
    if (result.trace !== undefined) {
      const baseline = await executionBaseline(workspace, task, resolved.relative);
      const changed = baseline === undefined ? undefined : changedLines(baseline.text, source);
      // A path the agent can open: the counts file lies in its workspace.
      const coverName = relative(workspace.root, result.trace.coverPath);
      traceLine = summarizeTrace(result.trace, {
        ...(changed === undefined ? {} : { changedLines: changed }),
        ...(coverName.startsWith('..') || isAbsolute(coverName)
          ? {}
          : { coverName: `${coverName} in the workspace` }),
      });
      if (baseline !== undefined)
        traceLine += ` (changed lines are counted against ${baseline.label})`;
      const quoted = neverRanCode(source, result.trace.neverRan, changed);
      if (quoted !== '') traceLine += `\n${quoted}`;
    }
    run.emit({
      type: 'execution-end',
      script: resolved.relative,
      args,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      outputPath: result.outputPath,
      ...(metric.value !== undefined ? { metric: metric.value } : {}),
      blocked: result.blocked,
    });
    // A traceback names files by their absolute path in the run folder: shown relative to the
    // workspace, as the agent names them (and the same wherever the run folder lies).
    const output = result.output.trimEnd().split(`${workspace.root}/`).join('');
    const command = ['python', resolved.relative, ...args].join(' ');
    const seconds = (result.durationMs / 1000).toFixed(1);
    const sections = [
      `Ran \`${command}\` in ${seconds} s: ${outcome(result, context.limits.timeoutMs)}.`,
      result.blocked.length > 0 ? `The sandbox blocked: ${result.blocked.join('; ')}.` : '',
      metric.line,
      traceLine,
      // The full output lies in the run folder, which the agent cannot open: not named here.
      `Output (${result.outputBytes} bytes${result.truncated ? ', middle left out' : ''}):\n${output === '' ? '(no output)' : output}`,
    ].filter((section) => section !== '');
    const observation = sections.join('\n');
    const ok = result.exitCode === 0 && !result.timedOut;
    return { ok, observation, display: sections.slice(0, 3).join('\n') };
  },
});
