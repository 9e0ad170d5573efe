import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/tasks/json-syntax-error.js';

describe('findJsonSyntaxError', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const text of [
      '{}',
      '[]',
      ' {"a": [1, -2.5e3, "x\\"y", true, false, null, {}]}\n',
      '"s"',
      '0',
    ]) {
      expect(JSON.parse(text)).toBeDefined();
      expect(findJsonSyntaxError(text)).toBeUndefined();
    }
  });

  it('points at a trailing comma', () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n}')).toEqual({
      offset: 12,
      line: 3,
      column: 1,
      problem: 'expected a key in double quotes but found "}"',
    });
  });

  it('points at single quotes, a missing colon and leftovers', () => {
    expect(findJsonSyntaxError("{'a': 1}")?.problem).toBe(
      'expected a key in double quotes but found "\'"',
    );
    expect(findJsonSyntaxError('{"a" 1}')).toMatchObject({
      line: 1,
      column: 6,
      problem: 'expected ":" after the key but found "1"',
    });
    expect(findJsonSyntaxError('{} x')).toMatchObject({
      column: 4,
      problem: 'expected nothing more after the JSON value but found "x"',
    });
    expect(findJsonSyntaxError('[1 2]')?.problem).toBe('expected "," or "]" but found "2"');
    expect(findJsonSyntaxError('{"a": "b')?.problem).toBe(
      'expected the closing quote of the string but found the end of the file',
    );
  });
});
