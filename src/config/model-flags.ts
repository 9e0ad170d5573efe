import { InvalidArgumentError, type Command } from 'commander';

/** The flags every model-using command shares, as commander hands them over. */
export interface ModelFlags {
  model?: string;
  /** Comma-separated cascade. */
  planner?: string;
  expert?: string;
  worker?: string;
  summarizer?: string;
  judge?: string;
  config?: string;
  record?: string;
  timeoutMs?: number;
}

function parseTimeout(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError(
      `expected a positive whole number of milliseconds, e.g. --timeout-ms 60000`,
    );
  }
  return number;
}

/** Adds --model, --planner, --expert, --worker, --summarizer, --judge, --config, --record, --timeout-ms. */
export function addModelOptions(command: Command): Command {
  return command
    .option('--model <spec>', 'model for every role not set otherwise, e.g. openai:gpt-4o-mini')
    .option('--planner <specs>', 'planner cascade, comma-separated, first level first')
    .option('--expert <spec>', 'model for the planning expert')
    .option('--worker <spec>', 'model for file understanding, edits and checks')
    .option('--summarizer <spec>', 'model for memory and long outputs')
    .option('--judge <spec>', 'model for evaluation')
    .option('--config <file>', 'config file (default: ./codify.config.json when present)')
    .option(
      '--record <file>',
      'write every model call to this JSONL file (replay it with replay:FILE)',
    )
    .option('--timeout-ms <n>', 'per-attempt timeout for network model calls', parseTimeout);
}

/** Picks the model flags out of a command's parsed options. */
export function modelFlagsFrom(options: Record<string, unknown>): ModelFlags {
  const flags: ModelFlags = {};
  for (const key of [
    'model',
    'planner',
    'expert',
    'worker',
    'summarizer',
    'judge',
    'config',
    'record',
  ] as const) {
    const value = options[key];
    if (typeof value === 'string') flags[key] = value;
  }
  if (typeof options.timeoutMs === 'number') flags.timeoutMs = options.timeoutMs;
  return flags;
}
