import { describe, expect, it } from 'vitest';
import { settingChanges, variantChanges, withVariantsAsChanges } from './config-variants.js';

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
  });

  it("shows a YAML variant as its changed settings with config.yaml's value beside each", () => {
    const listed = variant
      .replace('seeds: [0, 1, 2, 3, 4]', 'seeds: [0]')
      .replace('  batch_size: 32\n', '')
      .concat('extra:\n  flag: true\n');
    expect(settingChanges(base, listed)).toBe(
      [
        '# Table 2, row "no dropout"',
        'seeds: [0] (config.yaml: [0,1,2,3,4])',
        'model.dropout: 0 (config.yaml: 0.1)',
        'extra.flag: true (not in config.yaml)',
        'train.batch_size: not set (config.yaml: 32)',
      ].join('\n'),
    );
    expect(settingChanges(base, base)).toContain('(no setting differs)');
    // A long value of config.yaml is named by its size beside a change, not repeated.
    const ablations = Array.from(
      { length: 10 },
      (_, index) => `  - name: ablation-number-${index}`,
    );
    const withList = `${base}ablations:\n${ablations.join('\n')}\n`;
    expect(settingChanges(withList, `${base}ablations: []\n`)).toContain(
      'ablations: [] (config.yaml: a list of 10 items)',
    );
    expect(settingChanges('- a\n', base)).toBeUndefined();
    const files = withVariantsAsChanges([
      { path: 'config.yaml', content: base },
      { path: 'configs/no-dropout.yaml', content: variant },
      { path: 'config_smoke.yaml', content: variant.replace('epochs: 100', 'epochs: 1') },
      { path: 'train.py', content: 'print(1)\n' },
    ]);
    expect(files[0]?.content).toBe(base);
    expect(files[1]?.content).toContain(
      '(on disk a whole YAML file, config.yaml with these settings changed; shown here as the changes only',
    );
    expect(files[1]?.content).toContain('model.dropout: 0 (config.yaml: 0.1)');
    expect(files[1]?.content).not.toContain('batch_size');
    expect(files[2]?.content).toContain('train.epochs: 1 (config.yaml: 100)');
    expect(files[3]?.content).toBe('print(1)\n');
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
