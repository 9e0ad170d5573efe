import { describe, expect, it } from 'vitest';
import { renderColumns, renderTable } from './render-table.js';
import { sampleRun } from './sample-events.test-helper.js';
import { createTerminalRenderer } from './terminal-renderer.js';

function bufferStream(columns = 200) {
  const chunks: string[] = [];
  return { chunks, stream: { columns, write: (text: string) => chunks.push(text) } };
}

describe('createTerminalRenderer', () => {
  it('prints plain lines and no control codes when not a TTY', () => {
    const { chunks, stream } = bufferStream();
    const render = createTerminalRenderer({ stream, isTTY: false });
    for (const event of sampleRun) render(event);
    render.finish();
    const output = chunks.join('');
    expect(output).not.toContain('\x1b');
    expect(output).not.toContain('\r');
    expect(output.split('\n')).toHaveLength(11);
    expect(output).toContain('exec train.py --epochs 1 → exit 0 in 12.3s');
  });

  it('prints each event as one JSON line in json mode', () => {
    const { chunks, stream } = bufferStream();
    const render = createTerminalRenderer({ stream, json: true, isTTY: true });
    for (const event of sampleRun) render(event);
    render.finish();
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(sampleRun);
  });

  it('redraws a status line in place on a TTY and clears it when finished', () => {
    const { chunks, stream } = bufferStream();
    let clock = Date.parse('2026-01-01T00:00:05.000Z');
    const render = createTerminalRenderer({ stream, isTTY: true, tickMs: 0, now: () => clock });
    const upTo = (seq: number) => {
      for (const event of sampleRun.filter((candidate) => candidate.seq <= seq)) render(event);
    };
    upTo(3); // run-start, step-start, llm-start
    expect(chunks.at(-1)).toBe('\r\x1b[2Kstep 1 · planner openai:gpt-4o… · 0 tok · $0 · 5s');
    clock += 60_000;
    for (const event of sampleRun.slice(3, 5)) render(event); // llm-end, action-start
    expect(chunks.at(-3)).toBe(
      '\r\x1b[2K+00:02.2    llm planner openai:gpt-4o 12.3k→321 tok $0.0342 2.1s\n',
    );
    expect(chunks.at(-1)).toBe('\r\x1b[2Kstep 1 · Execute Script · 12.7k tok · $0.0342 · 1m05s');
    render.finish();
    expect(chunks.at(-1)).toBe('\r\x1b[2K');
    const count = chunks.length;
    for (const event of sampleRun.slice(5)) render(event);
    expect(chunks).toHaveLength(count);
  });

  it('cuts the status line to the terminal width', () => {
    const { chunks, stream } = bufferStream(30);
    const render = createTerminalRenderer({ stream, isTTY: true, tickMs: 0, now: () => 0 });
    for (const event of sampleRun.slice(0, 3)) render(event);
    render.finish();
    const status = chunks.filter((chunk) => !chunk.endsWith('\n')).at(-2) ?? '';
    expect(status.replace('\r\x1b[2K', '').length).toBeLessThanOrEqual(29);
    expect(status.endsWith('…')).toBe(true);
  });
});

describe('renderTable', () => {
  it('aligns values and indents continuation lines', () => {
    expect(
      renderTable([
        ['metric', 0.91],
        ['cost', '$0.0342'],
        ['notes', 'one\ntwo'],
        ['x', null],
      ]),
    ).toBe('metric  0.91\ncost    $0.0342\nnotes   one\n        two\nx       -');
    expect(renderTable({ a: 1, long: true })).toBe('a     1\nlong  true');
  });
  it('pads columns and right-aligns numbers', () => {
    expect(
      renderColumns(
        ['name', 'steps'],
        [
          ['a', '3'],
          ['bcd', '12'],
        ],
        new Set([1]),
      ),
    ).toBe('name  steps\na         3\nbcd      12');
  });
});
