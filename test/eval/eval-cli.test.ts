import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function codify(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args],
      {
        cwd: root,
        env: { ...process.env, CI: 'true' },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

describe('codify eval (CLI)', () => {
  it('exits 3 (an input to fix) naming the suite file and key path, and leaves the file as it was', async () => {
    const base = mkdtempSync(join(tmpdir(), 'codify-eval-cli-'));
    const suite = join(base, 'suite.yaml');
    const text = 'items: [{task: missing-folder}]\nmodels: [{name: m, model: openai:x}]\n';
    writeFileSync(suite, text);
    const { status, output } = await codify(['eval', suite, '--root', join(base, 'runs')]);
    expect(status).toBe(3);
    expect(output).toContain(`codify eval: ${suite}: items[0].task: no task folder at`);
    expect(readFileSync(suite, 'utf8')).toBe(text);
  });

  it('exits 2 for a bad --parallel', async () => {
    const { status, output } = await codify(['eval', 'suite.yaml', '--parallel', '0']);
    expect(status).toBe(2);
    expect(output).toContain('--parallel takes a whole number above 0');
  });

  it('exits 2 for --seeds that is not a count from 1 or a list of distinct seeds', async () => {
    for (const seeds of ['0', '1,1', 'two']) {
      const { status, output } = await codify(['eval', 'suite.yaml', '--seeds', seeds]);
      expect(status).toBe(2);
      expect(output).toContain(`--seeds: `);
      expect(output).toContain(`(got "${seeds}")`);
    }
  });

  it('exits 3 for --report-only where no evaluation ran', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'codify-eval-cli-')), 'none');
    const { status, output } = await codify([
      'eval',
      'examples/eval/ci-suite.yaml',
      '--report-only',
      '--out',
      out,
    ]);
    expect(status).toBe(3);
    expect(output).toContain(
      `codify eval: no evaluation in ${out}: run codify eval examples/eval/ci-suite.yaml first`,
    );
  });

  it('exits 2 for --results without --queue, and for a --results that is neither shared nor queue', async () => {
    const alone = await codify(['eval', 'examples/eval/ci-suite.yaml', '--results', 'queue']);
    expect(alone.status).toBe(2);
    expect(alone.output).toContain('codify eval: --results is for --queue');
    const unknown = await codify([
      'eval',
      'examples/eval/ci-suite.yaml',
      '--queue',
      'redis://127.0.0.1:1',
      '--results',
      'mail',
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.output).toContain('Allowed choices are shared, queue');
  });
});
