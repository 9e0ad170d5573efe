import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultLimits,
  type ExecutionRequest,
  type SandboxLimits,
} from '../../src/sandbox/types.js';

/** The interpreter the sandbox tests use: Debian's, which has numpy and torch. */
export const testInterpreter = '/usr/bin/python3';

export interface TestWorkspace {
  root: string;
  workspace: string;
  outputPath: string;
  write(name: string, content: string): Promise<string>;
  request(script: string, overrides?: Partial<ExecutionRequest>): ExecutionRequest;
  remove(): Promise<void>;
}

/**
 * Outside /tmp when possible: the sandbox has a private /tmp, so a workspace under /tmp
 * would make its parent folders look writable (in the private copy) and hide what the
 * tests check for real workspaces (runs/… under a project folder).
 */
function testBase(): string {
  return existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
}

/** A run folder with a workspace inside it, like the real layout (runs/<id>/workspace). */
export async function makeWorkspace(limits: Partial<SandboxLimits> = {}): Promise<TestWorkspace> {
  const root = await mkdtemp(join(testBase(), 'codify-sandbox-test-'));
  const workspace = join(root, 'workspace');
  const outputPath = join(root, 'output.txt');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(workspace);
  return {
    root,
    workspace,
    outputPath,
    async write(name, content) {
      const path = join(workspace, name);
      await writeFile(path, content);
      return path;
    },
    request(script, overrides = {}) {
      return {
        workspace,
        readOnlyPaths: [],
        interpreter: testInterpreter,
        script,
        args: [],
        limits: { ...defaultLimits, timeoutMs: 60_000, ...limits },
        network: false,
        gpu: false,
        trace: false,
        outputPath,
        ...overrides,
      };
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
