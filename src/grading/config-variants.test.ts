import { describe, expect, it } from 'vitest';
import { variantChanges, withVariantsAsChanges } from './config-variants.js';

const base = [
  '# The full reproduction.',
  'seeds: [0, 1, 2, 3, 4]',
  'model:',
  '  hidden: 64',
  '  dropout: 0.1',
  'train:',
  '  epochs: 100',
  '  lr: 0.001',
  '  batch_size: 32',
  '  warmup_steps: 400 # implementation choice: the paper gives no number; a tenth of the steps',
  '  label_smoothing: 0.1 # paper: "we smooth the labels with epsilon = 0.1"',
  'data:',
  '  train_size: 20000 # paper: "20,000 training sequences per task"',
  '',
].join('\n');
const variant = base
  .replace('# The full reproduction.', '# Table 2, row "no dropout"')
  .replace('  dropout: 0.1', '  dropout: 0.0');

describe('configuration variants for a judge', () => {
  it("shows a variant as its changed lines, numbered, and the base's as it is", () => {
    expect(variantChanges(base, variant)).toBe(
      [
        '- 1: # The full reproduction.',
        '+ 1: # Table 2, row "no dropout"',
        '- 5:   dropout: 0.1',
        '+ 5:   dropout: 0.0',
      ].join('\n'),
    );
    const files = withVariantsAsChanges([
      { path: 'config.yaml', content: base },
      { path: 'configs/no-dropout.yaml', content: variant },
      { path: 'train.py', content: 'print(1)\n' },
    ]);
    expect(files[0]?.content).toBe(base);
    expect(files[1]?.content).toContain('config.yaml with these lines changed');
    expect(files[1]?.content).toContain('+ 5:   dropout: 0.0');
    expect(files[1]?.content).not.toContain('batch_size');
    expect(files[2]?.content).toBe('print(1)\n');
  });

  it('keeps a variant whole when there is no config.yaml or its changes are as long as it', () => {
    const alone = [{ path: 'configs/a.yaml', content: variant }];
    expect(withVariantsAsChanges(alone)).toEqual(alone);
    const unrelated = [
      { path: 'config.yaml', content: 'a: 1\n' },
      { path: 'configs/b.yaml', content: 'b: 2\n' },
    ];
    expect(withVariantsAsChanges(unrelated)).toEqual(unrelated);
  });
});
