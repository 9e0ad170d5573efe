"""Baseline: CLIP-style contrastive training of an image encoder and a caption encoder on
generated pictures of shapes, with training batches drawn uniformly at random.

Run: python3 starter_code.py  ->  prints `recall_at_1: <float>` on the last line.
"""

import itertools
import os
import random

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

SEED = int(os.environ.get("SEED", "0"))  # task.json declares this variable as the seed
IMAGE_SIZE = 16
TRAIN_PER_COMBINATION = 16
TEST_PER_COMBINATION = 4
BATCH_SIZE = 32
EPOCHS = 3
LEARNING_RATE = 2e-3
EMBEDDING_SIZE = 64
TEMPERATURE = 0.1
BACKGROUND_NOISE = 0.15  # standard deviation of the Gaussian pixel noise

# The attributes, in caption order; every combination of values is one caption.
ATTRIBUTES = {
    "size": ["small", "large"],
    "colour": ["red", "green", "blue", "yellow"],
    "shape": ["square", "circle", "triangle", "cross"],
    "position": ["top-left", "top-right", "bottom-left", "bottom-right"],
}
ATTRIBUTE_NAMES = list(ATTRIBUTES)
VOCABULARY = [value for values in ATTRIBUTES.values() for value in values]
TOKEN_ID = {word: index for index, word in enumerate(VOCABULARY)}
COLOURS = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 1.0, 0.0),
}
RADIUS = {"small": 2, "large": 3}
CENTRE = {"top-left": (4, 4), "top-right": (4, 11), "bottom-left": (11, 4), "bottom-right": (11, 11)}


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)


