"""Train the query classifier's head on the labelled questions in data/query_types.jsonl.

The encoder stays frozen: its first-token states are computed once, then the dropout + linear
head is trained on them with Adam, which takes seconds on a CPU. Reports accuracy on the
held-out split (questions marked "test", never seen in training).
Does not: fine-tune the encoder (weights would be too large to ship in the repository).
"""
import json
import logging
from pathlib import Path

import torch

from question.classifier import LABELS, QueryClassifier

log = logging.getLogger(__name__)


def read_questions(path: Path) -> dict[str, list[tuple[str, str]]]:
    """(question, label) pairs of each split of a JSONL file of {"question", "label", "split"}."""
    splits: dict[str, list[tuple[str, str]]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row["label"] not in LABELS:
                raise ValueError(f"unknown label {row['label']!r} in {path}; labels are {LABELS}")
            splits.setdefault(row["split"], []).append((row["question"], row["label"]))
    return splits


@torch.no_grad()
def _features(model: QueryClassifier, questions: list[str]) -> torch.Tensor:
    """First-token states of the frozen encoder, in batches."""
    model.eval()
    return torch.cat([model.features(questions[i : i + 32]) for i in range(0, len(questions), 32)])


def accuracy(model: QueryClassifier, features: torch.Tensor, labels: list[str]) -> dict:
    """Overall and per-label accuracy of the head on precomputed features."""
    model.eval()
    with torch.no_grad():
        predicted = model.classifier(features).argmax(dim=-1).tolist()
    right = [model.labels[p] == gold for p, gold in zip(predicted, labels)]
    per_label = {
        name: round(sum(r for r, g in zip(right, labels) if g == name) / max(1, labels.count(name)), 3)
        for name in model.labels
    }
    return {"accuracy": round(sum(right) / max(1, len(right)), 3), "per_label": per_label, "n": len(right)}


def train(data: Path, encoder: str, out: Path, pooling: str = "mean", epochs: int = 300, lr: float = 1e-2,
          weight_decay: float = 0.1, seed: int = 0) -> dict:
    """Train the head, save the classifier to out, and return held-out metrics."""
    torch.manual_seed(seed)
    splits = read_questions(data)
    train_set, test_set = splits.get("train", []), splits.get("test", [])
    if not train_set or not test_set:
        raise ValueError(f"{data} needs questions in both the 'train' and the 'test' split")
    model = QueryClassifier.from_encoder(encoder, pooling=pooling)
    for p in model.encoder.parameters():
        p.requires_grad = False
    x_train = _features(model, [q for q, _ in train_set])
    y_train = torch.tensor([model.labels.index(label) for _, label in train_set])
    x_test = _features(model, [q for q, _ in test_set])

    optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=lr, weight_decay=weight_decay)
    loss_fn = torch.nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        loss = loss_fn(model.classifier(model.dropout(x_train)), y_train)
        loss.backward()
        optimizer.step()
        if epoch % 50 == 0:
            log.info("epoch %d loss %.4f", epoch, loss.item())
    model.save(out, frozen_encoder=True)
    metrics = {
        "encoder": encoder,
        "pooling": pooling,
        "train": accuracy(model, x_train, [label for _, label in train_set]),
        "test": accuracy(model, x_test, [label for _, label in test_set]),
    }
    (Path(out) / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    return metrics
