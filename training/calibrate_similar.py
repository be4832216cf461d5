"""The cosine from which two questions count as the same question asked again (web/similar.py shows a reviewed
answer to one beside the other), chosen on hand-written pairs: data/eval/similar-questions/pairs.jsonl.

Three kinds of pair are told apart: the same question reworded ("same": true), a different question about the
same subject ("same": false: "When was the Berlin Wall built?" against "... fall?"), and unrelated questions (each
distinct question against the one half the list away, in its language). The threshold chosen is the one with the
best mean of the three rates (paraphrases shown, different questions on the subject not shown, unrelated ones not
shown), each language weighing the same. A sentence embedder tells a subject, not what is asked of it, so many different questions on one subject
pass any threshold that keeps most rewordings; the page shows the earlier question beside its answer for that.
Does not: write the threshold anywhere (it goes in the embedder's row of search/embedders.py).
"""
import json
from pathlib import Path

import numpy as np

GRID = np.round(np.arange(0.50, 0.99, 0.01), 2)


def read_pairs(path: Path) -> list[dict]:
    """The pairs of a JSONL file: {"a", "b", "same", "language"}."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cosines(embedder, pairs: list[dict]) -> dict[str, np.ndarray]:
    """The cosine of each pair of each kind (same, different, unrelated), both sides embedded as questions; the
    pairs are of one language."""
    found = {"same": [], "different": []}
    a, b = embedder.embed_queries([p["a"] for p in pairs]), embedder.embed_queries([p["b"] for p in pairs])
    for pair, cosine in zip(pairs, (a * b).sum(axis=1)):
        found["same" if pair["same"] else "different"].append(float(cosine))
    questions = list(dict.fromkeys([p["a"] for p in pairs] + [p["b"] for p in pairs]))
    vectors, n = embedder.embed_queries(questions), len(questions)
    found["unrelated"] = [float(vectors[i] @ vectors[(i + n // 2) % n]) for i in range(n)]
    return {kind: np.array(values) for kind, values in found.items()}


def rates(found: dict[str, np.ndarray], threshold: float) -> dict[str, float]:
    """The share of each kind at or above threshold (shown beside a new answer)."""
    return {f"{kind}_shown": round(float((values >= threshold).mean()), 4) for kind, values in found.items()}


def score(found: dict[str, np.ndarray], threshold: float) -> float:
    """The mean of paraphrases shown, different questions not shown and unrelated ones not shown."""
    shown = rates(found, threshold)
    return (shown["same_shown"] + 2 - shown["different_shown"] - shown["unrelated_shown"]) / 3


def calibrate_similar(embedder, path: Path) -> dict:
    """The threshold with the best score, each language weighing the same, with its rates in each language."""
    pairs = read_pairs(path)
    found = {language: cosines(embedder, [p for p in pairs if p["language"] == language])
             for language in sorted({p["language"] for p in pairs})}
    best = float(max(GRID, key=lambda t: np.mean([score(f, t) for f in found.values()])))
    return {"embedder": embedder.name, "pairs": len(pairs), "threshold": best,
            "score": round(float(np.mean([score(f, best) for f in found.values()])), 4),
            "by_language": {language: {**rates(f, best), "means": {k: round(float(v.mean()), 4) for k, v in f.items()}}
                            for language, f in found.items()}}
