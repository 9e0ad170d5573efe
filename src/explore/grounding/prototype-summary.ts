import { loadPrompt } from '../../prompts/load-prompt.js';
import { parseMetric } from '../../tasks/parse-metric.js';
import type { MeasuredBaseline } from '../experiments/experiment-context.js';
import { probePackages, type PackageProbe } from './probe-packages.js';
import { scanPrototype, type PrototypeScan } from './scan-prototype.js';

/**
 * What every idea stage is told about the prototype (`--code`), built once after the baseline
 * ran and stored as a stage, so every prompt that includes it is byte-identical, resumed or not.
 */
export interface PrototypeSummary {
  /** prompts/explore-prototype.md filled in: the block the prompts include. */
  text: string;
  entrypoint: string;
  /** The metric lines the baseline printed, as printed. */
  printedLines: string[];
  baselineRan: boolean;
  durationMs?: number;
  python: string;
  packages: PackageProbe['packages'];
  scan: PrototypeScan;
}

const kilobytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * The run time in seconds, always in this unit: a replay compares prompts with their numbers
 * masked, so a recorded exploration replays although the baseline's time varies.
 */
export function runTime(durationMs: number | undefined): string {
  return durationMs === undefined ? 'an unrecorded time' : `${(durationMs / 1000).toFixed(1)} s`;
}

const metricLinePattern =
  /^\s*[A-Za-z][\w ./()-]{0,60}?\s*[:=]\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** The lines of the output that print a metric: the task's own, else any `<name>: <number>`. */
export function printedMetricLines(baseline: MeasuredBaseline): string[] {
  const lines = baseline.output.split('\n');
  const metric = baseline.task.metric;
  if (metric !== undefined) {
    const pattern = new RegExp(metric.pattern);
    const line = lines.findLast((entry) => pattern.test(entry));
    return line === undefined ? [] : [line.trim()];
  }
  return lines
    .filter((line) => metricLinePattern.test(line))
    .map((line) => line.trim())
    .slice(-3);
}

function describeMetric(baseline: MeasuredBaseline, printed: readonly string[]): string {
  const shown = printed.map((line) => `\`${line}\``).join(', ');
  const metric = baseline.task.metric;
  if (metric !== undefined) {
    const direction = metric.goal === 'max' ? 'higher is better' : 'lower is better';
    return `${metric.name} (${direction}), as task.json reads it from the output; ${printed.length === 0 ? 'the baseline printed no line of it' : `the baseline printed ${shown}`}`;
  }
  if (printed.length === 0) {
    return 'the baseline printed no `<name>: <value>` line, so no metric of a plan can be compared with it';
  }
  return `printed as \`<name>: <value>\` lines; the baseline printed ${shown} (an experiment is judged on a metric of its plan printed the same way)`;
}

/** Files shown in the prompt; a big folder is named by its first ones and a count. */
const shownFiles = 30;

function describeFiles(scan: PrototypeScan): string {
  const shown = scan.files
    .slice(0, shownFiles)
    .map((file) => `${file.path} (${kilobytes(file.bytes)})`);
  const more = scan.files.length - shown.length;
  return more <= 0
    ? shown.join(', ')
    : `${shown.join(', ')} and ${more} more${scan.truncated ? ' (the listing stops at 200)' : ''}`;
}

function describeData(scan: PrototypeScan): string {
  const loads =
    scan.loads.length === 0
      ? 'no loading call found in the source'
      : `the code loads ${scan.loads.map((call) => `\`${call}\``).join(', ')}`;
  const files =
    scan.dataFiles.length === 0
      ? 'no data files in the folder'
      : `data files: ${scan.dataFiles
          .slice(0, shownFiles)
          .map((file) => `${file.path} (${kilobytes(file.bytes)})`)
          .join(
            ', ',
          )}${scan.dataFiles.length > shownFiles ? ` and ${scan.dataFiles.length - shownFiles} more` : ''}`;
  return `${loads}; ${files}`;
}

function describePackages(probe: PackageProbe): string {
  const packages = probe.packages.map((entry) =>
    entry.missing === true
      ? `${entry.name} (missing)`
      : entry.version === undefined
        ? entry.name
        : `${entry.name} ${entry.version}`,
  );
  return `Python ${probe.python}${packages.length === 0 ? ', standard library only' : ` with ${packages.join(', ')}`}`;
}

function describeBaseline(baseline: MeasuredBaseline, printed: readonly string[]): string {
  const time = runTime(baseline.durationMs);
  if (!baseline.ran) {
    const tail = baseline.output.trim().split('\n').slice(-3).join(' / ');
    return `did not run (exit ${String(baseline.exitCode)}, after ${time}); the last lines of its output: ${tail === '' ? '(none)' : tail}`;
  }
  const metric = baseline.task.metric;
  const reading = metric === undefined ? undefined : parseMetric(baseline.output, metric);
  const value =
    reading !== undefined
      ? `${reading.name} ${reading.raw.trim()}`
      : printed.length === 0
        ? 'no metric printed'
        : printed.join(', ');
  return `ran unchanged in ${time} (in the sandbox, start-up included): ${value}`;
}

/** Scans the folder, asks the interpreter for its packages, and fills the summary in. */
export async function summarizePrototype(
  baseline: MeasuredBaseline,
  codeDir: string,
  compute: string,
): Promise<PrototypeSummary> {
  const scan = scanPrototype(codeDir);
  const probe = await probePackages(baseline.interpreter, [
    ...new Set([...scan.imports, ...baseline.task.pythonRequires]),
  ]);
  const printed = printedMetricLines(baseline);
  const { task } = baseline;
  const seed =
    task.seed === undefined
      ? 'no seed declared in task.json'
      : 'flag' in task.seed
        ? `\`${task.seed.flag} N\` added sets its seed`
        : `the variable \`${task.seed.env}\` sets its seed`;
  const entrypoint = `\`python ${[task.entrypoint, ...task.args].join(' ')}\`${task.args.length === 0 ? ', run without arguments' : ''}; ${seed}; at most ${task.timeoutS} s a run`;
  const text = loadPrompt('explore-prototype', {
    files: describeFiles(scan),
    entrypoint,
    metric: describeMetric(baseline, printed),
    data: describeData(scan),
    compute: `${compute}; ${describePackages(probe)}`,
    baseline: describeBaseline(baseline, printed),
  }).trimEnd();
  return {
    text,
    entrypoint: task.entrypoint,
    printedLines: printed,
    baselineRan: baseline.ran,
    ...(baseline.durationMs === undefined ? {} : { durationMs: baseline.durationMs }),
    python: probe.python,
    packages: probe.packages,
    scan,
  };
}
