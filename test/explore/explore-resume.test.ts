import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExploreInputError } from '../../src/explore/explore-input-error.js';
import { resumeExplore, runExplore, type ExploreSettings } from '../../src/explore/run-explore.js';
import { createScriptedCaller, type ScriptedCaller } from '../../src/llm/scripted-model.js';
import type { ModelCaller, RoleName } from '../../src/llm/types.js';
import { RunStopped } from '../../src/errors/run-stopped.js';
import type { EventOf } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { Run } from '../../src/runs/run.js';
import { analysisAnswer, ideaCard, json, mixupPaper, review } from './explore-fixtures.js';

const settings: ExploreSettings = {
  paperPaths: [mixupPaper],
  ideas: 1,
  reviewers: 1,
  refineRounds: 1,
  budgetMinutes: 5,
  gpu: false,
  paperMaxChars: 60_000,
};

function scripted(script: Partial<Record<RoleName, (string | Error)[]>>) {
  const built: ScriptedCaller[] = [];
  return {
    models: (run: Run) => {
      const caller = createScriptedCaller(script, { run });
      built.push(caller);
      return caller.caller;
    },
    requests: () => built[0]?.requests,
  };
}

describe('codify explore --resume', () => {
  it('continues an interrupted exploration without paying for its completed calls again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-resume-'));
    const card = ideaCard('Class-aware mixup');
    // The model fails (not a retryable error) at the refinement: analysis, ideas and the
    // first review are done and paid for.
    const first = scripted({
      planner: [json(analysisAnswer()), json({ ideas: [card] }), new Error('provider went away')],
      judge: [json(review(3))],
    });
    let runDir = '';
    await expect(
      runExplore({
        settings,
        models: first.models,
        host: {
          runsRoot: root,
          argv: ['explore'],
          onRun: (run) => {
            runDir = run.dir;
          },
        },
      }),
    ).rejects.toThrow(/provider went away/);

    const second = scripted({
      planner: [json({ ...card, rationale: 'Refined after review.' })],
      judge: [json(review(4))],
    });
    const result = await resumeExplore(runDir, {
      models: second.models,
      host: { runsRoot: root, argv: ['explore', '--resume', runDir] },
    });
    expect(result.run.dir).toBe(runDir);
    // Analysis and ideas are finished stages, returned from the run folder without a call;
    // the first review, inside the stage that failed, is answered from the log.
    expect(result.reusedCalls).toBe(1);
    // Only the refinement and the second review reached the model.
    const asked = second.requests();
    expect(asked?.planner).toHaveLength(1);
    expect(asked?.planner[0]?.messages[0]?.content).toContain('Revise this research idea');
    expect(asked?.judge).toHaveLength(1);
    expect(result.exploration.ideas[0]?.reviews.map((entry) => entry.overall)).toEqual([3, 4]);
    expect(result.exploration.ideas[0]?.card.rationale).toBe('Refined after review.');

    const { events } = readEvents(runDir);
    const paid = events.filter((event) => event.type === 'llm-end');
    // 3 before the failure + 2 after: no call appears twice in the log.
    expect(paid).toHaveLength(5);
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
    const resumedStages = events
      .slice(events.findLastIndex((event) => event.type === 'run-start'))
      .filter((event): event is EventOf<'stage-end'> => event.type === 'stage-end')
      .map((end) => [end.stage, end.reused ?? false]);
    expect(resumedStages).toEqual([
      ['ingest', true],
      ['analysis', true],
      ['ideas', true],
      ['review', false],
      ['novelty', false],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
    expect(readFileSync(join(runDir, 'ideas.md'), 'utf8')).toContain('Class-aware mixup');

    await expect(
      resumeExplore(runDir, { models: second.models, host: { runsRoot: root } }),
    ).rejects.toThrow(ExploreInputError);
  });

  it('a stop while the judge answers ends the run `stopped`; the resume keeps its finished stages', async () => {
    const root = mkdtempSync(join(tmpdir(), 'explore-stop-'));
    const card = ideaCard('Class-aware mixup');
    const controller = new AbortController();
    const first = scripted({ planner: [json(analysisAnswer()), json({ ideas: [card] })] });
    let runDir = '';
    // The judge's call is in flight when SIGTERM arrives: it ends only when the signal the
    // request carries is aborted (a request without the run's signal would never end).
    const stopAtJudge = (run: Run): ModelCaller => {
      const inner = first.models(run);
      return {
        levels: (role) => inner.levels(role),
        spec: (role, level) => inner.spec(role, level),
        call: (request) => {
          if (request.role !== 'judge') return inner.call(request);
          return new Promise((_resolve, reject) => {
            request.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
            controller.abort(new Error('interrupted by SIGTERM'));
          });
        },
      };
    };
    const stopped = await runExplore({
      settings: { ...settings, refineRounds: 0 },
      models: stopAtJudge,
      host: {
        runsRoot: root,
        signal: controller.signal,
        onRun: (run) => {
          runDir = run.dir;
        },
      },
    }).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(RunStopped);
    expect((stopped as RunStopped).exitCode).toBe(143);
    const events = readEvents(runDir).events;
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    expect(events.findLast((event) => event.type === 'stage-end')).toMatchObject({
      stage: 'review',
      ok: false,
    });

    const second = scripted({ judge: [json(review(4))] });
    const result = await resumeExplore(runDir, { models: second.models, host: { runsRoot: root } });
    expect(result.exploration.ideas[0]?.score).toBe(4);
    expect(second.requests()?.planner).toHaveLength(0);
    expect(second.requests()?.judge).toHaveLength(1);
    expect(readEvents(runDir).events.filter((event) => event.type === 'llm-end')).toHaveLength(3);
  });
});
