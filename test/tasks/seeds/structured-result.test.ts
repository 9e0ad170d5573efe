import { describe, expect, it } from 'vitest';
import { readSeedOutput } from '../../../src/tasks/seeds/seed-reading.js';
import {
  metricKey,
  readStructuredResult,
  structuredValue,
} from '../../../src/tasks/seeds/structured-result.js';

const accuracy = { name: 'accuracy', pattern: 'accuracy:\\s*([0-9.]+)', goal: 'max' as const };

describe('the structured result line (CODIFY_RESULT)', () => {
  it('reads two metrics from the last line, the metric by its name in any spelling', () => {
    const output = [
      'epoch 1',
      'CODIFY_RESULT {"seed": 3, "metrics": {"accuracy": 0.1}}',
      'accuracy: 0.5',
      'CODIFY_RESULT {"seed": 3, "metrics": {"Accuracy": 0.61, "log_loss": 0.42}}',
    ].join('\n');
    expect(readStructuredResult(output)).toEqual({
      result: { seed: 3, metrics: { Accuracy: 0.61, log_loss: 0.42 } },
    });
    expect(readSeedOutput(output, 3, accuracy)).toEqual({
      value: 0.61,
      metrics: { Accuracy: 0.61, log_loss: 0.42 },
    });
    expect(structuredValue({ log_loss: 0.42 }, 'Log-loss')).toBe(0.42);
    expect(metricKey('Log loss')).toBe(metricKey('log-loss'));
  });

  it('without the line, or with a garbled one, the printed metric still counts', () => {
    expect(readSeedOutput('accuracy: 0.5\n', 0, accuracy)).toEqual({ value: 0.5 });
    const garbled = readSeedOutput(
      'accuracy: 0.5\nCODIFY_RESULT {"metrics": {"accuracy": "high"}}\n',
      0,
      accuracy,
    );
    expect(garbled.value).toBe(0.5);
    expect(garbled.metrics).toBeUndefined();
    expect(garbled.resultProblem).toMatch(/metrics.accuracy/);
    expect(
      readSeedOutput('accuracy: 0.5\nCODIFY_RESULT {oops\n', 0, accuracy).resultProblem,
    ).toMatch(/not JSON/);
  });

  it('a line naming another seed than the run was given is not used', () => {
    const reading = readSeedOutput(
      'accuracy: 0.5\nCODIFY_RESULT {"seed": 0, "metrics": {"accuracy": 0.9}}\n',
      4,
      accuracy,
    );
    expect(reading.value).toBe(0.5);
    expect(reading.resultProblem).toBe(
      'the structured line names seed 0, but the run was given seed 4',
    );
  });
});