def shape_mask(shape: str, radius: int, centre_row: int, centre_column: int) -> np.ndarray:
    rows, columns = np.mgrid[0:IMAGE_SIZE, 0:IMAGE_SIZE]
    dy, dx = rows - centre_row, columns - centre_column
    inside_box = (np.abs(dy) <= radius) & (np.abs(dx) <= radius)
    if shape == "square":
        return inside_box
    if shape == "circle":
        return dy**2 + dx**2 <= radius**2 + 0.5
    if shape == "triangle":  # apex at the top
        return inside_box & (2 * np.abs(dx) <= dy + radius)
    bar = max(1, radius // 3)  # cross: a plus sign
    return inside_box & ((np.abs(dx) < bar) | (np.abs(dy) < bar))


def draw(attributes: dict, rng: np.random.Generator) -> np.ndarray:
    """One (3, IMAGE_SIZE, IMAGE_SIZE) picture: a noisy background and one coloured shape."""
    centre_row, centre_column = CENTRE[attributes["position"]]
    centre_row += int(rng.integers(-1, 2))
    centre_column += int(rng.integers(-1, 2))
    mask = shape_mask(attributes["shape"], RADIUS[attributes["size"]], centre_row, centre_column)
    brightness = rng.uniform(0.6, 1.0)
    image = rng.normal(0.0, BACKGROUND_NOISE, size=(3, IMAGE_SIZE, IMAGE_SIZE))
    for channel, value in enumerate(COLOURS[attributes["colour"]]):
        image[channel][mask] += brightness * value
    return np.clip(image, 0.0, 1.0).astype(np.float32)


def generate_split(per_combination: int, rng: np.random.Generator):
    """Images, caption token ids and attribute value indices of every sample.

    Every combination of attribute values appears per_combination times.
    Returns (images (N, 3, S, S), captions (N, 4) token ids, attributes (N, 4) value indices).
    """
    images, captions, attribute_indices = [], [], []
    value_lists = [ATTRIBUTES[name] for name in ATTRIBUTE_NAMES]
    for combination in itertools.product(*[range(len(values)) for values in value_lists]):
        words = [value_lists[a][v] for a, v in enumerate(combination)]
        for _ in range(per_combination):
            images.append(draw(dict(zip(ATTRIBUTE_NAMES, words)), rng))
            captions.append([TOKEN_ID[word] for word in words])
            attribute_indices.append(list(combination))
    return (
        torch.from_numpy(np.stack(images)),
        torch.tensor(captions, dtype=torch.int64),
        torch.tensor(attribute_indices, dtype=torch.int64),
    )


class ImageEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 16 -> 8
            nn.Conv2d(16, 32, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8 -> 4
            nn.Flatten(),
            nn.Linear(32 * 4 * 4, EMBEDDING_SIZE),
        )

    def forward(self, images):
        return F.normalize(self.layers(images), dim=1)


class TextEncoder(nn.Module):
    """Embeds each caption token, concatenates the token embeddings in order, and projects."""

    def __init__(self, caption_length: int = len(ATTRIBUTES), token_size: int = 16):
        super().__init__()
        self.tokens = nn.Embedding(len(VOCABULARY), token_size)
        self.projection = nn.Sequential(
            nn.Linear(caption_length * token_size, EMBEDDING_SIZE),
            nn.ReLU(),
            nn.Linear(EMBEDDING_SIZE, EMBEDDING_SIZE),
        )

    def forward(self, captions):
        return F.normalize(self.projection(self.tokens(captions).flatten(1)), dim=1)


def contrastive_loss(image_embeddings, text_embeddings) -> torch.Tensor:
    """Symmetric InfoNCE (CLIP): the i-th image and i-th caption are the positive pair."""
    logits = image_embeddings @ text_embeddings.T / TEMPERATURE
    targets = torch.arange(len(logits))
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2


def make_batches(attributes: torch.Tensor, generator: torch.Generator) -> list:
    """One epoch of batches (lists of sample indices): a uniformly random permutation."""
    order = torch.randperm(len(attributes), generator=generator)
    batch_count = len(order) // BATCH_SIZE
    return [order[index * BATCH_SIZE : (index + 1) * BATCH_SIZE] for index in range(batch_count)]


def train(image_encoder, text_encoder, images, captions, attributes, generator) -> None:
    parameters = list(image_encoder.parameters()) + list(text_encoder.parameters())
    optimizer = torch.optim.Adam(parameters, lr=LEARNING_RATE)
    for _epoch in range(EPOCHS):
        image_encoder.train()
        text_encoder.train()
        for batch in make_batches(attributes, generator):
            loss = contrastive_loss(image_encoder(images[batch]), text_encoder(captions[batch]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


@torch.no_grad()
def text_to_image_recall(image_encoder, text_encoder, images, captions, attributes, k: int) -> float:
    """Fraction of test captions for which one of the k test images ranked highest shows
    exactly the caption's attributes (every combination has several test images, all correct)."""
    image_encoder.eval()
    text_encoder.eval()
    similarity = text_encoder(captions) @ image_encoder(images).T
    top_images = similarity.topk(k, dim=1).indices
    matches = (attributes[top_images] == attributes[:, None, :]).all(dim=2)
    return matches.any(dim=1).float().mean().item()


def main() -> None:
    seed_everything(SEED)
    rng = np.random.default_rng(SEED)
    train_images, train_captions, train_attributes = generate_split(TRAIN_PER_COMBINATION, rng)
    test_images, test_captions, test_attributes = generate_split(TEST_PER_COMBINATION, rng)
    generator = torch.Generator().manual_seed(SEED)
    image_encoder, text_encoder = ImageEncoder(), TextEncoder()
    train(image_encoder, text_encoder, train_images, train_captions, train_attributes, generator)
    recall_at_5 = text_to_image_recall(
        image_encoder, text_encoder, test_images, test_captions, test_attributes, k=5
    )
    recall_at_1 = text_to_image_recall(
        image_encoder, text_encoder, test_images, test_captions, test_attributes, k=1
    )
    print(f"train_pairs: {len(train_images)}, test_pairs: {len(test_images)}, epochs: {EPOCHS}")
    print(f"recall_at_5: {recall_at_5:.4f}")
    print(f"recall_at_1: {recall_at_1:.4f}")


if __name__ == "__main__":
    main()
