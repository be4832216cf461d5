"""The ranking (checks/ranking.py), fitted on candidates recorded through the real pipeline.

`record` asks each answerable question of a set as the pipeline would (train_decision.looks), its gold present, and
keeps each look's candidates that may answer with their features and whether each is right: it holds a gold answer
(a set with answers: squad-dev, heq-dev, wiki-asked, heq-asked), or its passage is a gold seif (our lay questions,
whose qrels name refs). Only tuning halves, calibrate splits and the lay questions' train splits are recorded.
`fit` keeps the looks with a right candidate and a wrong one and fits a conditional logit (a softmax over one look's
candidates; gradient descent, L2) in which every set weighs the same. Its card gives each set's share of those looks
whose first candidate is right, ordered by the judge alone and by the ranking: on the looks fitted, and on a
held-out fifth (by a hash of the question's id) measured by a fit without them.
"""
import hashlib
import json
from pathlib import Path

import numpy as np

from checks.ranking import FEATURES, FILE
from measuring.datasets import judged_id, names_refs, read_qrels, sample
from measuring.metrics import contains_gold
from training.train_decision import for_measurement, looks, questions

HELD_OUT = 5  # one question in this many is held out to measure the fit


def record(pipeline, folder: Path, split: str | None, half: str | None, limit: int | None, seed: int = 0,
           corpus: Path | None = None, qrels_split: str = "test") -> list[dict]:
    """Each look's candidates at one set's answerable questions (see the module docstring)."""
    if for_measurement(folder, split, half) or "test" in qrels_split and "lay-questions" in str(folder):
        raise ValueError(f"{folder} ({half or split or qrels_split}) is for measurement only; "
                         "the ranking is never fitted on it")
    qrels = read_qrels(folder, qrels_split)
    queries = [q for q in questions(folder, qrels, split, half, corpus) if q["answerable"]]
    rows = []
    for query in sample(queries, qrels, limit, seed):
        gold = frozenset(d for d, g in qrels.get(query["id"], {}).items() if g > 0)
        for look, (hits, choice) in enumerate(looks(pipeline, query["text"]), start=1):
            passages = [judged_id(h.chunk.doc_id, h.chunk.ref) for h in hits]
            right = [bool(contains_gold(sentence, query["answers"])) if query["answers"]
                     else names_refs(gold) and passages[n - 1] in gold for n, sentence, _ in choice.candidates]
            rows.append({"set": folder.name + (f"-{qrels_split}" if not (split or half) else ""), "id": query["id"],
                         "look": look, "right": [int(r) for r in right],
                         "features": [[round(float(f[name]), 6) for name in FEATURES] for _, _, f in choice.candidates]})
    return rows


def informative(rows: list[dict]) -> list[dict]:
    """The looks with a right candidate and a wrong one: only they say which fits better."""
    return [r for r in rows if 0 < sum(r["right"]) < len(r["right"])]


def held_out(row: dict) -> bool:
    """Whether a look's question is in the held-out fifth."""
    return int(hashlib.sha256(f"{row['set']}/{row['id']}".encode()).hexdigest(), 16) % HELD_OUT == 0


def padded(rows: list[dict], means: np.ndarray, scales: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standardised features (looks, candidates, FEATURES), the mask of real candidates, and which are right."""
    width = max(len(r["right"]) for r in rows)
    x = np.zeros((len(rows), width, len(FEATURES)))
    mask = np.zeros((len(rows), width), dtype=bool)
    right = np.zeros((len(rows), width))
    for g, r in enumerate(rows):
        k = len(r["right"])
        x[g, :k] = (np.array(r["features"]) - means) / scales
        mask[g, :k] = True
        right[g, :k] = r["right"]
    return x, mask, right


def conditional_logit(x: np.ndarray, mask: np.ndarray, right: np.ndarray, w: np.ndarray, l2: float = 0.01,
                      steps: int = 2000, rate: float = 0.5) -> np.ndarray:
    """Weights that make a look's right candidates likely under a softmax over its candidates (w: each look's)."""
    coef = np.zeros(x.shape[2])
    w = w / w.sum()
    for _ in range(steps):
        z = np.where(mask, x @ coef, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        q = p * right
        q /= q.sum(axis=1, keepdims=True)
        coef -= rate * (np.einsum("g,gmf->f", w, np.einsum("gm,gmf->gmf", p - q, x)) + l2 * coef)
    return coef


def firsts(rows: list[dict], coef: np.ndarray | None, means: np.ndarray, scales: np.ndarray) -> dict[str, float]:
    """Per set, the share of looks whose first candidate is right: by coef, or (None) by the judge alone."""
    x, mask, right = padded(rows, means, scales)
    score = x[:, :, FEATURES.index("judge")] if coef is None else x @ coef
    first = np.where(mask, score, -np.inf).argmax(axis=1)
    hit = right[np.arange(len(rows)), first]
    return {name: round(float(np.mean([h for h, r in zip(hit, rows) if r["set"] == name])), 4)
            for name in sorted({r["set"] for r in rows})}


def set_weights(rows: list[dict]) -> np.ndarray:
    """Each look's weight: every set weighs the same."""
    count: dict[str, int] = {}
    for r in rows:
        count[r["set"]] = count.get(r["set"], 0) + 1
    return np.array([1.0 / count[r["set"]] for r in rows])


def fitted(rows: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weights, means and scales fitted on rows."""
    flat = np.array([f for r in rows for f in r["features"]])
    means, scales = flat.mean(axis=0), flat.std(axis=0)
    scales[scales < 1e-6] = 1.0  # a feature the same everywhere (rounded to 0 in the card)
    return conditional_logit(*padded(rows, means, scales), set_weights(rows)), means, scales


def fit(rows: list[dict]) -> dict:
    """The ranking's card: features, weights, standardisation, and each set's first-candidate figures."""
    rows = informative(rows)
    if not rows:
        raise ValueError("no look has both a right and a wrong candidate: record more with "
                         "`flask --app app record-rankings`")
    train, test = [r for r in rows if not held_out(r)], [r for r in rows if held_out(r)]
    card = {"features": list(FEATURES), "looks": {name: sum(r["set"] == name for r in rows)
                                                  for name in sorted({r["set"] for r in rows})}}
    if train and test:
        coef, means, scales = fitted(train)
        card["held_out"] = {"judge": firsts(test, None, means, scales), "ranking": firsts(test, coef, means, scales)}
    coef, means, scales = fitted(rows)
    card["fitted"] = {"judge": firsts(rows, None, means, scales), "ranking": firsts(rows, coef, means, scales)}
    card.update(weights=[round(float(c), 6) for c in coef], means=[round(float(m), 6) for m in means],
                scales=[round(float(s), 6) for s in scales])
    return card


def save(card: dict, folder: Path) -> Path:
    """Write the card as ranking.json in the judge's folder."""
    path = Path(folder) / FILE
    path.write_text(json.dumps(card, indent=2) + "\n")
    return path
