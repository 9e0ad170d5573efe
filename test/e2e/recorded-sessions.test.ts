import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codify as runCodify } from '../llm/codify-cli.js';
import { exploreWineArgs } from '../explore/explore-wine-args.js';

/**
 * Each example's recorded session, replayed through the real CLI: real agent loop,
 * workspace, bubblewrap sandbox and Python; only the model answers come from the file.
 */
const root = resolve(import.meta.dirname, '../..');
const recordings = join(root, 'examples/recordings');
const implementExamples = [
  { task: 'yona-digits', recording: 'yona-digits', strategy: 'agent' },
  { task: 'flag-graph', recording: 'flag-graph', strategy: 'agent' },
  { task: 'attribute-batching', recording: 'attribute-batching', strategy: 'agent' },
  // The paper's single-call baseline: one answer becomes the script, then it is run.
  { task: 'yona-digits', recording: 'yona-digits-single-call', strategy: 'single-call' },
  // The prescribed-plan baseline: understand, skeleton, each sub-part, check, execute.
  { task: 'yona-digits', recording: 'yona-digits-prescribed-plan', strategy: 'prescribed-plan' },
];
// Each paper as it was given to the recorded session; seq-transformer has only its PDF.
const paperExamples = [
  { paper: 'mixup-tabular', file: 'paper.md' },
  { paper: 'random-fourier-features', file: 'paper.md' },
  { paper: 'seq-transformer', file: 'paper.pdf' },
];
const runsRoot = mkdtempSync(join(tmpdir(), 'codify-e2e-'));

afterAll(() => rmSync(runsRoot, { recursive: true, force: true }));

function codify(args: string[]): Promise<{ status: number | null; output: string }> {
  return runCodify([...args, '--root', runsRoot]);
}

function runFolder(output: string): string {
  const folders = readdirSync(runsRoot).filter((name) => output.includes(name));
  const found = folders.at(-1);
  if (found === undefined) throw new Error(`no run folder named in the output:\n${output}`);
  return join(runsRoot, found);
}

describe('recorded sessions replayed end to end', () => {
  for (const { task, recording, strategy } of implementExamples) {
    it(`codify implement examples/${task} --strategy ${strategy}`, async () => {
      const session = join(recordings, `${recording}.jsonl`);
      expect(existsSync(session), `${session} is missing`).toBe(true);
      const { status, output } = await codify([
        'implement',
        join('examples', task),
        '--strategy',
        strategy,
        '--model',
        `replay:${session}`,
      ]);
      expect(output).not.toMatch(/replay: call \d+/);
      expect(status, output).toBe(0);
      const result = JSON.parse(readFileSync(join(runFolder(output), 'result.json'), 'utf8')) as {
        outcome: string;
        ran: boolean;
        finalScript: string | null;
        metric?: { value: number | null };
      };
      expect(result.outcome).toBe('completed');
      expect(result.ran).toBe(true);
      expect(result.finalScript !== null && existsSync(result.finalScript)).toBe(true);
      expect(typeof result.metric?.value).toBe('number');
    });
  }

  for (const { paper, file } of paperExamples) {
    it(`codify paper examples/papers/${paper}`, async () => {
      const session = join(recordings, `paper-${paper}.jsonl`);
      expect(existsSync(session), `${session} is missing`).toBe(true);
      const { status, output } = await codify([
        'paper',
        join('examples/papers', paper, file),
        '--model',
        `replay:${session}`,
      ]);
      expect(output).not.toMatch(/replay: call \d+/);
      expect(status, output).toBe(0);
      const report = JSON.parse(readFileSync(join(runFolder(output), 'report.json'), 'utf8')) as {
        verify: { ok: boolean };
        files: { path: string }[];
      };
      expect(report.verify.ok).toBe(true);
      expect(report.files.map((file) => file.path)).toContain('requirements.txt');
    });
  }

  // Papers → ideas → two experiments (each an implement run) → report, in one session.
  it('codify explore examples/explore/paper.md --run top:2 --code examples/explore/prototype', async () => {
    const session = join(recordings, 'explore-wine.jsonl');
    expect(existsSync(session), `${session} is missing`).toBe(true);
    const { status, output } = await codify([
      'explore',
      ...exploreWineArgs,
      '--model',
      `replay:${session}`,
    ]);
    expect(output).not.toMatch(/replay: call \d+/);
    expect(status, output).toBe(0);
    const folder = runFolder(output.slice(output.lastIndexOf('\nrun ')));
    const experiments = JSON.parse(readFileSync(join(folder, 'experiments.json'), 'utf8')) as {
      idea: string;
      status: string;
      metric?: {
        value: number | null;
        baseline: number | null;
        seeds?: { mean: number; improvement: number; beyondMargin: boolean; runs: unknown[] };
      };
      paired?: { seeds: number[]; metrics: { name: string; baselineMean: number | null }[] };
      verdict?: { verdict: string };
    }[];
    // Ranked by the paired effect less its margin: Adam's (I2) before standardizing (I1).
    expect(experiments.map((record) => [record.idea, record.status])).toEqual([
      ['I2', 'ran'],
      ['I1', 'ran'],
    ]);
    expect(experiments[1]?.metric).toMatchObject({ value: 1, baseline: 0.6605 });
    // The plan's three seeds (the ideas were told each experiment runs at most three), each
    // paired with the baseline run on the same seed.
    expect(experiments[1]?.metric?.seeds).toMatchObject({ beyondMargin: true });
    expect(experiments[1]?.metric?.seeds?.mean).toBeCloseTo(0.993827, 6);
    expect(experiments[1]?.metric?.seeds?.runs).toHaveLength(3);
    expect(experiments[1]?.metric?.seeds?.improvement).toBeCloseTo(0.3333, 4);
    expect(experiments[0]?.metric?.seeds?.improvement).toBeCloseTo(0.3025, 4);
    expect(experiments[1]?.paired?.seeds).toEqual([0, 1, 2]);
    expect(experiments[1]?.paired?.metrics[0]).toMatchObject({
      name: 'accuracy',
      baselineMean: 0.6605,
    });
    // The judge weighed each hypothesis by its stop criteria: both ideas beat the baseline
    // beyond the paired margin on the seeds their plans named.
    expect(experiments.map((record) => record.verdict?.verdict)).toEqual([
      'supported',
      'supported',
    ]);
    // One paper and three related items offline: too few works to call an idea novel. Each
    // idea had three reviews and a meta-review, all grounded on the prototype's summary.
    const ideas = JSON.parse(readFileSync(join(folder, 'ideas.json'), 'utf8')) as {
      prototype?: string;
      ideas: {
        novelty: { against: string; verdict: string; compared: number }[];
        reviews: { reviewers: number; meta?: unknown }[];
      }[];
    };
    expect(ideas.ideas.flatMap((idea) => idea.novelty)).toEqual([
      expect.objectContaining({ against: 'offline', verdict: 'unknown', compared: 4 }),
      expect.objectContaining({ against: 'offline', verdict: 'unknown', compared: 4 }),
    ]);
    for (const idea of ideas.ideas) {
      expect(idea.reviews.at(-1)?.reviewers).toBe(3);
      expect(idea.reviews.at(-1)?.meta).toBeDefined();
    }
    expect(ideas.prototype).toContain('the baseline printed `accuracy: 0.6605`');
    const report = readFileSync(join(folder, 'report.md'), 'utf8');
    expect(report).toContain("supported: better than the baseline beyond the seeds' margin");
    expect(report).toContain('**Hypothesis verdict.** supported');
    expect(report).toContain('## Why these ideas were chosen');
  });
});
