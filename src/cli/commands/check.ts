import type { Command } from 'commander';
import { addJsonOption, addSandboxOptions, amountSchema, parseNumberFlag } from '../options.js';
import { readConfigFile } from '../../config/read-config-file.js';
import { noSandboxWarning } from '../../sandbox/index.js';
import { describeTaskSeed } from '../../tasks/seeds/task-seed.js';
import { checkTask, type TaskCheckReport } from '../../tasks/check-task.js';

export interface CheckCommandOptions {
  args?: string[];
  python?: string;
  sandbox: 'bubblewrap' | 'none';
  timeout?: number;
  gpu?: boolean;
  json?: boolean;
}

/** Where the command writes; the terminal by default, a buffer in tests. */
export interface CommandOutput {
  write(text: string): void;
  writeError(text: string): void;
}

const terminal: CommandOutput = {
  write: (text) => process.stdout.write(text),
  writeError: (text) => process.stderr.write(text),
};

/** Lines of output shown when the starter fails or prints no metric. */
const tailLines = 40;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function tail(output: string): string[] {
  const lines = output.replace(/\n$/, '').split('\n');
  return lines.slice(-tailLines);
}

function fileLines(report: TaskCheckReport): string[] {
  const inspection = report.inspection;
  if (!inspection) return [];
  const lines = [
    `Files (${inspection.format === 'mlagentbench' ? 'MLAgentBench folder' : 'codify task folder'}):`,
  ];
  const width = Math.max(...inspection.known.map((file) => file.path.length));
  for (const file of inspection.known) {
    const mark = file.state === 'present' ? 'ok  ' : file.required ? 'MISS' : '--  ';
    const state =
      file.state === 'present'
        ? size(file.bytes ?? 0)
        : `${file.state}${file.required ? ' (required)' : ' (optional)'}`;
    lines.push(`  ${mark} ${file.path.padEnd(width)}  ${state.padEnd(22)} ${file.meaning}`);
  }
  const shown = inspection.other.slice(0, 20);
  if (shown.length > 0) {
    lines.push(`  other inputs (${inspection.other.length}, read-only for the agent):`);
    for (const file of shown) lines.push(`       ${file.path} (${size(file.bytes)})`);
    if (inspection.other.length > shown.length) {
      lines.push(`       … and ${inspection.other.length - shown.length} more`);
    }
  }
  return lines;
}

function settingLines(report: TaskCheckReport): string[] {
  const task = report.task;
  if (!task) return [];
  const metric = task.metric
    ? `${task.metric.name} (${task.metric.goal === 'max' ? 'higher' : 'lower'} is better), pattern ${task.metric.pattern}`
    : 'none declared';
  return [
    `Settings (${report.settingsFrom === 'task.json' ? 'task.json' : 'defaults, no task.json'}):`,
    `  name        ${task.name}`,
    `  entrypoint  ${task.entrypoint}${task.inputDir ? ' (in env/)' : ''}`,
    `  output      ${task.output}`,
    `  args        ${task.args.length ? task.args.join(' ') : '(none)'}`,
    `  timeout     ${task.timeoutS} s`,
    `  metric      ${metric}`,
    `  python      ${task.pythonRequires.length ? `requires ${task.pythonRequires.join(', ')}` : 'no required modules'}`,
    `  network     ${task.network ? 'allowed' : 'off'}`,
    `  seed        ${task.seed === undefined ? 'none declared (an evaluation cannot vary it)' : describeTaskSeed(task.seed)}`,
  ];
}

function runLines(report: TaskCheckReport): string[] {
  const run = report.run;
  if (!run) return [];
  const status = run.timedOut
    ? 'timed out'
    : run.exitCode === null
      ? `killed (${run.signal ?? 'no exit code'})`
      : `exit code ${run.exitCode}`;
  const lines = [
    `Starter run: ${run.command}`,
    `  interpreter ${run.interpreter} (Python ${run.interpreterVersion}), sandbox ${run.sandbox}`,
    `  ${status} after ${(run.durationMs / 1000).toFixed(1)} s, ${size(run.outputBytes)} of output`,
  ];
  if (report.metric) {
    const reading = report.metric.reading;
    lines.push(
      reading
        ? `  metric ${reading.name} = ${reading.raw} (last match of ${report.metric.declared.pattern})`
        : `  metric ${report.metric.declared.name}: not found (pattern ${report.metric.declared.pattern})`,
    );
  }
  for (const reason of run.blocked) lines.push(`  blocked: ${reason}`);
  for (const note of run.notes) lines.push(`  note: ${note}`);
  if (report.exitCode !== 0) {
    lines.push(`Last ${tailLines} lines of output:`);
    for (const line of tail(run.output)) lines.push(`  | ${line}`);
  }
  return lines;
}

/** The report as a person reads it. */
export function formatCheckReport(report: TaskCheckReport): string {
  const lines = [
    `Task folder: ${report.dir}`,
    ...fileLines(report),
    ...settingLines(report),
    ...runLines(report),
  ];
  lines.push(
    report.problem === undefined
      ? 'Result: usable — the starter runs' + (report.metric ? ' and prints its metric.' : '.')
      : `Result: NOT usable — ${report.problem}`,
  );
  return `${lines.join('\n')}\n`;
}

/** Runs `codify check` and returns its exit code. */
export async function runCheckCommand(
  taskPath: string,
  options: CheckCommandOptions,
  output: CommandOutput = terminal,
): Promise<number> {
  if (options.sandbox === 'none' && !options.json) output.writeError(`${noSandboxWarning}\n`);
  let gpu = options.gpu;
  try {
    gpu ??= readConfigFile(process.cwd(), undefined)?.config.gpu ?? false;
  } catch (error) {
    output.writeError(`codify check: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const report = await checkTask({
    taskPath,
    args: options.args,
    python: options.python,
    sandbox: options.sandbox,
    timeoutS: options.timeout,
    gpu,
    onProgress: options.json ? undefined : (message) => output.writeError(`${message}\n`),
  });
  if (options.json) {
    const { task, ...rest } = report;
    const summary = task ? { ...rest, task: { ...task, files: undefined } } : rest;
    output.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    output.write(formatCheckReport(report));
  }
  return report.exitCode;
}

/** `codify check TASK`: validate a task folder and run its starter code once. */
export function registerCheckCommand(program: Command, output: CommandOutput = terminal): void {
  const command = program
    .command('check')
    .description(
      'validate a task folder and run its starter code once in the sandbox, before spending anything on models',
    )
    .argument('<task>', 'the task folder')
    .argument(
      '[script-args...]',
      'after --: arguments for the starter code (replace task.json "args")',
    )
    .option('--args <arg...>', 'arguments for the starter code (replace task.json "args")')
    .option(
      '--timeout <seconds>',
      'wall-clock limit for the starter (replaces task.json "timeout_s")',
      parseNumberFlag('--timeout', amountSchema),
    );
  addSandboxOptions(command, {
    python: 'the Python interpreter to use (default: the first that imports python.requires)',
    sandbox: 'where the starter runs',
  });
  addJsonOption(command, 'the report as JSON');
  command.action(async (task: string, scriptArgs: string[], options: CheckCommandOptions) => {
    const args =
      options.args || scriptArgs.length > 0 ? [...(options.args ?? []), ...scriptArgs] : undefined;
    process.exitCode = await runCheckCommand(task, { ...options, args }, output);
  });
}
