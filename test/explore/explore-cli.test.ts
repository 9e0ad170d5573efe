import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exploration } from '../../src/explore/exploration.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';

/** Runs a child without blocking the test worker (a blocked worker misses vitest's RPC). */
function runChild(
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      'test/explore/cli-child.ts',
      'explore',
      ...args,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

describe('codify explore (command)', () => {
  it('replays a recorded exploration through the command and writes ideas.json and ideas.md', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-cli-'));
    const notes = join(root, 'notes.txt');
    writeFileSync(notes, 'Prefer ideas that need no extra data.\n');
    const recording = join(root, 'session.jsonl');
    const card = ideaCard('Class-aware mixup');
    const recorded = await runExplore({
      settings: {
        paperPaths: [mixupPaper],
        notesPath: notes,
        ideas: 1,
        reviewers: 1,
        refineRounds: 0,
        budgetMinutes: 10,
        gpu: false,
        paperMaxChars: 60_000,
      },
      models: (run) =>
        createScriptedCaller(
          { planner: [json(analysisAnswer()), json({ ideas: [card] })], judge: [json(review(4))] },
          { run, record: recording },
        ).caller,
      host: { runsRoot: join(root, 'recorded') },
    });
    expect(recorded.exploration.ideas).toHaveLength(1);
    // The notes reached the prompts.
    expect(readFileSync(recording, 'utf8')).toContain('Prefer ideas that need no extra data.');

    const child = await runChild([
      mixupPaper,
      '--notes',
      notes,
      '--ideas',
      '1',
      '--refine-rounds',
      '0',
      // Recorded with one reviewer (the default is three).
      '--reviewers',
      '1',
      '--model',
      `replay:${recording}`,
      '--root',
      join(root, 'replayed'),
      '--json',
    ]);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const lines = child.stdout.trim().split('\n');
    const exploration = JSON.parse(lines.at(-1) ?? '{}') as Exploration;
    expect(exploration.ideas[0]?.card.title).toBe('Class-aware mixup');
    expect(exploration.ideas[0]?.score).toBe(4);
    const events = lines
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { type: string; result?: { report: string } });
    const end = events.at(-1);
    expect(end?.type).toBe('run-end');
    expect(readFileSync(end?.result?.report ?? '', 'utf8')).toContain(
      '# Ideas, ranked by the judge',
    );
  });

  it('exits 3 naming a missing paper or bad notes, 2 for no paper, a bad flag, --run without --code, --max-seeds without --run or on --resume, or --parallel with --record', async () => {
    // In parallel: each child spends most of its time starting up.
    const [missing, none, notes, flag, runWithoutCode, parallelRecord, seedsWithoutRun, resumed] =
      await Promise.all([
        runChild(['/no/such/paper.md', '--model', 'exchange:/tmp/x']),
        runChild(['--model', 'exchange:/tmp/x']),
        runChild([mixupPaper, '--notes', '/no/notes.txt', '--model', 'exchange:/tmp/x']),
        runChild([mixupPaper, '--ideas', 'many']),
        runChild([mixupPaper, '--run', 'top:2', '--model', 'exchange:/tmp/x']),
        runChild([
          mixupPaper,
          ...['--run', 'top:2', '--code', tmpdir(), '--parallel', '2'],
          ...['--model', 'exchange:/tmp/x', '--record', join(tmpdir(), 'never-written.jsonl')],
        ]),
        runChild([mixupPaper, '--max-seeds', '3', '--model', 'exchange:/tmp/x']),
        runChild(['--resume', tmpdir(), '--max-seeds', '3', '--model', 'exchange:/tmp/x']),
      ]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain('Paper not found: /no/such/paper.md');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('give at least one paper');
    expect(notes.status).toBe(3);
    expect(notes.stderr).toContain('--notes: /no/notes.txt is not a file');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('--ideas takes a whole number from 1 to 20 (got "many")');
    expect(runWithoutCode.status).toBe(2);
    expect(runWithoutCode.stderr).toContain('--run and --code go together');
    expect(parallelRecord.status).toBe(2);
    expect(parallelRecord.stderr).toContain('record and replay with --parallel 1');
    expect(seedsWithoutRun.status).toBe(2);
    expect(seedsWithoutRun.stderr).toContain(
      '--max-seeds is for experiments: give --run top:K --code DIR too',
    );
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toContain(
      '--max-seeds: a resumed exploration keeps the settings it was started with',
    );
  });
});
