import { describe, expect, it } from 'vitest';
import { importedModules } from './local-imports.js';

describe('importedModules', () => {
  it('reads plain, aliased, listed and from-imports once each, and skips relative ones', () => {
    const source = [
      'import torch',
      'import numpy as np, model  # the network',
      'from data import load_data',
      'from utils.metrics import accuracy',
      'from . import sibling',
      '    import model',
      'x = "import nothing"',
    ].join('\n');
    expect(importedModules(source)).toEqual(['torch', 'numpy', 'model', 'data', 'utils.metrics']);
  });
});
