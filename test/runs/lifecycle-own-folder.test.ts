import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { EventOf } from '../../src/runs/events.js';
import { withRun, type RunScope } from '../../src/runs/lifecycle.js';
import { readEvents } from '../../src/runs/read-events.js';
import { createRun } from '../../src/runs/run.js';

/** One model call; the run completes with its answer. */
async function askOnce(scope: RunScope) {
  const answer = await scope.models.call({
    role: 'judge',
    messages: [{ role: 'user', content: 'grade it' }],
  });
  return { status: 'completed' as const, value: answer.text };
}

describe('withRun in a folder of its own (an evaluation)', () => {
  it('makes the run there, and every later opening continues it, completed or not, its completed calls answered from the log', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'codify-own-folder-')), 'evaluation');
    const opening = { mode: 'eval' as const, name: 'suite', dir };
    const first = await withRun(
      opening,
      {},
      (run) => createScriptedCaller({ judge: ['5'] }, { run }).caller,
      askOnce,
    );
    let again: ReturnType<typeof createScriptedCaller> | undefined;
    const second = await withRun(
      opening,
      {},
      (run) => {
        again = createScriptedCaller({ judge: ['never asked'] }, { run });
        return again.caller;
      },
      askOnce,
    );
    expect([first, second]).toEqual(['5', '5']);
    expect(again?.requests.judge ?? []).toHaveLength(0);
    const { events } = readEvents(dir);
    const starts = events.filter(
      (event): event is EventOf<'run-start'> => event.type === 'run-start',
    );
    expect(starts.map((start) => [start.runId, start.resumedFrom !== undefined])).toEqual([
      ['evaluation', false],
      ['evaluation', true],
    ]);
    expect(events.filter((event) => event.type === 'llm-end')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    // createRun itself never writes over a run.
    expect(() => createRun({ mode: 'eval', name: 'suite', dir })).toThrow('already holds a run');
  });
});
