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
    // what changes lies after the prefix, in the user message
    const third = planner[2]?.messages[0]?.content ?? '';
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
});
