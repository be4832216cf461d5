"""Retrieval and answer metrics, as BEIR (pytrec_eval) and SQuAD define them.

Rankings are lists of document ids, best first; qrels map document id -> graded relevance
(0 means judged not relevant). nDCG uses linear gain (trec_eval's default), as BEIR reports it.
"""
import math
import re
import string
from collections import Counter


def ndcg_at_k(ranking: list[str], qrels: dict[str, int], k: int = 10) -> float:
    """Normalised discounted cumulative gain of the top k."""
    dcg = sum(qrels.get(doc, 0) / math.log2(rank + 2) for rank, doc in enumerate(ranking[:k]))
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 2) for rank, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at_k(ranking: list[str], qrels: dict[str, int], k: int) -> float:
    """Share of the relevant documents found in the top k."""
    relevant = {doc for doc, grade in qrels.items() if grade > 0}
    return len(relevant & set(ranking[:k])) / len(relevant) if relevant else 0.0


def mrr_at_k(ranking: list[str], qrels: dict[str, int], k: int = 10) -> float:
    """Reciprocal rank of the first relevant document in the top k (0 if none)."""
    for rank, doc in enumerate(ranking[:k]):
        if qrels.get(doc, 0) > 0:
            return 1.0 / (rank + 1)
    return 0.0


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation, as numpy's default."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def normalize_answer(text: str) -> str:
    """SQuAD's normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def contains_gold(answer: str, golds: list[str]) -> bool:
    """Whether any normalised gold answer appears in the normalised answer."""
    normalized = f" {normalize_answer(answer)} "
    return any(f" {normalize_answer(g)} " in normalized for g in golds if normalize_answer(g))


def f1_score(answer: str, golds: list[str]) -> float:
    """SQuAD token F1 of the answer against the best-matching gold answer."""
    predicted = normalize_answer(answer).split()
    best = 0.0
    for gold in golds:
        truth = normalize_answer(gold).split()
        common = sum((Counter(predicted) & Counter(truth)).values())
        if common:
            precision, recall = common / len(predicted), common / len(truth)
            best = max(best, 2 * precision * recall / (precision + recall))
    return best
