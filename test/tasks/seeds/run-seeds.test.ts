import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/sandbox/index.js';
import { loadTask } from '../../../src/tasks/load-task.js';
import { runSeeds } from '../../../src/tasks/seeds/run-seeds.js';
import type { TaskSeed } from '../../../src/tasks/seeds/task-seed.js';

/** A task whose script prints its seed (from a flag or $SEED) as the metric, and its argv. */
async function seedEcho(declaration: TaskSeed) {
  const dir = mkdtempSync(join(tmpdir(), 'codify-seed-echo-'));
  writeFileSync(join(dir, 'methodology_description.txt'), 'Print the seed.\n');
  writeFileSync(
    join(dir, 'starter_code.py'),
    [
      'import os, sys',
      'args = sys.argv[1:]',
      'seed = args[args.index("--seed") + 1] if "--seed" in args else os.environ.get("SEED", "none")',
      'print("args:", args)',
      'print(f"value: {seed}")',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'task.json'),
    JSON.stringify({
      args: ['--fast'],
      metric: { name: 'value', pattern: 'value: ([0-9]+)', goal: 'max' },
      seed: declaration,
    }),
  );
  return loadTask(dir);
}

describe('runSeeds', () => {
  for (const declaration of [{ flag: '--seed' }, { env: 'SEED' }] as TaskSeed[]) {
    it(`runs the script once per seed, the seed given as ${JSON.stringify(declaration)}`, async () => {
      const task = await seedEcho(declaration);
      const out = mkdtempSync(join(tmpdir(), 'codify-seed-runs-'));
      const file = join(out, 'seeds.json');
      const input = {
        file,
        workspace: task.dir,
        script: 'starter_code.py',
        task,
        metric: task.metric ?? { name: 'value', pattern: '', goal: 'max' as const },
        declaration,
        seeds: [3, 11],
        sandbox: await createSandbox('bubblewrap'),
        interpreter: '/usr/bin/python3',
        gpu: false,
        outputDir: out,
      };
      const runs = await runSeeds(input);
      expect(runs.map((run) => [run.seed, run.value, run.exitCode])).toEqual([
        [3, 3, 0],
        [11, 11, 0],
      ]);
      const output = readFileSync(runs[0]?.outputPath ?? '', 'utf8');
      // The task's own args come first; the flag only when the task declares one.
      expect(output).toContain(
        'flag' in declaration ? "args: ['--fast', '--seed', '3']" : "args: ['--fast']",
      );
      expect(existsSync(file)).toBe(true);
      // Kept: asked again, the seeds are read back, not run.
      writeFileSync(join(task.dir, 'starter_code.py'), 'raise SystemExit(1)\n');
      expect((await runSeeds(input)).map((run) => run.value)).toEqual([3, 11]);
    });
  }
});
