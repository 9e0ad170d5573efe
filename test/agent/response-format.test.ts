import { describe, expect, it } from 'vitest';
import { parseResponse, describeResponseFormat } from '../../src/agent/response-format.js';
import { readJsonObject } from '../../src/agent/json-repair.js';
import { findRepetition } from '../../src/agent/guards/repeated-text.js';
import { poolCap } from '../../src/agent/guards/action-guards.js';
import { fakeActions } from './fake-actions.js';

const answer = (action: string, input: string, extra = ''): string =>
  `Reflection: looked at things
Research Plan and Status: 1. list files (done)
Fact Check: confirmed by observation
Thought: write the script
Action: ${action}
Action Input: ${input}${extra}`;

describe('parseResponse', () => {
  it('reads a well-formed answer', () => {
    const parsed = parseResponse(
      answer('Write Script', '{"script_name": "a.py", "content": "x = 1"}'),
      fakeActions,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.response.action.name).toBe('Write Script');
    expect(parsed.response.input).toEqual({ script_name: 'a.py', content: 'x = 1' });
    expect(parsed.response.fields.Thought).toBe('write the script');
    expect(parsed.response.fields['Research Plan and Status']).toBe('1. list files (done)');
    expect(parsed.response.repaired).toBe(false);
  });

  it('names the missing field', () => {
    const text = answer('List Files', '{"dir_path": "."}').replace(
      'Fact Check: confirmed by observation\n',
      '',
    );
    const parsed = parseResponse(text, fakeActions);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('missing the field "Fact Check:"');
  });

  it('names fields out of order', () => {
    const text = `Thought: t\nReflection: r\nResearch Plan and Status: p\nFact Check: f\nAction: List Files\nAction Input: {"dir_path": "."}`;
    const parsed = parseResponse(text, fakeActions);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('"Thought:" comes where "Reflection:" should be');
  });

  it('lists the valid actions for an unknown one', () => {
    const parsed = parseResponse(answer('Run Everything', '{}'), fakeActions);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('"Run Everything" is not an action');
    expect(parsed.reason).toContain('List Files, Read File, Write Script, Final Answer');
  });

  it('gives the usage for a schema error', () => {
    const parsed = parseResponse(answer('Write Script', '{"script_name": "a.py"}'), fakeActions);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('does not fit Write Script (content:');
    expect(parsed.reason).toContain('"script_name": "a script"');
  });

  it('tolerates markdown bold headers and a backticked action name', () => {
    const text = answer('`list files`', '{"dir_path": "."}').replace(
      'Reflection:',
      '**Reflection:**',
    );
    const parsed = parseResponse(text, fakeActions);
    expect(parsed.ok).toBe(true);
  });

  it('repairs common JSON slips in the Action Input', () => {
    const input =
      '```json\n{script_name: \'a.py\', content: """import os\nprint("hi")""", \'flag\': True,}\n```\nI hope this works.';
    const parsed = parseResponse(answer('Write Script', input), fakeActions);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.response.input).toEqual({
      script_name: 'a.py',
      content: 'import os\nprint("hi")',
    });
    expect(parsed.response.repaired).toBe(true);
  });

  it('says the input is not JSON when it cannot be repaired', () => {
    const parsed = parseResponse(answer('List Files', 'the current folder'), fakeActions);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('no JSON object');
    expect(parsed.reason).toContain('Action: List Files');
  });

  it('describes the format with every field', () => {
    const description = describeResponseFormat();
    for (const field of [
      'Reflection:',
      'Research Plan and Status:',
      'Fact Check:',
      'Thought:',
      'Action:',
      'Action Input:',
    ]) {
      expect(description).toContain(field);
    }
  });
});

describe('readJsonObject', () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    ["{'a': 'it\\'s'}", { a: "it's" }],
    ['{"a": [1, 2,], }', { a: [1, 2] }],
    ['{"a": None, "b": False}', { a: null, b: false }],
    ['{"code": "line one\nline two"}', { code: 'line one\nline two' }],
    ['Here it is: {"a": "}"} and that is all', { a: '}' }],
    ["{'''a''': '''x 'quoted' y'''}", { a: "x 'quoted' y" }],
  ])('reads %s', (text, expected) => {
    const read = readJsonObject(text);
    expect(read).toMatchObject({ ok: true, value: expected });
  });

  it('refuses what is not an object', () => {
    expect(readJsonObject('[1, 2]')).toMatchObject({ ok: false });
    expect(readJsonObject('{"a": 1')).toMatchObject({ ok: false });
    expect(readJsonObject('')).toMatchObject({ ok: false, reason: 'the Action Input is empty' });
  });
});

describe('findRepetition', () => {
  it('finds a looping tail', () => {
    const text = `Thought: ok\n${'I will now list the files again. '.repeat(40)}`;
    expect(findRepetition(text)).toContain('repeats itself');
  });

  it('finds the same line said again and again', () => {
    expect(findRepetition(`start\n${'print(x)\n'.repeat(15)}end`)).toContain('"print(x)"');
  });

  it('leaves ordinary code alone', () => {
    const code = Array.from(
      { length: 60 },
      (_, index) => `layer_${index} = nn.Linear(${index}, ${index + 1})`,
    ).join('\n');
    expect(findRepetition(code)).toBeUndefined();
  });
});

describe('poolCap', () => {
  it('decays as floor(15·e^(−0.01·step)), never below 1', () => {
    const options = { poolCapStart: 15, poolCapDecay: 0.01 };
    expect([0, 1, 50, 100, 300].map((step) => poolCap(step, options))).toEqual([15, 14, 9, 5, 1]);
  });
});
