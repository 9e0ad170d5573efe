import { describe, expect, it } from 'vitest';
import { parseMetric } from '../../src/tasks/parse-metric.js';
import type { TaskMetric } from '../../src/tasks/types.js';

const accuracy: TaskMetric = { name: 'accuracy', pattern: 'accuracy: ([0-9.]+)', goal: 'max' };

describe('parseMetric', () => {
  it('takes the last match in the output', () => {
    const output = 'epoch 1 accuracy: 0.50\nepoch 2 accuracy: 0.61\nfinal accuracy: 0.75\ndone\n';
    expect(parseMetric(output, accuracy)).toEqual({
      name: 'accuracy',
      goal: 'max',
      raw: '0.75',
      value: 0.75,
    });
  });

  it('returns undefined when the pattern never matches', () => {
    expect(parseMetric('loss: 0.3\n', accuracy)).toBeUndefined();
  });

  it('anchors ^ and $ at line boundaries', () => {
    const metric: TaskMetric = { name: 'loss', pattern: '^loss=(\\S+)$', goal: 'min' };
    expect(parseMetric('train loss=9\nloss=1.5e-2\nval loss=3\n', metric)?.value).toBe(0.015);
  });

  it('keeps a capture that is not a number as raw with a null value', () => {
    const metric: TaskMetric = { name: 'loss', pattern: 'loss: (\\S+)', goal: 'min' };
    expect(parseMetric('loss: 0.4\nloss: nan\n', metric)).toMatchObject({
      raw: 'nan',
      value: null,
    });
  });

  it('reads a number followed by a unit', () => {
    const metric: TaskMetric = { name: 'accuracy', pattern: 'Accuracy = (\\S+)', goal: 'max' };
    expect(parseMetric('Accuracy = 87.5%\n', metric)?.value).toBe(87.5);
  });
});
