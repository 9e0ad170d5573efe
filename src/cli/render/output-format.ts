import { InvalidArgumentError, Option } from 'commander';

export const outputFormats = ['text', 'stream-json'] as const;
export type OutputFormat = (typeof outputFormats)[number];

/** The `--output-format <format>` option, shared by every command that streams events. */
export function outputFormatOption(): Option {
  return new Option('--output-format <format>', 'text, or stream-json: one event per line')
    .choices(outputFormats)
    .argParser((value: string): OutputFormat => {
      const found = outputFormats.find((format) => format === value);
      if (found === undefined) {
        throw new InvalidArgumentError(`use one of: ${outputFormats.join(', ')}`);
      }
      return found;
    });
}

/** Whether a command's flags ask for the JSON event stream (`--json` or `--output-format stream-json`). */
export function wantsJsonStream(options: { json?: boolean; outputFormat?: OutputFormat }): boolean {
  return options.json === true || options.outputFormat === 'stream-json';
}
