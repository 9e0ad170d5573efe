import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findAction } from '../../src/agent/actions/index.js';
import type { ActionDefinition } from '../../src/agent/actions/types.js';
import { runImplement } from '../../src/agent/implement.js';
import { echoLong, listFiles } from './fake-actions.js';
import { plannerAnswer, scriptedCaller } from './scripted-caller.js';
import { makeTask } from './task-fixture.js';

/** Everything a planner request sends after the system prompt, its messages joined. */
const promptText = (request: { messages: { content: string }[] } | undefined): string =>
  (request?.messages ?? []).map((message) => message.content).join('\n\n');

const finalAction = findAction('Final Answer');
if (finalAction === undefined) throw new Error('no Final Answer action');
const actions = [listFiles, echoLong, finalAction] as ActionDefinition[];

/**
 * An implement run whose planner lists files until step `finalAt`, then gives the Final
 * Answer; the scripted models keep every request.
 */
async function listingRun(finalAt: number, maxSteps: number) {
  const { taskDir, runsRoot } = makeTask({ performance: true });
  const models = scriptedCaller({
    planner: (_request, step) =>
      step < finalAt
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
    agent: { maxSteps },
  });
  const planner = models.requests.filter((request) => request.role === 'planner');
  return { result, models, planner };
}

describe('the planner prompt for provider caches', () => {
  it('keeps the problem, actions and format in a system prefix identical at every step, tells the budgets, and summarizes no step after the Final Answer', async () => {
    const { result, models, planner } = await listingRun(3, 9);
    expect(result.outcome).toBe('completed');
    expect(planner).toHaveLength(3);
    const system = planner[0]?.system ?? '';
    expect(system).toContain('# Research problem');
    expect(system).toContain('## List Files');
    expect(system).toContain('Always answer in exactly this format');
    expect(planner.every((request) => request.system === system)).toBe(true);
    // what changes lies after the prefix, in the last user message
    const third = promptText(planner[2]);
    expect(third).not.toContain('# Research problem');
    expect(third).toContain('## Step 2');
    expect(third).toContain('- Steps: this is step 3 of at most 9 (6 left after it).');
    // no step left the steps shown in full, so none was summarized (no planner reads the entries)
    expect(models.requests.filter((request) => request.role === 'summarizer')).toEqual([]);
    const log = readFileSync(join(result.runDir, 'research_log.md'), 'utf8');
    expect(log).toContain('## Step 1: List Files');
    expect(log).toContain('## Step 3: Final Answer');
  });

  it('sends the log and the steps in full as blocks that only grow between folds, each marked for the cache', async () => {
    const { planner, models } = await listingRun(8, 9);
    expect(planner).toHaveLength(8);
    // steps 1-3 are summarized when they are folded: after step 6, before step 7's planner call
    const order = models.requests.map((request) => request.label ?? request.role);
    const summaries = order.filter((label) => label.startsWith('summarize'));
    expect(summaries).toEqual(['summarize step 1', 'summarize step 2', 'summarize step 3']);
    const planners = order.flatMap((label, index) => (label.startsWith('step ') ? [index] : []));
    const firstSummary = order.indexOf('summarize step 1');
    expect(firstSummary).toBeGreaterThan(planners[5] ?? Infinity);
    expect(order.indexOf('summarize step 3')).toBeLessThan(planners[6] ?? -1);
    expect(planner[6]?.messages.map((message) => message.content).join('\n')).toContain(
      'Summary (summarize step 2).',
    );
    // the growing part: every message but the step's own prompt, the last of each block
    // marked; a block appears with its first entry (no empty headings at step 1)
    const growing = planner.map((request) => request.messages.slice(0, -1));
    expect(growing[0]).toEqual([]);
    for (const [index, messages] of growing.entries()) {
      expect(planner[index]?.messages.at(-1)?.cacheMark).toBeUndefined();
      if (index === 0) continue;
      const folded = index >= 6;
      expect(messages[0]?.content).toMatch(
        folded ? /^# Research log/ : /^# Previous steps in full/,
      );
      const marks = messages.flatMap((message, position) =>
        message.cacheMark === true ? [position] : [],
      );
      expect(marks).toHaveLength(folded ? 2 : 1);
      expect(marks.at(-1)).toBe(messages.length - 1);
      if (folded)
        expect(messages[(marks[0] ?? 0) + 1]?.content).toMatch(/^# Previous steps in full/);
      const next = growing[index + 1];
      if (next === undefined) continue;
      const text = messages.map((message) => message.content).join('\u0000');
      const nextText = next.map((message) => message.content).join('\u0000');
      // between folds (steps 1-3 are folded before step 7) the whole growing part of step N
      // is a prefix of step N+1's; once there is a log, the log always is
      const log = (list: typeof messages) =>
        list
          .slice(0, (list.findIndex((message) => message.cacheMark === true) ?? 0) + 1)
          .map((message) => message.content)
          .join('\u0000');
      if (folded)
        expect(log(next).startsWith(log(messages)), `log at step ${index + 2}`).toBe(true);
      if (index + 1 !== 6) expect(nextText.startsWith(text)).toBe(true);
    }
    // step 7 is the first after a fold: steps 1-3 in the log, 4-6 in full, each once
    const seventh = planner[6]?.messages ?? [];
    const steps = seventh.map((message) => /^## Step (\d+)/.exec(message.content)?.[1]);
    expect(steps.filter((step) => step !== undefined)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(seventh[3]?.cacheMark).toBe(true);
    expect(seventh[4]?.content).toMatch(/^# Previous steps in full/);
  });

  it('gives a run of a few steps the few-steps "What to deliver" and says the last step is the final answer', async () => {
    const { planner } = await listingRun(4, 4);
    expect(planner).toHaveLength(4);
    expect(planner[0]?.system).toContain('## What to deliver in 4 steps');
    expect(planner[0]?.system).not.toContain('(Copy File)');
    expect(promptText(planner[3])).toContain(
      'this is step 4 of at most 4, the last: your action must be Final Answer',
    );
  });
});
