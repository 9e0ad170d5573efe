import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/errors/exit-codes.js';
import { fixtureTask } from '../tasks/fixture-paths.js';

/**
 * README "Exit codes": one table for every command. Each row is shown here by a real
 * command that ends that way (130 and 143: test/agent/interrupt-cli.test.ts and the modes'
 * stop tests).
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'codify-exit-codes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function codify(args: string[], env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args],
    {
      cwd: root,
      env: { ...process.env, CI: 'true', OPENAI_API_KEY: '', ...env },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  return { child, exited, output: () => output };
}

async function exitOf(args: string[], env?: Record<string, string>) {
  const run = codify(args, env);
  return { code: await run.exited, output: run.output() };
}

describe('exit codes', () => {
  it('0: the command did what was asked', async () => {
    const { code, output } = await exitOf(['check', fixtureTask('good-task')]);
    expect(code, output).toBe(exitCodes.ok);
  });

  it('1: the run ended without what was asked (the final script does not run)', async () => {
    const exchange = join(scratch, 'exchange-failed');
    const run = codify([
      'implement',
      fixtureTask('good-task'),
      '--strategy',
      'single-call',
      '--model',
      `exchange:${exchange}`,
      '--root',
      join(scratch, 'runs-failed'),
    ]);
    for (let waited = 0; waited < 60_000; waited += 50) {
      const request = (() => {
        try {
          return readdirSync(exchange).find((file) => file.endsWith('.request.json'));
        } catch {
          return undefined;
        }
      })();
      if (request !== undefined) {
        const { response } = JSON.parse(readFileSync(join(exchange, request), 'utf8')) as {
          response: string;
        };
        writeFileSync(response, '```python\nraise SystemExit(3)\n```\n');
        break;
      }
      await sleep(50);
    }
    expect(await run.exited, run.output()).toBe(exitCodes.runFailed);
  });

  it('2: a usage error (unknown option, bad flag value, no model)', async () => {
    expect((await exitOf(['implement', fixtureTask('good-task'), '--no-such-flag'])).code).toBe(
      exitCodes.usage,
    );
    expect((await exitOf(['implement', fixtureTask('good-task'), '--max-steps', '2.5'])).code).toBe(
      exitCodes.usage,
    );
    const noModel = await exitOf(['implement', fixtureTask('good-task')], { CODIFY_MODEL: '' });
    expect(noModel.code, noModel.output).toBe(exitCodes.usage);
    expect(noModel.output).toContain('--model');
  });

  it('3: an input the user named is missing or invalid', async () => {
    const missing = await exitOf([
      'implement',
      join(scratch, 'no-such-task'),
      '--model',
      'replay:examples/recordings/yona-digits.jsonl',
    ]);
    expect(missing.code, missing.output).toBe(exitCodes.input);
    const recording = await exitOf([
      'implement',
      fixtureTask('good-task'),
      '--model',
      `replay:${join(scratch, 'no-such-recording.jsonl')}`,
    ]);
    expect(recording.code, recording.output).toBe(exitCodes.input);
  });

  it('4: this machine cannot do it (no interpreter given works, no API key)', async () => {
    const python = await exitOf([
      'check',
      fixtureTask('good-task'),
      '--python',
      '/nonexistent/python3',
    ]);
    expect(python.code, python.output).toBe(exitCodes.environment);
    const key = await exitOf(['implement', fixtureTask('good-task'), '--model', 'openai:gpt-4o']);
    expect(key.code, key.output).toBe(exitCodes.environment);
    expect(key.output).toContain('OPENAI_API_KEY');
  });

  it('5: a model call failed and the run could not go on', async () => {
    // A recording with fewer answers than the session asks for.
    const short = join(scratch, 'short.jsonl');
    const [first] = readFileSync(
      join(root, 'examples/recordings/yona-digits-single-call.jsonl'),
      'utf8',
    ).split('\n');
    writeFileSync(short, `${(first ?? '').replace('"content":"', '"content":"changed ')}\n`);
    const { code, output } = await exitOf([
      'implement',
      'examples/yona-digits',
      '--strategy',
      'single-call',
      '--model',
      `replay:${short}`,
      '--root',
      join(scratch, 'runs-model'),
    ]);
    expect(code, output).toBe(exitCodes.model);
    expect(output).toContain('replay');
  });

  it('6 and 7: the starter fails, or prints no metric', async () => {
    const crash = await exitOf(['check', fixtureTask('crashing-task')]);
    expect(crash.code, crash.output).toBe(exitCodes.starterFailed);
    const task = join(scratch, 'no-metric');
    const { cpSync } = await import('node:fs');
    cpSync(fixtureTask('good-task'), task, { recursive: true });
    writeFileSync(
      join(task, 'task.json'),
      JSON.stringify({ metric: { name: 'f1', pattern: 'f1=([0-9.]+)', goal: 'max' } }),
    );
    const metric = await exitOf(['check', task]);
    expect(metric.code, metric.output).toBe(exitCodes.metricNotFound);
  });
});
