import { describe, expect, it } from 'vitest';
import { findAction } from '../../src/agent/actions/index.js';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { runImplement } from '../../src/agent/implement.js';
import { echoLong, listFiles } from './fake-actions.js';
import { plannerAnswer, scriptedCaller } from './scripted-caller.js';
import { makeTask } from './task-fixture.js';

const finalAction = findAction('Final Answer');
if (finalAction === undefined) throw new Error('no Final Answer action');
const actions = [listFiles, echoLong, finalAction] as ActionDefinition[];

describe('the planner prompt for provider caches', () => {
  it('keeps the problem, actions and format in a system prefix identical at every step, tells the budgets, and summarizes no step after the Final Answer', async () => {
    const { taskDir, runsRoot } = makeTask({ performance: true });
    const models = scriptedCaller({
      planner: (_request, step) =>
        step < 3
          ? plannerAnswer('List Files', { dir_path: '.' })
          : plannerAnswer('Final Answer', { final_script: 'starter_code.py', summary: 'done' }),
    });
    const result = await runImplement({
      taskDir,
      runsRoot,
      models,
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions,
      agent: { maxSteps: 9 },
    });
    expect(result.outcome).toBe('completed');
    const planner = models.requests.filter((request) => request.role === 'planner');
    expect(planner).toHaveLength(3);
    const system = planner[0]?.system ?? '';
    expect(system).toContain('# Research problem');
    expect(system).toContain('## List Files');
    expect(system).toContain('Always answer in exactly this format');
    expect(planner.every((request) => request.system === system)).toBe(true);
    // what changes lies after the prefix, in the last user message
    const third = planner[2]?.messages.at(-1)?.content ?? '';
    expect(third).not.toContain('# Research problem');
    expect(third).toContain('## Step 2');
    expect(third).toContain('- Steps: this is step 3 of at most 9 (6 left after it).');
    // two steps summarized; the Final Answer step is logged without a call
    const summaries = models.requests.filter((request) => request.role === 'summarizer');
    expect(summaries.map((request) => request.label)).toEqual([
      'summarize step 1',
      'summarize step 2',
    ]);
  });

  it('sends the older steps as an append-only history before the recent steps, marked for the cache', async () => {
    const { taskDir, runsRoot } = makeTask({ performance: true });
    const models = scriptedCaller({
      planner: (_request, step) =>
        step < 8
          ? plannerAnswer('List Files', { dir_path: '.' })
          : plannerAnswer('Final Answer', { final_script: 'starter_code.py', summary: 'done' }),
    });
    await runImplement({
      taskDir,
      runsRoot,
      models,
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions,
      agent: { maxSteps: 9 },
    });
    const planner = models.requests.filter((request) => request.role === 'planner');
    expect(planner).toHaveLength(8);
    const history = planner.map((request) => request.messages.slice(0, -1));
    for (const [index, messages] of history.entries()) {
      // the history's last message ends the cached prefix; the step's prompt is not marked
      expect(messages.at(-1)?.cacheMark).toBe(true);
      expect(messages.slice(0, -1).every((message) => message.cacheMark === undefined)).toBe(true);
      expect(planner[index]?.messages.at(-1)?.cacheMark).toBeUndefined();
      expect(messages[0]?.content).toMatch(/^# Research log/);
      const next = history[index + 1];
      if (next === undefined) continue;
      const text = messages.map((message) => message.content).join('\u0000');
      const nextText = next.map((message) => message.content).join('\u0000');
      expect(nextText.startsWith(text)).toBe(true);
    }
    // step 8 shows steps 5-7 in full; steps 1-4 are in its history, each once
    const last = planner[7];
    const older = (last?.messages ?? []).slice(1, -1).map((message) => message.content);
    expect(older.map((text) => /^## Step (\d+)/.exec(text)?.[1])).toEqual(['1', '2', '3', '4']);
    const prompt = last?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('## Step 7');
    expect(prompt).not.toContain('## Step 4');
  });

  it('gives a run of a few steps the few-steps "What to deliver" and says the last step is the final answer', async () => {
    const { taskDir, runsRoot } = makeTask({ performance: true });
    const models = scriptedCaller({
      planner: (_request, step) =>
        step < 4
          ? plannerAnswer('List Files', { dir_path: '.' })
          : plannerAnswer('Final Answer', { final_script: 'starter_code.py', summary: 'done' }),
    });
    await runImplement({
      taskDir,
      runsRoot,
      models,
      sandbox: 'none',
      python: '/usr/bin/python3',
      actions,
      agent: { maxSteps: 4 },
    });
    const planner = models.requests.filter((request) => request.role === 'planner');
    expect(planner).toHaveLength(4);
    expect(planner[0]?.system).toContain('## What to deliver in 4 steps');
    expect(planner[0]?.system).not.toContain('(Copy File)');
    expect(planner[3]?.messages.at(-1)?.content).toContain(
      'this is step 4 of at most 4, the last: your action must be Final Answer',
    );
  });
});
