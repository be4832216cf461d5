"""Train a cross-encoder of our own: a shipped encoder fine-tuned on question-passage pairs.

No pretrained cross-encoder can be installed offline, so one is trained here from the packaged
MiniLM encoder on openly licensed pairs: each question's gold passage is a positive, and the
passages BM25 ranks highest that are not gold are its hard negatives. SciFact is refused (its
licence is non-commercial, and it is the evaluation set). The model is saved in fp16 with a model
card, as a folder that sentence-transformers' CrossEncoder (and so RERANKER_MODEL) loads.
"""
import json
import logging
import random
import time
from pathlib import Path

import torch

from training.calibrate import corpus_bm25, hard_negatives
from measuring.datasets import read_qrels, read_queries

log = logging.getLogger(__name__)

FORBIDDEN = ("scifact",)  # evaluation only, CC BY-NC


def training_pairs(folder: Path, queries_per_set: int, negatives: int, seed: int,
                   random_negatives: int = 1) -> list[tuple[str, str, float]]:
    """(question, passage, label) with BM25 hard negatives and a few random ones, from one BEIR folder.

    Hard negatives alone leave a fresh classification head on a plateau (it predicts the base rate);
    an easy random negative per question gives it a first signal to learn from.
    """
    if any(name in folder.name.lower() for name in FORBIDDEN):
        raise ValueError(f"{folder.name} is for evaluation only (non-commercial licence); never train on it")
    _, texts, bm25, index_of = corpus_bm25(folder)
    qrels = read_qrels(folder)
    queries = [q for q in read_queries(folder) if q["id"] in qrels]
    rng = random.Random(seed)
    rng.shuffle(queries)
    pairs = []
    for query in queries[:queries_per_set]:
        gold = {index_of[d] for d, g in qrels[query["id"]].items() if g > 0 and d in index_of}
        if not gold:
            continue
        pairs.extend((query["text"], texts[i], 1.0) for i in gold)
        pairs.extend((query["text"], texts[i], 0.0) for i in hard_negatives(bm25, query["text"], gold, negatives))
        easy = [i for i in rng.sample(range(len(texts)), random_negatives + len(gold)) if i not in gold][:random_negatives]
        pairs.extend((query["text"], texts[i], 0.0) for i in easy)
    return pairs


def train(sets: list[Path], base: str, out: Path, queries_per_set: int = 2000, negatives: int = 3,
          layers: int | None = None, max_length: int = 256, epochs: int = 1, batch_size: int = 16,
          lr: float = 5e-5, seed: int = 0, random_negatives: int = 1) -> dict:
    """Fine-tune base into a cross-encoder saved at out on the sets' questions; returns its model card."""
    pairs = [p for folder in sets for p in training_pairs(folder, queries_per_set, negatives, seed, random_negatives)]
    card = {"training_sets": [f.name for f in sets], "negatives_per_question": negatives,
            "random_negatives_per_question": random_negatives}
    return fit(pairs, base, out, card, layers, max_length, epochs, batch_size, lr, seed)


def fit(pairs: list[tuple[str, str, float]], base: str, out: Path, card: dict, layers: int | None = None,
        max_length: int = 256, epochs: int = 1, batch_size: int = 16, lr: float = 5e-5, seed: int = 0) -> dict:
    """Fine-tune base into a cross-encoder on (question, passage, label) pairs, saved at out with card and what
    the training was added; returns the card."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from search.embedding import resolve_model

    torch.manual_seed(seed)
    pairs = list(pairs)
    random.Random(seed).shuffle(pairs)
    path = resolve_model(base)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=1)
    if layers:  # keep the first layers only: faster at a small cost in quality
        model.bert.encoder.layer = model.bert.encoder.layer[:layers]
        model.config.num_hidden_layers = layers
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * ((len(pairs) + batch_size - 1) // batch_size)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    started = time.perf_counter()
    model.train()
    for epoch in range(epochs):
        for step in range(0, len(pairs), batch_size):
            batch = pairs[step : step + batch_size]
            encoded = tokenizer([q for q, _, _ in batch], [p for _, p, _ in batch], padding=True, truncation="only_second",
                                max_length=max_length, return_tensors="pt")
            loss = loss_fn(model(**encoded).logits.squeeze(-1), torch.tensor([y for _, _, y in batch]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            if (step // batch_size) % 50 == 0:
                log.info("epoch %d step %d/%d loss %.4f", epoch, step // batch_size, steps, loss.item())
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.half().save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)
    card = {
        "base": base, "layers": model.config.num_hidden_layers, "max_length": max_length, **card,
        "pairs": len(pairs), "positives": sum(1 for *_, y in pairs if y), "epochs": epochs, "lr": lr,
        "batch_size": batch_size, "train_minutes": round((time.perf_counter() - started) / 60, 1), "dtype": "float16",
    }
    (out / "training.json").write_text(json.dumps(card, indent=2) + "\n")
    return card
