import { describe, expect, it } from 'vitest';
import { findCodeDefaults } from '../../src/repo/code-defaults.js';
import { renderReport } from '../../src/repo/report.js';

describe('findCodeDefaults', () => {
  it('names config reads with a fallback and defaults tables, not plain reads or tests', () => {
    const found = findCodeDefaults([
      {
        path: 'train.py',
        content: [
          'DEFAULTS = {',
          '    "lr": 0.1,',
          '}',
          'lr = cfg["training"]["lr"]',
          'epochs = config["training"].get("epochs", 10)',
          'seed = cfg.get("seed", None)',
          "name = settings.get('name')",
          'value = other.get("x", 3)',
        ].join('\n'),
      },
      { path: 'tests/test_train.py', content: 'x = cfg.get("lr", 0.1)\n' },
      { path: 'config.yaml', content: 'DEFAULTS = {\n' },
    ]);
    expect(found).toEqual([
      { path: 'train.py', line: 1, text: 'DEFAULTS = {' },
      { path: 'train.py', line: 5, text: 'epochs = config["training"].get("epochs", 10)' },
    ]);
  });

  it('are named in the report beside the implementation choices of config.yaml', () => {
    const markdown = renderReport({
      title: 'Toy',
      repository: '/repo',
      entryPoint: 'main.py',
      files: [],
      stages: [],
      totals: { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0 },
      verify: { ok: false, summary: 'skipped', skipped: true },
      droppedConfigKeys: [],
      implementationChoices: ['training.seed'],
      codeDefaults: [{ path: 'train.py', line: 5, text: 'cfg.get("epochs", 10)' }],
      interfacesUsed: {},
    });
    expect(markdown).toContain('Every config value the paper states is traced to a quote of it.');
    expect(markdown).toContain('each with its reason): training.seed.');
    expect(markdown).toContain('beside config.yaml: train.py:5 `cfg.get("epochs", 10)`.');
  });
});
