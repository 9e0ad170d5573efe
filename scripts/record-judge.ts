// Records the judge of an evaluation suite in one command: runs the suite with its judge
// model replaced by the one given (an `exchange:DIR` answered by a person or a session, or a
// hosted model), then writes the judge's calls from the evaluation's events.jsonl as a
// recording that `judge: {model: replay:FILE}` replays. The runs themselves keep the
// suite's models (their recordings are replayed as usual).
//
//   node --import tsx scripts/record-judge.ts SUITE --judge SPEC --out EVAL_DIR --recording FILE
//
// examples/recordings/README.md shows it for examples/eval/ci-suite.yaml.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/load-config.js';
import { runEvaluation } from '../src/eval/run-evaluation.js';
import { loadSuite } from '../src/eval/suite/load-suite.js';
import { recordedCallsFromEvents } from '../src/llm/calls-from-events.js';
import { readEvents } from '../src/runs/read-events.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    judge: { type: 'string' },
    out: { type: 'string' },
    recording: { type: 'string' },
  },
});
const [suitePath] = positionals;
if (
  suitePath === undefined ||
  values.judge === undefined ||
  values.out === undefined ||
  values.recording === undefined
) {
  process.stderr.write(
    'usage: node --import tsx scripts/record-judge.ts SUITE --judge SPEC --out EVAL_DIR --recording FILE\n',
  );
  process.exit(2);
}
const recording = resolve(values.recording);
// A recording is written once; an evaluation folder continued would mix two judges.
if (existsSync(values.out)) {
  process.stderr.write(`${values.out} exists: give a new --out folder\n`);
  process.exit(2);
}

const suite = loadSuite(suitePath);
const outcome = await runEvaluation({
  suite: { ...suite, judge: { ...suite.judge, model: values.judge } },
  evalDir: values.out,
  baseConfig: loadConfig({}),
  host: {
    argv: process.argv.slice(2),
    sinks: [
      (event) => {
        if (event.type === 'llm-start' && event.role === 'judge')
          process.stdout.write(`judge call ${event.callId}: ${event.label ?? ''}\n`);
      },
    ],
  },
});
const { events } = readEvents(outcome.evalDir);
// A judging that failed (no valid answer after the re-asks) leaves a partial session: no recording.
const failed = events.filter(
  (event) => event.type === 'log' && event.level === 'warn' && event.message.startsWith('judging '),
);
if (failed.length > 0) {
  for (const event of failed) if (event.type === 'log') process.stderr.write(`${event.message}\n`);
  process.exit(1);
}
const calls = recordedCallsFromEvents(events).filter((call) => call.role === 'judge');
if (existsSync(recording) && statSync(recording).size > 0)
  process.stderr.write(`replacing ${recording}\n`);
writeFileSync(
  recording,
  calls.map((call, index) => `${JSON.stringify({ ...call, call: index + 1 })}\n`).join(''),
);
process.stdout.write(
  `${calls.length} judge calls written to ${recording}; report: ${outcome.reports.markdown}\n`,
);
