import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTaskSettings } from '../../../src/tasks/read-task-settings.js';
import { seededInvocation } from '../../../src/tasks/seeds/task-seed.js';
import { seedList, parseSeedsText } from '../../../src/modes/seeds-setting.js';

async function seedOf(seed: unknown): Promise<unknown> {
  const file = join(mkdtempSync(join(tmpdir(), 'codify-seed-')), 'task.json');
  writeFileSync(file, JSON.stringify({ seed }));
  return (await readTaskSettings(file)).seed;
}

describe('task.json seed', () => {
  it('takes a flag or an environment variable', async () => {
    expect(await seedOf({ flag: '--seed' })).toEqual({ flag: '--seed' });
    expect(await seedOf({ env: 'SEED' })).toEqual({ env: 'SEED' });
  });

  it('refuses other shapes, naming the key and the fix', async () => {
    await expect(seedOf({ flag: 'seed' })).rejects.toThrow(
      /"seed\.flag": a flag starts with - or -- and a letter/,
    );
    await expect(seedOf({ env: 'MY-SEED' })).rejects.toThrow(
      /"seed\.env": an environment variable name/,
    );
    for (const bad of [{ flag: '--seed', env: 'SEED' }, '--seed', 42, {}]) {
      await expect(seedOf(bad)).rejects.toThrow(
        /"seed": give \{"flag": "--seed"\} or \{"env": "SEED"\}/,
      );
    }
  });

  it('sets the seed as declared, after the task args', () => {
    expect(seededInvocation({ flag: '--seed' }, 3, ['--epochs', '2'])).toEqual({
      args: ['--epochs', '2', '--seed', '3'],
      env: {},
    });
    expect(seededInvocation({ env: 'SEED' }, 3, ['--epochs', '2'])).toEqual({
      args: ['--epochs', '2'],
      env: { SEED: '3' },
    });
  });
});

describe('seeds setting', () => {
  it('reads a count as seeds 0 … N−1 and keeps a list as given', () => {
    expect(seedList(3)).toEqual([0, 1, 2]);
    expect(seedList([7, 1])).toEqual([7, 1]);
    expect(parseSeedsText('4')).toEqual({ ok: true, seeds: [0, 1, 2, 3] });
    expect(parseSeedsText('0, 5,9')).toEqual({ ok: true, seeds: [0, 5, 9] });
  });

  it('refuses zero, repeats and words', () => {
    expect(parseSeedsText('0')).toMatchObject({ ok: false });
    expect(parseSeedsText('1,1')).toMatchObject({ ok: false });
    expect(parseSeedsText('a,b')).toMatchObject({ ok: false });
    expect(parseSeedsText('101')).toMatchObject({ ok: false });
  });
});
