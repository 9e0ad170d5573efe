"""Baseline: a small CNN on scikit-learn's 8x8 handwritten digits, trained without augmentation.

Run: python3 starter_code.py  ->  prints `test_accuracy: <float>` on the last line.
"""

import os
import random

import numpy as np
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

SEED = int(os.environ.get("SEED", "0"))  # task.json declares this variable as the seed
TRAIN_SIZE = 400  # a small training set, so that regularization matters
EPOCHS = 60
BATCH_SIZE = 32
LEARNING_RATE = 1e-3


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)


def load_data():
    """Returns (train_images, train_labels, test_images, test_labels) as tensors.

    Images have shape (N, 1, 8, 8) with pixel values scaled to [0, 1].
    """
    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0
    labels = digits.target.astype(np.int64)
    train_x, test_x, train_y, test_y = train_test_split(
        images, labels, train_size=TRAIN_SIZE, random_state=SEED, stratify=labels
    )
    return (
        torch.from_numpy(train_x).unsqueeze(1),
        torch.from_numpy(train_y),
        torch.from_numpy(test_x).unsqueeze(1),
        torch.from_numpy(test_y),
    )


class SmallCNN(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8x8 -> 4x4
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(32 * 4 * 4, 64),
            nn.ReLU(),
            nn.Linear(64, num_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


def augment_batch(images: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Hook for training-time augmentation of a batch of shape (B, 1, 8, 8).

    The baseline applies no augmentation.
    """
    return images


def train(model, train_x, train_y, generator: torch.Generator) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    loss_function = nn.CrossEntropyLoss()
    for _epoch in range(EPOCHS):
        model.train()
        order = torch.randperm(len(train_x), generator=generator)
        for start in range(0, len(order), BATCH_SIZE):
            index = order[start : start + BATCH_SIZE]
            images = augment_batch(train_x[index], generator)
            loss = loss_function(model(images), train_y[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


@torch.no_grad()
def evaluate(model, test_x, test_y) -> float:
    model.eval()
    predictions = model(test_x).argmax(dim=1)
    return (predictions == test_y).float().mean().item()


def main() -> None:
    seed_everything(SEED)
    train_x, train_y, test_x, test_y = load_data()
    generator = torch.Generator().manual_seed(SEED)
    model = SmallCNN()
    train(model, train_x, train_y, generator)
    accuracy = evaluate(model, test_x, test_y)
    print(f"train_size: {len(train_x)}, test_size: {len(test_x)}, epochs: {EPOCHS}")
    print(f"test_accuracy: {accuracy:.4f}")


if __name__ == "__main__":
    main()
