import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImplement } from '../../src/agent/implement.js';
import { lastCheckpoint, resumeAgent } from '../../src/agent/resume.js';
import { readEvents } from '../../src/runs/read-events.js';
import { resumeActions, resumePlanner } from './resume-script.js';
import { scriptedCaller } from './scripted-caller.js';
import { makeTask } from './task-fixture.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function stepEnds(runsRoot: string): { runDir?: string; count: number } {
  if (!existsSync(runsRoot)) return { count: 0 };
  const [id] = readdirSync(runsRoot);
  if (id === undefined) return { count: 0 };
  const runDir = join(runsRoot, id);
  if (!existsSync(join(runDir, 'events.jsonl'))) return { runDir, count: 0 };
  const count = readEvents(runDir).events.filter((event) => event.type === 'step-end').length;
  return { runDir, count };
}

describe('resume', () => {
  it('continues a run killed with SIGKILL to the same final script without re-asking completed calls', async () => {
    const unkilled = makeTask();
    const reference = await runImplement({
      taskDir: unkilled.taskDir,
      runsRoot: unkilled.runsRoot,
      models: scriptedCaller({ planner: (_request, step) => resumePlanner(step) }),
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions: resumeActions(),
    });
    expect(reference.outcome).toBe('completed');

    const { taskDir, runsRoot } = makeTask();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/agent/resume-child.ts', taskDir, runsRoot],
      { stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    let progress = stepEnds(runsRoot);
    for (let waited = 0; progress.count < 3 && waited < 60_000; waited += 20) {
      await sleep(20);
      progress = stepEnds(runsRoot);
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const runDir = progress.runDir ?? '';
    expect(existsSync(join(runDir, 'result.json'))).toBe(false);
    const checkpoint = lastCheckpoint(runDir);
    const completed = checkpoint?.step ?? 0;
    expect(completed).toBeGreaterThanOrEqual(3);
    expect(completed).toBeLessThan(6);

    const models = scriptedCaller({ planner: (_request, step) => resumePlanner(step) });
    const resumed = await resumeAgent(runDir, { models, actions: resumeActions(), runsRoot });
    expect(resumed.outcome).toBe('completed');
    expect(readFileSync(join(runDir, 'methodology_implementation.py'), 'utf8')).toBe(
      readFileSync(join(reference.runDir, 'methodology_implementation.py'), 'utf8'),
    );
    expect(resumed.metric?.value).toBe(reference.metric?.value);
    expect(resumed.steps).toBe(reference.steps);
    const asked = models.requests.map((request) => request.label ?? '');
    for (let step = 1; step <= completed; step += 1) {
      expect(asked).not.toContain(`step ${step}`);
      expect(asked).not.toContain(`summarize step ${step}`);
    }
    expect(asked).toContain(`step ${completed + 1}`);
    const events = readEvents(runDir).events;
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'run-end')).toHaveLength(1);
    const log = readFileSync(join(runDir, 'research_log.md'), 'utf8');
    expect(log.match(/## Step \d+:/g)).toHaveLength(reference.steps);
    // A resumed run that already ended gives back its result.
    const again = await resumeAgent(runDir, { models, actions: resumeActions(), runsRoot });
    expect(again.outcome).toBe('completed');
  });

  it('continues a run that spent its step budget once a budget flag raises it', async () => {
    const { taskDir, runsRoot } = makeTask();
    const planner = scriptedCaller({ planner: (_request, step) => resumePlanner(step) });
    const spent = await runImplement({
      taskDir,
      runsRoot,
      models: planner,
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions: resumeActions(),
      agent: { maxSteps: 2 },
    });
    expect(spent.outcome).toBe('budget-exhausted');
    const runDir = spent.runDir;
    const models = scriptedCaller({ planner: (_request, step) => resumePlanner(step) });
    // Without a budget flag the ended run gives back its result and asks nothing.
    const unchanged = await resumeAgent(runDir, { models, actions: resumeActions(), runsRoot });
    expect(unchanged).toEqual(spent);
    expect(models.requests).toHaveLength(0);

    const raised = await resumeAgent(runDir, {
      models,
      actions: resumeActions(),
      runsRoot,
      agent: { maxSteps: 10 },
    });
    expect(raised.outcome).toBe('completed');
    expect(raised.steps).toBeGreaterThan(spent.steps);
    expect(raised.ran).toBe(true);
    const asked = models.requests.map((request) => request.label ?? '');
    expect(asked).toContain(`step ${spent.steps + 1}`);
    expect(asked).not.toContain(`step ${spent.steps}`);
    const ends = readEvents(runDir).events.filter((event) => event.type === 'run-end');
    expect(ends.map((event) => event.status)).toEqual(['budget-exhausted', 'completed']);
  });
});
