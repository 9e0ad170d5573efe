import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionContext } from '../../src/agent/actions/types.js';
import type { CodifyEvent, CodifyEventBody } from '../../src/runs/events.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { defaultLimits } from '../../src/sandbox/types.js';
import type { Task } from '../../src/tasks/types.js';
import { createWorkspace } from '../../src/workspace/index.js';
import { RecordingModel } from './recording-model.js';

export const starterCode = [
  'import sys',
  '',
  '',
  'def train(epochs):',
  '    accuracy = 0.5',
  '    for epoch in range(epochs):',
  '        accuracy += 0.01',
  '    return accuracy',
  '',
  '',
  'if __name__ == "__main__":',
  '    print(f"accuracy: {train(3):.2f}")',
  '',
].join('\n');

export interface TestSetup {
  base: string;
  context: ActionContext;
  model: RecordingModel;
  events: CodifyEvent[];
  cleanup(): Promise<void>;
}

const refusingSandbox: Sandbox = {
  kind: 'none',
  run: () => Promise.reject(new Error('this test does not execute scripts')),
};

/** A task folder, a run folder with its workspace, and an action context around them. */
export async function setUp(
  options: {
    answers?: string[];
    sandbox?: Sandbox;
    files?: Record<string, string>;
    log?: string;
  } = {},
): Promise<TestSetup> {
  const base = await mkdtemp(join(tmpdir(), 'codify-actions-'));
  const taskDir = join(base, 'task');
  await mkdir(taskDir);
  const files: Record<string, string> = {
    'starter_code.py': starterCode,
    'methodology_description.txt': 'Train for more epochs to raise accuracy.\n',
    ...options.files,
  };
  for (const [name, content] of Object.entries(files))
    await writeFile(join(taskDir, name), content);
  const task: Task = {
    dir: taskDir,
    name: 'demo',
    format: 'codify',
    entrypoint: 'starter_code.py',
    output: 'methodology_implementation.py',
    args: [],
    timeoutS: 60,
    metric: { name: 'accuracy', pattern: 'accuracy: ([0-9.]+)', goal: 'max' },
    pythonRequires: [],
    network: false,
    files: {
      methodology: files['methodology_description.txt'] ?? '',
      starterCode,
      subparts: [],
    },
    inputFiles: Object.keys(files),
  };
  const runDir = join(base, 'run');
  const workspace = await createWorkspace({ task, runDir });
  const model = new RecordingModel(options.answers ?? []);
  const events: CodifyEvent[] = [];
  const context: ActionContext = {
    task,
    workspace,
    sandbox: options.sandbox ?? refusingSandbox,
    models: model,
    run: {
      id: 'test-run',
      dir: runDir,
      emit(body: CodifyEventBody): CodifyEvent {
        const event = {
          ...body,
          seq: events.length + 1,
          time: new Date().toISOString(),
        };
        events.push(event);
        return event;
      },
    },
    interpreter: '/usr/bin/python3',
    limits: { ...defaultLimits, timeoutMs: 60_000, memoryMb: 2048 },
    gpu: false,
    researchLog: () => options.log ?? 'Step 1: listed files.\nStep 2: copied starter_code.py.',
    expertHelp: { remaining: 1 },
    step: 3,
  };
  return {
    base,
    context,
    model,
    events,
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
