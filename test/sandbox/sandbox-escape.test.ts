import { existsSync } from 'node:fs';
import { readFile, stat, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { makeWorkspace, type TestWorkspace } from './sandbox-fixtures.js';

/** Each attempt prints "<label>: ok" or "<label>: <error>" so one run checks many. */
const attemptHelper = `
def attempt(label, action):
    try:
        result = action()
        print(label + ": ok " + repr(result)[:200], flush=True)
    except Exception as error:
        print(label + ": " + type(error).__name__ + " " + str(error), flush=True)
`;

function attemptLines(output: string): Record<string, string> {
  const lines: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const match = /^([\w-]+): (.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) lines[match[1]] = match[2];
  }
  return lines;
}

describe('escape attempts in the real bubblewrap sandbox', () => {
  let sandbox: Sandbox;
  let workspace: TestWorkspace;

  beforeAll(async () => {
    sandbox = await createSandbox('bubblewrap');
  });
  afterEach(async () => {
    await workspace.remove();
  });

  it('cannot write outside the workspace', async () => {
    workspace = await makeWorkspace();
    const parentFile = join(workspace.root, 'escaped.txt');
    await workspace.write(
      'write.py',
      `${attemptHelper}
for label, path in [("usr", "/usr/escaped.txt"), ("etc", "/etc/escaped.txt"),
                    ("root", "/escaped.txt"), ("parent", ${JSON.stringify(parentFile)}),
                    ("work", "/work/escaped.txt")]:
    attempt(label, lambda: open(path, "w").write("x"))
attempt("inside", lambda: open("inside.txt", "w").write("x"))
attempt("tmp", lambda: open("/tmp/scratch.txt", "w").write("x"))
`,
    );
    const result = await sandbox.run(workspace.request('write.py'));
    const lines = attemptLines(result.output);
    for (const label of ['usr', 'etc', 'root', 'parent', 'work']) {
      expect(lines[label], label).toMatch(/^OSError|^PermissionError|^FileNotFoundError/);
    }
    expect(lines.inside).toBe('ok 1');
    expect(lines.tmp).toBe('ok 1');
    expect(existsSync(parentFile)).toBe(false);
    expect(existsSync('/usr/escaped.txt')).toBe(false);
    expect(existsSync('/etc/escaped.txt')).toBe(false);
    expect(existsSync(join(workspace.workspace, 'inside.txt'))).toBe(true);
    expect(result.blocked.join('\n')).toContain('read-only path: /usr/escaped.txt');
  });

  it('sees no home folders, secrets or other projects', async () => {
    workspace = await makeWorkspace();
    await workspace.write(
      'read.py',
      `${attemptHelper}
import os
attempt("root", lambda: os.listdir("/root"))
attempt("home", lambda: os.listdir("/home"))
attempt("shadow", lambda: open("/etc/shadow").read())
attempt("npmrc", lambda: open("/etc/npmrc").read())
attempt("work", lambda: os.listdir("/work"))
attempt("top", lambda: sorted(os.listdir("/")))
`,
    );
    const result = await sandbox.run(workspace.request('read.py'));
    const lines = attemptLines(result.output);
    for (const label of ['root', 'home', 'shadow', 'npmrc', 'work']) {
      expect(lines[label], label).toMatch(/^FileNotFoundError/);
    }
    expect(lines.top).not.toMatch(/'root'|'home'|'work'|'srv'|'opt'|'mnt'/);
  });

  describe('network', () => {
    let server: Server;
    let port = 0;
    beforeAll(async () => {
      server = createServer((socket) => socket.end('hello from the host\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      return () => new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const connectScript = () => `
import socket
connection = socket.create_connection(("127.0.0.1", ${port}), timeout=5)
print(connection.recv(100).decode().strip())
`;

    it('is disabled: a connection to a listener on the host fails', async () => {
      workspace = await makeWorkspace();
      await workspace.write('connect.py', connectScript());
      const result = await sandbox.run(workspace.request('connect.py'));
      expect(result.exitCode).toBe(1);
      expect(result.output).not.toContain('hello from the host');
      expect(result.output).toMatch(/ConnectionRefusedError|Network is unreachable/);
      expect(result.blocked.join('\n')).toContain('network is disabled for this task');
    });

    it('is shared when the task allows it (the same connection then works)', async () => {
      workspace = await makeWorkspace();
      await workspace.write('connect.py', connectScript());
      const result = await sandbox.run(workspace.request('connect.py', { network: true }));
      expect(result.output).toContain('hello from the host');
      expect(result.exitCode).toBe(0);
      expect(result.blocked).toEqual([]);
    });
  });

  it('contains a fork bomb within the process limit', async () => {
    workspace = await makeWorkspace({ maxProcesses: 40, timeoutMs: 8000 });
    await workspace.write(
      'count.py',
      `import os, time
children = []
try:
    while len(children) < 1000:
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        children.append(pid)
except OSError as error:
    print("fork failed after", len(children), "children:", error, flush=True)
print("children", len(children), flush=True)
`,
    );
    const counted = await sandbox.run(workspace.request('count.py'));
    const children = Number(/children (\d+)/.exec(counted.output)?.[1] ?? -1);
    expect(children).toBeGreaterThan(0);
    expect(children).toBeLessThan(40);
    expect(counted.blocked.join('\n')).toContain('process limit');

    await workspace.write('bomb.py', 'import os\nwhile True:\n    os.fork()\n');
    const started = Date.now();
    const bombed = await sandbox.run(workspace.request('bomb.py'));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(bombed.blocked.join('\n')).toContain('process limit');
    // the machine is fine: we can still start processes
    const after = await sandbox.run(workspace.request('count.py', { args: [] }));
    expect(after.output).toMatch(/children \d+/);
  });

  it('stops allocation past the memory limit', async () => {
    workspace = await makeWorkspace({ memoryMb: 512 });
    await workspace.write(
      'allocate.py',
      'small = bytearray(100 * 1024 * 1024)\nprint("100 MiB ok", flush=True)\nbig = bytearray(2 * 1024 ** 3)\nprint("2 GiB ok")\n',
    );
    const result = await sandbox.run(workspace.request('allocate.py'));
    expect(result.output).toContain('100 MiB ok');
    expect(result.output).not.toContain('2 GiB ok');
    expect(result.output).toContain('MemoryError');
    expect(result.memoryExceeded).toBe(true);
    expect(result.blocked.join('\n')).toContain('memory limit of 512 MiB');
  });

  it('runs torch and numpy under the default memory limit', async () => {
    workspace = await makeWorkspace();
    await workspace.write(
      'torch_check.py',
      'import numpy, torch\nprint(float(torch.ones(3).sum()), numpy.zeros(2).shape)\n',
    );
    const result = await sandbox.run(workspace.request('torch_check.py'));
    expect(result.output).toContain('3.0 (2,)');
    expect(result.exitCode).toBe(0);
  });

  it('caps printing gigabytes: head and tail for the model, a capped file, stopped quickly', async () => {
    const capped = await createSandbox('bubblewrap', { outputFileCapBytes: 8 * 1024 * 1024 });
    workspace = await makeWorkspace({ outputCapBytes: 2000 });
    await workspace.write(
      'flood.py',
      'import sys\nprint("FIRST LINE", flush=True)\nchunk = b"y" * (1 << 20)\nfor _ in range(10 ** 6):\n    sys.stdout.buffer.write(chunk)\n',
    );
    const started = Date.now();
    const result = await capped.run(workspace.request('flood.py'));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('FIRST LINE')).toBe(true);
    expect(result.output).toMatch(/bytes of output cut here/);
    expect(result.output.length).toBeLessThan(2300);
    expect((await stat(workspace.outputPath)).size).toBe(8 * 1024 * 1024);
    expect(result.blocked.join('\n')).toContain('printed more than 8 MB and was stopped');
  });

  it('gives nothing through symlinks that point outside the workspace', async () => {
    workspace = await makeWorkspace();
    await symlink('/etc/shadow', join(workspace.workspace, 'shadow'));
    await symlink('/root', join(workspace.workspace, 'home'));
    await symlink(workspace.root, join(workspace.workspace, 'run-folder'));
    await workspace.write(
      'links.py',
      `${attemptHelper}
import os
attempt("shadow", lambda: open("shadow").read())
attempt("home", lambda: os.listdir("home"))
attempt("run-folder", lambda: open("run-folder/escaped.txt", "w").write("x"))
`,
    );
    const result = await sandbox.run(workspace.request('links.py'));
    const lines = attemptLines(result.output);
    expect(lines.shadow).toMatch(/^FileNotFoundError/);
    expect(lines.home).toMatch(/^FileNotFoundError/);
    expect(lines['run-folder']).toMatch(/^FileNotFoundError|^OSError/);
    expect(existsSync(join(workspace.root, 'escaped.txt'))).toBe(false);
  });

  it('keeps task inputs read-only', async () => {
    workspace = await makeWorkspace();
    const input = await workspace.write('data.csv', 'a,b\n1,2\n');
    await workspace.write(
      'modify.py',
      `${attemptHelper}
import os
attempt("append", lambda: open("data.csv", "a").write("3,4\\n"))
attempt("truncate", lambda: open("data.csv", "w").write(""))
attempt("remove", lambda: os.remove("data.csv"))
attempt("rename", lambda: os.rename("data.csv", "moved.csv"))
attempt("read", lambda: open("data.csv").read())
attempt("new", lambda: open("results.csv", "w").write("ok"))
`,
    );
    const result = await sandbox.run(workspace.request('modify.py', { readOnlyPaths: [input] }));
    const lines = attemptLines(result.output);
    for (const label of ['append', 'truncate', 'remove', 'rename']) {
      expect(lines[label], label).toMatch(/^OSError|^PermissionError/);
    }
    expect(lines.read).toContain('a,b');
    expect(lines.new).toBe('ok 2');
    expect(await readFile(input, 'utf8')).toBe('a,b\n1,2\n');
    expect(result.blocked.join('\n')).toContain('data.csv cannot be written');
  });

  it('says when a GPU was asked for but none exists', async () => {
    workspace = await makeWorkspace();
    await workspace.write('gpu.py', 'print("ran")\n');
    const result = await sandbox.run(workspace.request('gpu.py', { gpu: true }));
    expect(result.output).toContain('ran');
    if (!existsSync('/dev/nvidia0')) {
      expect(result.notes?.join('\n')).toContain('no /dev/nvidia* devices');
    }
  });
});

describe('an interpreter that lives under a hidden folder (pyenv under /root)', () => {
  const shim = '/root/.pyenv/shims/python3';
  it.skipIf(!existsSync(shim))('runs, with only its own prefix visible', async () => {
    const sandbox = await createSandbox('bubblewrap');
    const workspace = await makeWorkspace();
    try {
      await workspace.write(
        'which.py',
        `${attemptHelper}
import os, sys
attempt("executable", lambda: sys.executable)
attempt("numpy", lambda: __import__("numpy").__name__)
attempt("root", lambda: os.listdir("/root"))
attempt("pyenv", lambda: os.listdir("/root/.pyenv"))
attempt("bashrc", lambda: open("/root/.bashrc").read())
`,
      );
      const result = await sandbox.run(workspace.request('which.py', { interpreter: shim }));
      const lines = attemptLines(result.output);
      expect(lines.executable).toMatch(/^ok '\/root\/\.pyenv\/versions\/[^/]+\/bin\/python/);
      expect(lines.numpy).toBe("ok 'numpy'");
      expect(lines.root).toBe("ok ['.pyenv']");
      expect(lines.pyenv).toBe("ok ['versions']");
      expect(lines.bashrc).toMatch(/^FileNotFoundError/);
    } finally {
      await workspace.remove();
    }
  });
});
