import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nvidiaDeviceFiles } from '../../src/sandbox/gpus.js';
import { answerExchange } from '../web/exchange-responder.js';

/**
 * `codify mcp` as an MCP client meets it: the SDK's own client, over stdio, talking to the
 * real CLI, which starts real runs (replayed model answers, real sandbox and Python).
 */
const repositoryRoot = resolve(import.meta.dirname, '../..');
const recordings = join(repositoryRoot, 'examples/recordings');
const temporary = mkdtempSync(join(tmpdir(), 'codify-mcp-'));
const runsRoot = join(temporary, 'runs');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const client = new Client({ name: 'codify-test', version: '1.0.0' });

interface ToolAnswer {
  isError: boolean;
  text: string;
}

async function call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const first = content[0] as { type?: string; text?: string } | undefined;
  return { isError: result.isError === true, text: first?.text ?? '' };
}

async function callJson<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const answer = await call(name, args);
  expect(answer.isError, answer.text).toBe(false);
  return JSON.parse(answer.text) as T;
}

interface Started {
  runId: string;
  runDir: string;
  pid: number;
  output: string;
}

interface Status {
  id: string;
  mode: string;
  status: string;
  finished: boolean;
  steps: number;
  llmCalls: number;
  tokens: { input: number; output: number };
  costUsd: number;
  result: Record<string, unknown> | null;
}

async function followToEnd(runId: string): Promise<Status> {
  for (let waited = 0; waited < 110_000; waited += 250) {
    const status = await callJson<Status>('run_status', { run: runId });
    if (status.finished || status.status === 'killed') return status;
    await sleep(250);
  }
  throw new Error(`run ${runId} did not finish`);
}

beforeAll(async () => {
  const { PATH, HOME } = process.env;
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(repositoryRoot, 'src/cli/main.ts'), 'mcp', '--root', runsRoot],
      cwd: repositoryRoot,
      env: { PATH: PATH ?? '/usr/bin:/bin', HOME: HOME ?? temporary, CI: 'true' },
      stderr: 'ignore',
    }),
  );
});

afterAll(async () => {
  await client.close();
  rmSync(temporary, { recursive: true, force: true });
});

