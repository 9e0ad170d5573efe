import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { loadSuite } from '../../src/eval/suite/load-suite.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { AnswerRequest } from '../../src/llm/answerer.js';
import { readEvents } from '../../src/runs/read-events.js';
import { scriptedAnswerer } from './eval-fixture.js';

const root = resolve(import.meta.dirname, '../..');

/** Any judge answer the grading reads: a leaf grade for rubric leaves, else a 1–5 score. */
function judgeAnswer(request: AnswerRequest): string {
  if ((request.label ?? '').startsWith('rubric ')) {
    return '```json\n{"score": 1, "reason": "shown"}\n```';
  }
  return '```json\n{"critiques": [], "score": 3}\n```';
}

describe('codify eval run again on a judged evaluation', () => {
  it('logs what it really reuses: the finished runs kept, no judge call asked again', async () => {
    const recorded = loadSuite(join(root, 'examples/eval/ci-suite.yaml'));
    const suite = {
      ...recorded,
      // the suite's judge without its recording: the scripted judge below answers
      judge: { ...recorded.judge, model: undefined },
    };
    const config = defaultConfig();
    config.roles.judge.models = ['scripted:judge'];
    const evalDir = join(mkdtempSync(join(tmpdir(), 'codify-eval-rerun-')), 'evaluation');
    const judge = scriptedAnswerer(judgeAnswer);
    const options = {
      suite,
      evalDir,
      baseConfig: config,
      answerers: (spec: string) => (spec === 'scripted:judge' ? judge : undefined),
    };
    await runEvaluation(options);
    const judgeCalls = readEvents(evalDir).events.filter((event) => event.type === 'llm-end');
    expect(judgeCalls.length).toBeGreaterThan(0);
    const asked = judge.requests.length;

    const again = await runEvaluation(options);
    expect(again.started).toBe(0);
    expect(judge.requests).toHaveLength(asked);
    const log = readEvents(evalDir).events;
    const secondStart = log.findLastIndex((event) => event.type === 'run-start');
    const notes = log
      .slice(secondStart)
      .flatMap((event) => (event.type === 'log' ? [event.message] : []));
    // Not "resuming: N completed model calls are answered from the log": none was asked.
    expect(notes.some((message) => message.startsWith('resuming:'))).toBe(false);
    expect(notes).toContain(
      `continuing the evaluation: 2 runs kept as earlier invocations left them, 0 interrupted runs continued, 0 of the ${judgeCalls.length} judge calls in the log answered from it (not paid again)`,
    );
  }, 240_000);
});
