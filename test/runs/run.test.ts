import { mkdtempSync, readdirSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodifyEvent } from '../../src/runs/events.js';
import { readEvents } from '../../src/runs/read-events.js';
import { createRun, openRun } from '../../src/runs/run.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function temporaryRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'codify-runs-'));
  roots.push(root);
  return root;
}

describe('createRun', () => {
  it('makes a dated, named folder and writes run-start first', () => {
    const root = temporaryRoot();
    const run = createRun({
      root,
      mode: 'implement',
      name: 'Mixture of Experts: Täsk #1',
      argv: ['implement', 'tasks/moe'],
      models: { planner: ['openai:gpt-4o'] },
      task: 'tasks/moe',
      now: new Date(2026, 0, 2, 3, 4, 5),
    });
    expect(readdirSync(root)).toEqual([run.id]);
    expect(run.id).toMatch(/^20260102-030405-mixture-of-experts-task-1-[0-9a-f]{6}$/);
    expect(run.dir).toBe(join(root, run.id));
    run.close('completed');
    const [start] = readEvents(run.dir).events;
    expect(start).toMatchObject({
      type: 'run-start',
      seq: 1,
      runId: run.id,
      mode: 'implement',
      name: 'Mixture of Experts: Täsk #1',
      argv: ['implement', 'tasks/moe'],
      models: { planner: ['openai:gpt-4o'] },
      task: 'tasks/moe',
      pid: process.pid,
    });
  });

  it('uses CODIFY_RUNS_DIR when no root is given', () => {
    const root = temporaryRoot();
    const saved = process.env.CODIFY_RUNS_DIR;
    process.env.CODIFY_RUNS_DIR = root;
    try {
      const run = createRun({ mode: 'paper', name: 'x' });
      run.close('completed');
      expect(run.dir.startsWith(root)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.CODIFY_RUNS_DIR;
      else process.env.CODIFY_RUNS_DIR = saved;
    }
  });

  it('numbers events, writes each before telling subscribers, and ends with totals', () => {
    const root = temporaryRoot();
    const run = createRun({ root, mode: 'implement', name: 'count', argv: [] });
    const seen: Array<{ seq: number; linesOnDisk: number }> = [];
    const unsubscribe = run.subscribe((event: CodifyEvent) => {
      const lines = readFileSync(join(run.dir, 'events.jsonl'), 'utf8').trimEnd().split('\n');
      seen.push({ seq: event.seq, linesOnDisk: lines.length });
    });
    run.emit({ type: 'step-start', step: 1 });
    run.emit(llmEnd(1, 0.002));
    run.emit(llmEnd(2, null));
    run.emit({ type: 'step-end', step: 1, action: 'List Files' });
    unsubscribe();
    run.emit({ type: 'step-start', step: 2 });
    const end = run.close('completed', 'done', { metric: 0.91 });
    expect(seen).toEqual([
      { seq: 2, linesOnDisk: 2 },
      { seq: 3, linesOnDisk: 3 },
      { seq: 4, linesOnDisk: 4 },
      { seq: 5, linesOnDisk: 5 },
    ]);
    expect(end).toMatchObject({
      type: 'run-end',
      seq: 7,
      status: 'completed',
      reason: 'done',
      result: { metric: 0.91 },
      totals: {
        steps: 1,
        llmCalls: 2,
        inputTokens: 200,
        outputTokens: 20,
        costUsd: 0.002,
        unpricedCalls: 1,
      },
    });
    expect(run.close('failed')).toBeUndefined();
    expect(() => run.emit({ type: 'step-start', step: 3 })).toThrow(/closed/);
  });

  it('hands run-start to sinks given at creation', () => {
    const root = temporaryRoot();
    const seen: string[] = [];
    const run = createRun({
      root,
      mode: 'eval',
      name: 'sinks',
      argv: [],
      sinks: [(event) => seen.push(event.type)],
    });
    run.close('completed');
    expect(seen).toEqual(['run-start', 'run-end']);
  });

  it('keeps running when a subscriber throws', () => {
    const root = temporaryRoot();
    const run = createRun({ root, mode: 'implement', name: 'sink', argv: [] });
    run.subscribe(() => {
      throw new Error('display broke');
    });
    const originalWrite = process.stderr.write.bind(process.stderr);
    const errors: string[] = [];
    process.stderr.write = (chunk: string) => errors.push(chunk) > 0;
    try {
      run.emit({ type: 'step-start', step: 1 });
    } finally {
      process.stderr.write = originalWrite;
    }
    run.close('completed');
    expect(errors.join('')).toMatch(/display broke/);
    expect(readEvents(run.dir).events.map((event) => event.type)).toEqual([
      'run-start',
      'step-start',
      'run-end',
    ]);
  });
});

describe('openRun', () => {
  it('continues sequence numbers and totals, by id or prefix, after a kill mid-write', () => {
    const root = temporaryRoot();
    const first = createRun({ root, mode: 'implement', name: 'resumable', argv: ['implement'] });
    first.emit({ type: 'step-start', step: 1 });
    first.emit(llmEnd(1, 0.01));
    first.emit({ type: 'step-end', step: 1, action: 'Edit Script' });
    // Simulate a kill: no run-end, and half of an event on the last line.
    appendFileSync(join(first.dir, 'events.jsonl'), '{"type":"step-start","ste');

    const reopened = openRun(first.id.slice(0, 22), { root, argv: ['resume', 'x'] });
    expect(reopened.dir).toBe(first.dir);
    expect(reopened.mode).toBe('implement');
    expect(reopened.name).toBe('resumable');
    reopened.emit({ type: 'step-start', step: 2 });
    const end = reopened.close('completed');

    const { events, problems, partialBytes } = readEvents(first.dir);
    expect(problems).toEqual([]);
    expect(partialBytes).toBe(0);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events[4]).toMatchObject({ type: 'run-start', resumedFrom: 4, argv: ['resume', 'x'] });
    expect(events[5]).toMatchObject({ type: 'log', level: 'warn' });
    expect(end).toMatchObject({ totals: { steps: 1, llmCalls: 1, costUsd: 0.01 } });
  });

  it('names the closest runs when the reference matches none', () => {
    const root = temporaryRoot();
    createRun({ root, mode: 'implement', name: 'cifar resnet', argv: [] }).close('completed');
    createRun({ root, mode: 'paper', name: 'attention', argv: [] }).close('completed');
    expect(() => openRun('cifar-resnte', { root })).toThrow(/cifar-resnet/);
  });
});

function llmEnd(callId: number, costUsd: number | null) {
  return {
    type: 'llm-end' as const,
    callId,
    role: 'planner' as const,
    model: 'openai:gpt-4o',
    messages: [{ role: 'user' as const, content: 'hello' }],
    text: 'answer',
    usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0 },
    costUsd,
    latencyMs: 1200,
    attempts: 1,
  };
}