describe('codify mcp', () => {
  it('offers the tools to check, start, follow, list and read runs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'answer_feedback',
      'check_task',
      'feedback_requests',
      'list_runs',
      'read_run_file',
      'resume_run',
      'run_status',
      'start_explore',
      'start_implement',
      'start_paper',
      'stop_run',
    ]);
    const start = tools.find((tool) => tool.name === 'start_implement');
    expect(start?.inputSchema.required).toEqual(['task']);
  });

  it('checks a task folder like codify check', async () => {
    const usable = await callJson<{ usable: boolean; exitCode: number; report: string }>(
      'check_task',
      { task: 'examples/yona-digits', gpu: true },
    );
    expect(usable.usable).toBe(true);
    expect(usable.report).toContain('Result: usable');
    // the GPUs were asked for; on a machine without any the report says it ran on the CPU
    if (nvidiaDeviceFiles().length === 0) expect(usable.report).toContain('no /dev/nvidia*');
    const missing = await callJson<{ usable: boolean; problem: string }>('check_task', {
      task: join(temporary, 'no-such-task'),
    });
    expect(missing.usable).toBe(false);
    expect(missing.problem).toContain('no-such-task');
  });

  it('starts a replayed implement run, returns its id at once, and follows it to its result', async () => {
    const started = await callJson<Started>('start_implement', {
      task: 'examples/yona-digits',
      model: `replay:${join(recordings, 'yona-digits.jsonl')}`,
    });
    expect(started.runId).toMatch(/^\d{8}-\d{6}-yona-digits-[0-9a-f]{6}$/);
    expect(started.runDir).toBe(join(runsRoot, started.runId));
    // Answered once the run exists, long before the agent and its training script are done.
    expect(existsSync(join(started.runDir, 'result.json'))).toBe(false);
    const status = await followToEnd(started.runId);
    expect(status.status).toBe('completed');
    expect(status.mode).toBe('implement');
    expect(status.steps).toBe(3);
    expect(status.llmCalls).toBe(4);
    expect(status.tokens.input).toBeGreaterThan(0);
    expect(status.result).toMatchObject({ outcome: 'completed', ran: true });
    const metric = status.result?.metric as { name: string; value: number | null };
    expect(metric.name).toBe('test_accuracy');
    expect(typeof metric.value).toBe('number');

    const result = await callJson<{ kind: string; text: string }>('read_run_file', {
      run: started.runId,
      path: 'result.json',
    });
    expect(result.kind).toBe('file');
    expect(JSON.parse(result.text)).toMatchObject({ runId: started.runId, outcome: 'completed' });
    const script = await callJson<{ text: string; nextOffset: number | null }>('read_run_file', {
      run: started.runId,
      path: 'methodology_implementation.py',
      maxBytes: 100,
    });
    expect(script.text).toBe(
      readFileSync(join(started.runDir, 'methodology_implementation.py'), 'utf8').slice(0, 100),
    );
    expect(script.nextOffset).toBe(100);
    const folder = await callJson<{ kind: string; entries: { name: string }[] }>('read_run_file', {
      run: started.runId,
      path: '.',
    });
    expect(folder.entries.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'events.jsonl',
        'result.json',
        'workspace',
        `mcp-output-${started.pid}.log`,
      ]),
    );
    const listed = await callJson<{ runs: { id: string; status: string }[] }>('list_runs', {});
    expect(listed.runs).toContainEqual(expect.objectContaining({ id: started.runId }));
  });

  it('stops a run, then resumes it to its end', async () => {
    const model = `replay:${join(recordings, 'yona-digits.jsonl')}`;
    const started = await callJson<Started>('start_implement', {
      task: 'examples/yona-digits',
      model,
    });
    // Step 1 (the edit) takes milliseconds; step 2 runs the training script for seconds.
    let status = await callJson<Status>('run_status', { run: started.runId });
    for (let waited = 0; status.steps < 1 && waited < 90_000; waited += 100) {
      await sleep(100);
      status = await callJson<Status>('run_status', { run: started.runId });
    }
    const stopped = await callJson<{ exited: boolean; pid: number }>('stop_run', {
      run: started.runId,
    });
    expect(stopped).toMatchObject({ exited: true, pid: started.pid });
    status = await callJson<Status>('run_status', { run: started.runId });
    expect(status).toMatchObject({ status: 'stopped', finished: true });
    const again = await call('stop_run', { run: started.runId });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('not running');

    const resumed = await callJson<Started>('resume_run', { run: started.runId, model });
    expect(resumed.runId).toBe(started.runId);
    expect(resumed.pid).not.toBe(started.pid);
    const end = await followToEnd(started.runId);
    expect(end.status).toBe('completed');
    expect(end.steps).toBeGreaterThanOrEqual(3);
    expect(end.result).toMatchObject({ outcome: 'completed', ran: true });
    const ended = await call('resume_run', { run: started.runId, model });
    expect(ended).toEqual({ isError: true, text: 'the run has already ended (completed)' });
  });

  it('steers an interactive run: lists its waiting question, answers it, the comment reaches the planner', async () => {
    const exchange = join(temporary, 'exchange-interactive');
    const model = answerExchange(exchange);
    try {
      const started = await callJson<Started>('start_implement', {
        task: 'test/fixtures/tasks/good-task',
        model: `exchange:${exchange}`,
        interactive: true,
        maxSteps: 5,
      });
      interface Listed {
        requests: { request: { id: string; kind: string }; answer?: unknown }[];
      }
      const waitingFor = async (id: string) => {
        for (let waited = 0; waited < 60_000; waited += 100) {
          const listed = await callJson<Listed>('feedback_requests', {
            run: started.runId,
            waiting: true,
          });
          if (listed.requests.some((entry) => entry.request.id === id)) return listed;
          await sleep(100);
        }
        throw new Error(`${id} was never asked`);
      };
      const first = await waitingFor('step-1');
      const live = await callJson<{ waiting: string[] }>('run_status', { run: started.runId });
      expect(live.waiting).toEqual(['step-1']);
      expect(first.requests[0]?.request.kind).toBe('approve');
      const unfit = await call('answer_feedback', {
        run: started.runId,
        request: 'step-1',
        decision: 'pick',
        picked: ['x'],
      });
      expect(unfit.isError).toBe(true);
      expect(unfit.text).toContain(
        '"step-1" asks to approve; answer it with approve, comment, stop',
      );
      const answered = await callJson<{ answer: unknown }>('answer_feedback', {
        run: started.runId,
        request: 'step-1',
        decision: 'comment',
        comment: 'Check the data loader before training.',
      });
      expect(answered.answer).toEqual({
        decision: 'comment',
        comment: 'Check the data loader before training.',
      });
      const again = await call('answer_feedback', {
        run: started.runId,
        request: 'step-1',
        decision: 'approve',
      });
      expect(again).toMatchObject({ isError: true });
      expect(again.text).toContain('answered already');

      await waitingFor('step-2');
      expect(model.prompts('planner')[1]).toContain('Check the data loader before training.');
      await callJson('answer_feedback', {
        run: started.runId,
        request: 'step-2',
        decision: 'stop',
      });
      const end = await followToEnd(started.runId);
      expect(end.status).toBe('stopped');
      const all = await callJson<Listed>('feedback_requests', { run: started.runId });
      expect(all.requests.map((entry) => entry.request.id)).toEqual(['step-1', 'step-2']);
    } finally {
      model.stop();
    }
  });

  it('starts an exploration and follows it to its ideas', async () => {
    const refused = await call('start_explore', {
      papers: ['examples/explore/paper.md'],
      run: 'top:1',
    });
    expect(refused).toEqual({
      isError: true,
      text: 'codify explore: run (--run) needs code (--code): the prototype folder the experiments start from',
    });
    const started = await callJson<Started>('start_explore', {
      papers: ['examples/explore/paper.md'],
      related: 'examples/explore/related.txt',
      ideas: 2,
      refineRounds: 0,
      run: 'top:2',
      code: 'examples/explore/prototype',
      maxSteps: 4,
      maxSeeds: 3,
      model: `replay:${join(recordings, 'explore-wine.jsonl')}`,
    });
    const end = await followToEnd(started.runId);
    expect(end.status).toBe('completed');
    expect(end.result).toMatchObject({ count: 2 });
    const ideas = await call('read_run_file', { run: started.runId, path: 'ideas.md' });
    expect(ideas.isError).toBe(false);
    expect(ideas.text).toContain('Standardize features before full-batch gradient descent');
  }, 240_000);

  it('starts a paper run and follows it to its repository', async () => {
    const started = await callJson<Started>('start_paper', {
      paper: 'examples/papers/mixup-tabular/paper.md',
      verify: false,
      model: `replay:${join(recordings, 'paper-mixup-tabular.jsonl')}`,
    });
    const status = await followToEnd(started.runId);
    expect(status.status).toBe('completed');
    expect(status.llmCalls).toBe(14);
    expect(status.result).toMatchObject({ repository: join(started.runDir, 'repo') });
    const requirements = await callJson<{ text: string }>('read_run_file', {
      run: started.runId,
      path: 'repo/requirements.txt',
    });
    expect(requirements.text.length).toBeGreaterThan(0);
  });

  it('never reads outside the run folder', async () => {
    const [run] = (await callJson<{ runs: { id: string }[] }>('list_runs', {})).runs;
    const runId = run?.id ?? '';
    expect(runId).not.toBe('');
    const outside = join(temporary, 'secret.txt');
    // A run-like folder outside the runs folder, named by its path.
    const elsewhere = join(temporary, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    cpSync(join(runsRoot, runId, 'events.jsonl'), join(elsewhere, 'events.jsonl'));
    writeFileSync(join(elsewhere, 'passwd'), 'secret');
    writeFileSync(outside, 'secret');
    symlinkSync('/etc/hostname', join(runsRoot, runId, 'link-out'));
    for (const path of [
      '../../secret.txt',
      '..',
      outside,
      '/etc/passwd',
      'workspace/../../..',
      'link-out',
    ]) {
      const answer = await call('read_run_file', { run: runId, path });
      expect(answer.isError, `${path}: ${answer.text}`).toBe(true);
      expect(answer.text).toMatch(/outside the run folder|does not exist/);
    }
    for (const reference of ['/etc', '..', elsewhere]) {
      const answer = await call('read_run_file', { run: reference, path: 'passwd' });
      expect(answer.isError, `${reference}: ${answer.text}`).toBe(true);
      expect(answer.text).not.toContain('secret');
    }
    const notInRoot = await call('run_status', { run: elsewhere });
    expect(notInRoot.text).toContain('is not a run in the runs folder');
    // The server is still answering.
    expect((await call('list_runs', {})).isError).toBe(false);
  });

  it('returns bad input as tool errors', async () => {
    const negative = await call('start_implement', { task: 'examples/yona-digits', maxSteps: -1 });
    expect(negative.isError).toBe(true);
    expect(negative.text).toContain('maxSteps');
    const missing = await call('start_implement', { task: join(temporary, 'nowhere') });
    expect(missing).toEqual({
      isError: true,
      text: `${join(temporary, 'nowhere')} does not exist on this machine`,
    });
    const badModel = await call('start_implement', {
      task: 'examples/yona-digits',
      model: 'nosuch:model',
    });
    expect(badModel.isError).toBe(true);
    expect(badModel.text).toContain('unknown provider "nosuch"');
    // The child reports the user's mistake (no methodology, no starter) before a run exists.
    const empty = join(temporary, 'empty-task');
    mkdirSync(empty);
    const invalid = await call('start_implement', {
      task: empty,
      model: `replay:${join(recordings, 'yona-digits.jsonl')}`,
    });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('stopped before starting a run (exit code 3)');
    expect(invalid.text).toContain('methodology_description.txt');
    const unknownRun = await call('run_status', { run: 'no-such-run' });
    expect(unknownRun.isError).toBe(true);
    expect(unknownRun.text).toContain('no run "no-such-run"');
  });
});
