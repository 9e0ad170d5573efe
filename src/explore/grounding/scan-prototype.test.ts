import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runTime } from './prototype-summary.js';
import { dataLoads, importedModules, scanPrototype } from './scan-prototype.js';

const example = fileURLToPath(new URL('../../../examples/explore/prototype', import.meta.url));

describe('the prototype scan', () => {
  it('reads the top-level modules of every import form, each once', () => {
    const source = [
      'import numpy as np',
      'from sklearn.datasets import load_wine',
      'import os, torch.nn as nn',
      '  from pandas import read_csv  # indented, inside a function',
      'import numpy',
      'x = "import nothing"',
    ].join('\n');
    expect(importedModules(source)).toEqual(['numpy', 'sklearn', 'os', 'torch', 'pandas']);
  });

  it('finds the data the code loads, and open() only of a named file', () => {
    const source = [
      'features, labels = load_wine(return_X_y=True)',
      'frame = pd.read_csv("train.csv", sep=",")',
      'cache = np.load(path)',
      'with open(path) as handle: pass',
      "with open('labels.txt') as handle: pass",
      'train = datasets.CIFAR10(root, train=True, download=False)',
    ].join('\n');
    expect(dataLoads(source)).toEqual([
      'load_wine(return_X_y=True)',
      'read_csv("train.csv", sep=",")',
      'np.load(path)',
      "open('labels.txt')",
      'datasets.CIFAR10(root, train=True, download=False)',
    ]);
  });

  it('describes the example prototype: its files, imports and loader', () => {
    const scan = scanPrototype(example);
    expect(scan.files.map((file) => file.path)).toEqual(['starter_code.py', 'task.json']);
    expect(scan.imports).toEqual(['argparse', 'numpy', 'sklearn']);
    expect(scan.loads).toEqual(['load_wine(return_X_y=True)']);
    expect(scan.dataFiles).toEqual([]);
  });

  it('states the run time in seconds, whatever its size', () => {
    expect(runTime(420)).toBe('0.4 s');
    expect(runTime(125_000)).toBe('125.0 s');
    expect(runTime(undefined)).toBe('an unrecorded time');
  });
});
