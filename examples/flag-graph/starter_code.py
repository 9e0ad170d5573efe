"""Baseline: a two-layer GCN in plain PyTorch on a generated stochastic-block-model graph.

Run: python3 starter_code.py  ->  prints `test_accuracy: <float>` on the last line.
"""

import os
import random

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

SEED = int(os.environ.get("SEED", "0"))  # task.json declares this variable as the seed
NUM_NODES = 1200
NUM_CLASSES = 4
NUM_FEATURES = 128
INTRA_CLASS_EDGE_PROBABILITY = 0.012
INTER_CLASS_EDGE_PROBABILITY = 0.006
FEATURE_SIGNAL = 2.0  # norm of each class mean (a random direction in the informative features)
FEATURE_NOISE = 1.0  # standard deviation of the Gaussian noise on every feature
INFORMATIVE_FEATURES = 8  # only the first 8 features depend on the class; the rest are noise
TRAIN_PER_CLASS = 20
VALIDATION_SIZE = 300

HIDDEN_SIZE = 64
DROPOUT = 0.5
LEARNING_RATE = 0.01
WEIGHT_DECAY = 5e-4
EPOCHS = 200


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)


def generate_graph(seed: int):
    """A stochastic block model with class-dependent Gaussian node features.

    Returns (adjacency, features, labels) as NumPy arrays: a symmetric 0/1 adjacency
    matrix without self-loops (N, N), features (N, F) and labels (N,).
    """
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, NUM_CLASSES, size=NUM_NODES)
    same_class = labels[:, None] == labels[None, :]
    probability = np.where(same_class, INTRA_CLASS_EDGE_PROBABILITY, INTER_CLASS_EDGE_PROBABILITY)
    upper = np.triu(rng.random((NUM_NODES, NUM_NODES)) < probability, k=1)
    adjacency = (upper | upper.T).astype(np.float32)
    directions = np.zeros((NUM_CLASSES, NUM_FEATURES))
    directions[:, :INFORMATIVE_FEATURES] = rng.standard_normal((NUM_CLASSES, INFORMATIVE_FEATURES))
    class_means = FEATURE_SIGNAL * directions / np.linalg.norm(directions, axis=1, keepdims=True)
    noise = FEATURE_NOISE * rng.standard_normal((NUM_NODES, NUM_FEATURES))
    features = class_means[labels] + noise
    return adjacency, features.astype(np.float32), labels.astype(np.int64)


def split_nodes(labels: np.ndarray, seed: int):
    """TRAIN_PER_CLASS labelled nodes per class, VALIDATION_SIZE validation nodes, the rest test."""
    rng = np.random.default_rng(seed + 1)
    train = np.concatenate(
        [rng.permutation(np.flatnonzero(labels == c))[:TRAIN_PER_CLASS] for c in range(NUM_CLASSES)]
    )
    rest = rng.permutation(np.setdiff1d(np.arange(len(labels)), train))
    return torch.from_numpy(train), torch.from_numpy(rest[:VALIDATION_SIZE]), torch.from_numpy(
        rest[VALIDATION_SIZE:]
    )


def normalized_adjacency(adjacency: np.ndarray) -> torch.Tensor:
    """D^-1/2 (A + I) D^-1/2 as a sparse tensor (Kipf and Welling)."""
    with_self_loops = adjacency + np.eye(len(adjacency), dtype=np.float32)
    inverse_sqrt_degree = 1.0 / np.sqrt(with_self_loops.sum(axis=1))
    normalized = inverse_sqrt_degree[:, None] * with_self_loops * inverse_sqrt_degree[None, :]
    return torch.from_numpy(normalized.astype(np.float32)).to_sparse()


class GCN(nn.Module):
    """Two graph-convolution layers: softmax(Â · ReLU(Â X W1) · W2)."""

    def __init__(self, in_features: int, hidden: int, classes: int, dropout: float):
        super().__init__()
        self.first = nn.Linear(in_features, hidden)
        self.second = nn.Linear(hidden, classes)
        self.dropout = dropout

    def forward(self, features: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        hidden = F.dropout(features, self.dropout, self.training)
        hidden = F.relu(torch.sparse.mm(adjacency, self.first(hidden)))
        hidden = F.dropout(hidden, self.dropout, self.training)
        return torch.sparse.mm(adjacency, self.second(hidden))  # logits


def train_step(model, optimizer, features, adjacency, labels, train_index) -> float:
    """One plain training step on the labelled nodes; returns the loss."""
    model.train()
    optimizer.zero_grad()
    logits = model(features, adjacency)
    loss = F.cross_entropy(logits[train_index], labels[train_index])
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def accuracy(model, features, adjacency, labels, index) -> float:
    model.eval()
    predictions = model(features, adjacency)[index].argmax(dim=1)
    return (predictions == labels[index]).float().mean().item()


def main() -> None:
    seed_everything(SEED)
    adjacency_array, features_array, labels_array = generate_graph(SEED)
    train_index, validation_index, test_index = split_nodes(labels_array, SEED)
    adjacency = normalized_adjacency(adjacency_array)
    features = torch.from_numpy(features_array)
    labels = torch.from_numpy(labels_array)

    model = GCN(NUM_FEATURES, HIDDEN_SIZE, NUM_CLASSES, DROPOUT)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    best_validation, test_at_best = -1.0, 0.0
    for _epoch in range(EPOCHS):
        train_step(model, optimizer, features, adjacency, labels, train_index)
        validation = accuracy(model, features, adjacency, labels, validation_index)
        if validation > best_validation:  # model selection on the validation nodes
            best_validation = validation
            test_at_best = accuracy(model, features, adjacency, labels, test_index)
    print(f"nodes: {NUM_NODES}, edges: {int(adjacency_array.sum() / 2)}, train: {len(train_index)}")
    print(f"validation_accuracy: {best_validation:.4f}")
    print(f"test_accuracy: {test_at_best:.4f}")


if __name__ == "__main__":
    main()
