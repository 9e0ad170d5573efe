import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/errors/exit-codes.js';
import { codify } from '../llm/codify-cli.js';

/**
 * `--repeats N` changes how the starter is measured, not what the model is asked: each
 * shipped agent recording, made without it, still matches at its first call with
 * `--repeats 3`. (The first call holds the whole task material, the starter's figure with
 * it; the recording is cut after it so the test stays short: the run then ends for want
 * of answers, exit code 5, and the message must say so, not that the prompt differs.)
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'codify-repeats-replay-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.concurrent('shipped recordings replayed with --repeats 3', () => {
  for (const task of ['yona-digits', 'flag-graph', 'attribute-batching']) {
    it(`examples/${task}: the first call matches its recording`, async () => {
      const [first] = readFileSync(
        join(root, 'examples/recordings', `${task}.jsonl`),
        'utf8',
      ).split('\n');
      const recording = join(scratch, `${task}-first-call.jsonl`);
      writeFileSync(recording, `${first ?? ''}\n`);
      const { status, output } = await codify([
        'implement',
        join('examples', task),
        '--repeats',
        '3',
        '--model',
        `replay:${recording}`,
        '--root',
        join(scratch, `${task}-runs`),
      ]);
      expect(output).not.toContain('differs from the recording');
      expect(output).toMatch(/replay: .*(holds|has no answer|only)/);
      expect(status, output).toBe(exitCodes.model);
    });
  }
});
