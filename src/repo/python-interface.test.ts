import { describe, expect, it } from 'vitest';
import { pythonInterface } from './python-interface.js';

const source = `import numpy as np
from torch import nn

LEARNING_RATE = 0.1
helper_cache = {}


class Model(nn.Module):
    """A two-layer network."""

    def __init__(self, hidden: int,
                 classes: int) -> None:
        super().__init__()
        self.layer = nn.Linear(hidden, classes)

    def forward(self, x):
        """Scores for each class.

        x: a batch of features.
        """
        return self.layer(x)


def train(model, data, epochs=3):
    for _ in range(epochs):
        pass
    return model
`;

describe('pythonInterface', () => {
  it('keeps imports, constants, signatures and docstrings, and drops bodies', () => {
    const result = pythonInterface(source);
    expect(result).toContain('import numpy as np');
    expect(result).toContain('LEARNING_RATE = 0.1');
    expect(result).not.toContain('helper_cache');
    expect(result).toContain('class Model(nn.Module):\n    """A two-layer network."""');
    expect(result).toContain(
      '    def __init__(self, hidden: int,\n                 classes: int) -> None:\n        ...',
    );
    expect(result).toContain('x: a batch of features.\n        """\n        ...');
    expect(result).toContain('def train(model, data, epochs=3):\n    ...');
    expect(result).not.toContain('self.layer = nn.Linear');
    expect(result).not.toContain('for _ in range');
  });

  it('keeps constants whole: a mapping over several lines and a tuple assignment', () => {
    const result = pythonInterface(`from typing import (
    Dict,
    List,
)

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
DEFAULTS = {
    "d_model": 512,  # the base model's width {
    "heads": (8, "h}"),
}
SIZES: List[int] = [
    1, 2,
]
THRESHOLD == 3


def build(config: Dict[str, int]) -> None:
    width = DEFAULTS["d_model"]
`);
    expect(result).toContain('from typing import (\n    Dict,\n    List,\n)');
    expect(result).toContain('PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3');
    expect(result).toContain(
      'DEFAULTS = {\n    "d_model": 512,  # the base model\'s width {\n    "heads": (8, "h}"),\n}',
    );
    expect(result).toContain('SIZES: List[int] = [\n    1, 2,\n]');
    expect(result).not.toContain('THRESHOLD');
    expect(result).toContain('def build(config: Dict[str, int]) -> None:\n    ...');
    expect(result).not.toContain('width =');
  });

  it('leaves out private functions, methods and constants, and keeps dunders', () => {
    const result = pythonInterface(`_MAX_TRIES = 5
PUBLIC = 1


@functools.cache
def _pad(x):
    """Pads."""
    return x


class Batch:
    def __len__(self):
        return 1

    def _merge(self, other):
        return other


def collate(items):
    return _pad(items)
`);
    expect(result).toContain('PUBLIC = 1');
    expect(result).toContain('def __len__(self):');
    expect(result).toContain('def collate(items):');
    for (const hidden of ['_MAX_TRIES', '_pad', '_merge', 'functools.cache'])
      expect(result).not.toContain(hidden);
  });
  it("keeps a class's fields and leaves out what a function's body defines", () => {
    const result = pythonInterface(`from dataclasses import dataclass


@dataclass
class Split:
    """The arrays of one split."""

    z_train: np.ndarray
    y_train: np.ndarray
    mean: float = 0.0
    _cache: dict = None
    KINDS = ("train",
             "test")

    def size(self) -> int:
        return len(self.y_train)


def summarize(rows):
    def order(key):
        return key[0]
    label: str = "x"
    return sorted(rows, key=order)
`);
    expect(result).toContain(
      '@dataclass\nclass Split:\n    """The arrays of one split."""\n    z_train: np.ndarray\n    y_train: np.ndarray\n    mean: float = 0.0\n    KINDS = ("train",\n             "test")\n    def size(self) -> int:\n        ...',
    );
    expect(result).not.toContain('_cache');
    expect(result).toContain('def summarize(rows):\n    ...');
    expect(result).not.toContain('def order');
    expect(result).not.toContain('label');
  });
});
