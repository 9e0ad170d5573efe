import { describe, expect, it } from 'vitest';
import { extractJson } from '../../src/llm/structured-answer.js';

const fence = '```';

describe('extractJson', () => {
  it('reads a JSON block whose string holds a fenced block to the fence that closes it', () => {
    const value = { sharedKnowledge: `Config:\n${fence}yaml\nseed: 0\n${fence}\nDone.`, n: 1 };
    const answer = `Here it is.\n\n${fence}json\n${JSON.stringify(value, null, 2)}\n${fence}\n`;
    expect(JSON.parse(extractJson(answer) ?? '')).toEqual(value);
  });

  it('takes the last json block, and gives an unparsable one as it is for the model to fix', () => {
    expect(
      extractJson(`${fence}json\n{"a": 1}\n${fence}\nthen\n${fence}json\n{"a": 2}\n${fence}`),
    ).toBe('{"a": 2}');
    expect(
      extractJson(`${fence}json\n{"a": 1}\n${fence}\nthen\n${fence}json\n{"a": \n${fence}`),
    ).toBe('{"a":');
  });
});
