import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitStage, initRepository } from '../../src/repo/git.js';
import { verifyRepository } from '../../src/repo/verify.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { defaultLimits } from '../../src/sandbox/types.js';

// Under /var/tmp: the sandbox's private /tmp would show a /tmp folder's parents as tmpfs.
const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync('/var/tmp/codify-repo-safety-');
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('generated repositories cannot reach the host through .git', () => {
  it('keeps .git read-only during the smoke run', async () => {
    const repo = folder();
    expect(await initRepository(repo)).toEqual({ ok: true });
    writeFileSync(
      join(repo, 'main.py'),
      [
        'import os',
        'try:',
        '    with open(os.path.join(".git", "hooks", "post-commit"), "w") as hook:',
        '        hook.write("#!/bin/sh\\ntouch /tmp/pwned\\n")',
        '    print("planted")',
        'except OSError as error:',
        '    print("refused:", error)',
      ].join('\n'),
    );
    const outcome = await verifyRepository({
      sandbox: await createSandbox('bubblewrap'),
      repoDir: repo,
      entryPoint: 'main.py',
      interpreter: '/usr/bin/python3',
      limits: { ...defaultLimits, timeoutMs: 30_000 },
      outputsDir: join(folder(), 'outputs'),
      repairBudgetSteps: 0,
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.runs[0]?.outputTail).toContain('refused:');
    expect(existsSync(join(repo, '.git', 'hooks', 'post-commit'))).toBe(false);
  });

  it('runs no hook a repository holds when committing a stage', async () => {
    const repo = folder();
    await initRepository(repo);
    const marker = join(folder(), 'hook-ran');
    mkdirSync(join(repo, '.git', 'hooks'), { recursive: true });
    for (const hook of ['pre-commit', 'post-commit']) {
      const path = join(repo, '.git', 'hooks', hook);
      writeFileSync(path, `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(path, 0o755);
    }
    writeFileSync(join(repo, 'main.py'), 'print(1)\n');
    const hash = await commitStage(repo, 'generate: main.py');
    expect(hash).toMatch(/^[0-9a-f]{7,}$/);
    expect(existsSync(marker)).toBe(false);
    expect(execFileSync('git', ['-C', repo, 'log', '--format=%s'], { encoding: 'utf8' })).toBe(
      'generate: main.py\n',
    );
  });
});
