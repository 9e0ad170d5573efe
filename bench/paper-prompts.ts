/**
 * What the paper pipeline sends to the model, from the recorded paper sessions
 * (examples/recordings/paper-*.jsonl): per call, the characters of the system prompt and
 * the messages, how many of them repeat the start of an earlier call (the prefix that
 * providers caching prefixes on their own, OpenAI and Google, can serve) and how many lie
 * behind an earlier call's cache mark (what Anthropic serves with codify's marks). Then, per example paper, the paper as planning sees it against the
 * condensed paper the later stages see, recomputed with the current code.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPaper, renderDocument } from '../src/reader/index.js';
import { condensePaper, designTerms } from '../src/repo/condensed-paper.js';
import { billedChars, callSizes, readRecording, type RecordedCall } from './lib/prompt-sizes.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const papers = ['mixup-tabular', 'random-fourier-features', 'seq-transformer'];

/** A short name for a call from what it asks (the recording keeps no labels). */
function callLabel(call: RecordedCall): string {
  const last = call.messages.at(-1)?.content ?? '';
  const file = /file `([^`]+)`/.exec(last)?.[1];
  if (/^Write the file `/.test(last)) return `write ${file ?? '?'}`;
  if (/^Two parts, in this order/.test(last)) return 'plan-overall';
  if (/^Now design the repository/.test(last)) return 'plan-design';
  if (/^Now the configuration/.test(last)) return 'plan-config';
  if (/A grader checked the repository/.test(last)) return `self-check fix ${file ?? '?'}`;
  if (/^You grade one requirement/.test(last)) return 'self-check grade';
  if (/^# The requirements\n/.test(last)) return 'self-check grades';
  if (/^Write the README/m.test(last)) return 'readme';
  return last.split('\n')[0]?.slice(0, 40) ?? '';
}

const block = (text: string, name: string) =>
  new RegExp(`<${name}>\\n([\\s\\S]*?)\\n</${name}>`).exec(text)?.[1];

/** The full paper, the design and the config quotes of a recording, condensed as the pipeline does. */
function condensation(calls: RecordedCall[]): { full: number; condensed: number; names: string[] } {
  const paper = block(calls[0]?.system ?? '', 'paper') ?? '';
  const design = calls.map((call) => block(call.system ?? '', 'design')).find(Boolean) ?? '';
  const configCall = calls.find((call) => callLabel(call) === 'plan-config');
  const json = /```json\n([\s\S]*?)```/.exec(configCall?.text ?? '')?.[1] ?? '{"entries":[]}';
  const entries = (JSON.parse(json) as { entries: { key: string; evidence?: string }[] }).entries;
  const result = condensePaper(paper, {
    // Implementation choices carry a reason, not a quote.
    quotes: entries.flatMap((entry) => (entry.evidence === undefined ? [] : [entry.evidence])),
    design,
    terms: designTerms(
      design,
      entries.map((entry) => entry.key),
    ),
  });
  return { full: paper.length, condensed: result.text.length, names: result.condensed };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** The stage a call belongs to, from its label: planning (with the checklist), write (analysis and code per file), self-check, README. */
function stageOf(label: string): string {
  if (label.startsWith('plan-')) return 'planning';
  if (label.startsWith('write ')) return 'write';
  if (label.startsWith('self-check')) return 'self-check';
  if (label === 'readme') return 'README';
  return 'other';
}

/** Calls and KB sent per stage, of it the system prompt's: where a session's characters go. */
function stageTotals(
  sizes: readonly { label: string; systemChars: number; messageChars: number }[],
) {
  const stages = new Map<string, { calls: number; sent: number; system: number }>();
  for (const size of sizes) {
    const stage = stageOf(size.label);
    const totals = stages.get(stage) ?? { calls: 0, sent: 0, system: 0 };
    totals.calls += 1;
    totals.sent += size.systemChars + size.messageChars;
    totals.system += size.systemChars;
    stages.set(stage, totals);
  }
  const kb = (chars: number) => (chars / 1000).toFixed(0);
  return [...stages]
    .map(
      ([stage, totals]) =>
        `${stage} ${totals.calls} call${totals.calls === 1 ? '' : 's'} ${kb(totals.sent)} KB (${kb(totals.system)} system)`,
    )
    .join('; ');
}

export function printRecording(name: string, calls: RecordedCall[]): void {
  const sizes = callSizes(calls, callLabel);
  console.log(`${name}: ${sizes.length} calls`);
  console.log(
    `  call  label                    system  messages    total  earlier-prefix  marked-cache`,
  );
  let total = 0;
  let shared = 0;
  let marked = 0;
  const percent = (part: number, whole: number) =>
    `${pad(Math.round((100 * part) / Math.max(1, whole)), 2)}%`;
  for (const size of sizes) {
    const sum = size.systemChars + size.messageChars;
    total += sum;
    shared += size.sharedPrefixChars;
    marked += size.markedCacheChars;
    console.log(
      `  ${pad(size.call, 4)}  ${size.label.padEnd(22)} ${pad(size.systemChars, 7)} ${pad(size.messageChars, 9)} ${pad(sum, 8)} ${pad(size.sharedPrefixChars, 8)} (${percent(size.sharedPrefixChars, sum)}) ${pad(size.markedCacheChars, 7)} (${percent(size.markedCacheChars, sum)})`,
    );
  }
  const share = (part: number) => `${((100 * part) / Math.max(1, total)).toFixed(1)}%`;
  console.log(
    `  total ${total} characters sent; ${shared} (${share(shared)}) repeat an earlier call's prefix (${total - shared} new); ${marked} (${share(marked)}) behind an earlier call's cache mark (${total - marked} uncached)`,
  );
  console.log(
    `  billed as ${Math.round(billedChars(sizes))} characters at Anthropic's rates (cache reads 0.1, cache writes 1.25, the rest 1)`,
  );
  console.log(`  by stage: ${stageTotals(sizes)}`);
  const paper = condensation(calls);
  console.log(
    `  paper: ${paper.full} characters in planning, ${paper.condensed} condensed for a file whose design names no section (${paper.names.join(', ') || 'nothing condensed'})`,
  );
}

/**
 * Any paper (CODIFY_BENCH_PAPERS, paths separated by `:`): its text against the condensed
 * text by headings alone, with no design or config quotes yet (those keep more whole).
 */
async function printPaper(path: string): Promise<void> {
  const text = renderDocument(await readPaper(path));
  const result = condensePaper(text, { quotes: [], terms: [] });
  console.log(
    `${path}: ${text.length} characters, ${result.text.length} condensed by headings alone (${result.condensed.join(', ') || 'nothing condensed'})`,
  );
}

export async function runBench(): Promise<void> {
  for (const paper of papers) {
    const path = join(root, 'examples/recordings', `paper-${paper}.jsonl`);
    printRecording(`paper-${paper}`, readRecording(path));
  }
  for (const path of (process.env.CODIFY_BENCH_PAPERS ?? '').split(':').filter(Boolean))
    await printPaper(path);
}
