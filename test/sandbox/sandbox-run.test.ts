import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, noSandboxWarning } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { makeWorkspace, type TestWorkspace } from './sandbox-fixtures.js';

/** Host processes whose command line mentions `text`. */
function processesWithArgument(text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (commandLine.includes(text) && !commandLine.includes('daemon.py')) found.push(commandLine);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const environmentScript = `
import json, os, sys
print(json.dumps({"argv": sys.argv, "name": __name__, "env": dict(os.environ), "cwd": os.getcwd()}))
sys.exit(7)
`;

describe.each(['bubblewrap', 'none'] as const)('the %s sandbox runs a script', (kind) => {
  let sandbox: Sandbox;
  let workspace: TestWorkspace;
  const previousKey = process.env.OPENAI_API_KEY;

  beforeAll(async () => {
    sandbox = await createSandbox(kind);
    process.env.OPENAI_API_KEY = 'secret-key-that-must-not-leak';
    process.env.CODIFY_TEST_TOKEN = 'token-that-must-not-leak';
  });
  afterAll(() => {
    if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = previousKey;
    delete process.env.CODIFY_TEST_TOKEN;
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('with its arguments, exit code and a scrubbed environment', async () => {
    workspace = await makeWorkspace();
    await workspace.write('show.py', environmentScript);
    const result = await sandbox.run(workspace.request('show.py', { args: ['--epochs', '2'] }));
    expect(sandbox.kind).toBe(kind);
    expect(result.exitCode).toBe(7);
    expect(result.timedOut).toBe(false);
    const shown = JSON.parse(result.output.trim()) as {
      argv: string[];
      name: string;
      env: Record<string, string>;
      cwd: string;
    };
    expect(shown.argv).toEqual(['show.py', '--epochs', '2']);
    expect(shown.name).toBe('__main__');
    expect(shown.cwd).toBe(workspace.workspace);
    expect(shown.env.OPENAI_API_KEY).toBeUndefined();
    expect(shown.env.CODIFY_TEST_TOKEN).toBeUndefined();
    expect(JSON.stringify(shown.env)).not.toContain('must-not-leak');
    expect(shown.env.PYTHONUNBUFFERED).toBe('1');
    expect(shown.env.MPLBACKEND).toBe('Agg');
    expect(await readFile(workspace.outputPath, 'utf8')).toBe(result.output);
  });

  it('adds the variables it is given (a seed) without letting them replace its own', async () => {
    workspace = await makeWorkspace();
    await workspace.write('show.py', environmentScript);
    const request = workspace.request('show.py');
    const result = await sandbox.run({
      ...request,
      env: { SEED: '7', PATH: '/nowhere', HOME: '/nowhere' },
    });
    const shown = JSON.parse(result.output.trim()) as { env: Record<string, string> };
    expect(shown.env.SEED).toBe('7');
    expect(shown.env.PATH).not.toBe('/nowhere');
    expect(shown.env.HOME).not.toBe('/nowhere');
    expect(JSON.stringify(shown.env)).not.toContain('must-not-leak');
  });

  it('kills it at the timeout', async () => {
    workspace = await makeWorkspace({ timeoutMs: 1500 });
    await workspace.write('loop.py', 'print("started", flush=True)\nwhile True:\n    pass\n');
    const started = Date.now();
    const result = await sandbox.run(workspace.request('loop.py'));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain('started');
    expect(result.blocked.join('\n')).toMatch(/^timeout: the script was stopped after 2 s/m);
  });

  it('kills daemonized grandchildren at the timeout too', async () => {
    workspace = await makeWorkspace({ timeoutMs: 2000 });
    const marker = String(900_000 + Math.floor(Math.random() * 90_000));
    await workspace.write(
      'daemon.py',
      `import os, subprocess, time
subprocess.Popen(["sleep", "${marker}"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "${marker}.5"])
    os._exit(0)
print("daemons started", flush=True)
while True:
    time.sleep(1)
`,
    );
    const result = await sandbox.run(workspace.request('daemon.py'));
    expect(result.timedOut).toBe(true);
    expect(result.output).toContain('daemons started');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesWithArgument(marker)).toEqual([]);
  });
});

describe('the none sandbox', () => {
  it('exports the warning the caller prints', () => {
    expect(noSandboxWarning).toContain('--sandbox none');
    expect(noSandboxWarning).toContain('bubblewrap');
  });
});

describe('createSandbox', () => {
  it('refuses a missing bubblewrap with how to install it or opt out', async () => {
    await expect(createSandbox('bubblewrap', { bwrapPath: '/nonexistent/bwrap' })).rejects.toThrow(
      /apt-get install bubblewrap.*--sandbox none/,
    );
  });
});
