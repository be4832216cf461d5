"""Thresholds chosen on dev sets: the citation check's support threshold and the offline writer's decline thresholds.

Each prints the figures it chose; the results go into the embedder's row of search/embedders.py.
Also the BM25 hard negatives that train-reranker uses.
"""
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from measuring.datasets import judged_id, read_qrels, read_queries, sample
from hebrew.analyzer import analyze, analyze_query
from ingest.corpus import read_corpus
from search.bm25 import BM25


def corpus_bm25(folder: Path):
    """A BEIR folder's corpus with BM25 over each document's title and text: (docs, texts, bm25, index by id)."""
    docs = read_corpus(folder / "corpus.jsonl")
    texts = [f"{d.title}\n{d.text}" for d in docs]
    return docs, texts, BM25.index([analyze(t) for t in texts]), {d.id: i for i, d in enumerate(docs)}


def hard_negatives(bm25, question: str, gold: set[int], n: int) -> list[int]:
    """The n documents BM25 ranks highest for question that are not gold."""
    ranked = (int(i) for i in np.argsort(-bm25.scores_any(analyze_query(question))))
    return [i for i, _ in zip((i for i in ranked if i not in gold), range(n))]


def calibrate_support(verifier, folder: Path, limit: int, seed: int = 0) -> dict:
    """The support threshold that best separates claims their passage supports from claims it does not.

    A claim is a question joined to its gold answer ("Who discovered penicillin? Alexander Fleming"): a
    paraphrase of a fact, as a model writes one. Its gold paragraph supports it; the paragraph BM25 ranks
    highest among the others (usually a sibling paragraph of the same article) does not.
    """
    docs, _, bm25, index_of = corpus_bm25(folder)
    qrels = read_qrels(folder)
    queries = sample([q for q in read_queries(folder) if q["answers"]], qrels, limit, seed)
    positive, negative = [], []
    for query in tqdm(queries, desc="support calibration", file=sys.stderr):
        gold = {index_of[d] for d, g in qrels[query["id"]].items() if g > 0 and d in index_of}
        if not gold:
            continue
        claim = f"{query['text'].rstrip('?')}: {query['answers'][0]}."
        [other] = hard_negatives(bm25, query["text"], gold, 1)
        positive.append(float(verifier.support([claim], docs[min(gold)].text)[0]))
        negative.append(float(verifier.support([claim], docs[other].text)[0]))
    pos, neg = np.array(positive), np.array(negative)
    candidates = np.round(np.arange(0.20, 0.95, 0.01), 2)
    balanced = [((pos >= t).mean() + (neg < t).mean()) / 2 for t in candidates]
    best = int(np.argmax(balanced))
    return {"claims": len(pos), "threshold": float(candidates[best]), "balanced_accuracy": round(balanced[best], 4),
            "supported_kept": round(float((pos >= candidates[best]).mean()), 4),
            "unsupported_removed": round(float((neg < candidates[best]).mean()), 4),
            "support_mean_gold": round(float(pos.mean()), 4), "support_mean_other": round(float(neg.mean()), 4)}


def calibrate_decline(pipeline, folder: Path, limit: int, seed: int = 0) -> dict:
    """The offline writer's decline thresholds that best tell questions whose gold passage was retrieved from the
    same questions asked with their gold documents left out (which it should decline).

    Each question is retrieved twice; the writer's best sentence cosine and best combined score are kept for
    both, and every pair of thresholds on a grid is scored by balanced accuracy (answered with the gold present,
    declined without it). Only questions whose gold passage is retrieved count as answerable.
    """
    writer = pipeline.generator.writers["offline"]
    qrels = read_qrels(folder)
    queries = sample([q for q in read_queries(folder) if q["answerable"]], qrels, limit, seed)
    best = {True: [], False: []}  # gold retrieved -> [(best cosine, best score)]; False: gold left out
    for query, answerable, hits in with_and_without_gold(pipeline.retriever, queries, qrels, "decline calibration"):
        _, similarity, score = writer.scores(query["text"], "factual_lookup", hits)
        best[answerable].append((similarity.max(initial=0.0), score.max(initial=0.0)))
    pos, neg = np.array(best[True]), np.array(best[False])

    def rates(min_similarity: float, min_score: float) -> tuple[float, float]:
        """(share answered with the gold present, share declined without it) at these thresholds."""
        return (float(((pos[:, 0] >= min_similarity) & (pos[:, 1] >= min_score)).mean()),
                float(((neg[:, 0] < min_similarity) | (neg[:, 1] < min_score)).mean()))

    grid = np.round(np.arange(0.20, 0.96, 0.01), 2)
    s, t = max(((s, t) for s in grid for t in grid), key=lambda pair: sum(rates(*pair)))
    (answered, declined), current = rates(s, t), (writer.min_similarity, writer.min_score)
    return {"questions": len(pos), "min_similarity": float(s), "min_score": float(t),
            "balanced_accuracy": round((answered + declined) / 2, 4), "answered_with_gold": round(answered, 4),
            "declined_without_gold": round(declined, 4), "current": list(current),
            "current_balanced_accuracy": round(sum(rates(*current)) / 2, 4),
            "mean_best_score_gold": round(float(pos[:, 1].mean()), 4), "mean_best_score_without": round(float(neg[:, 1].mean()), 4)}


def with_and_without_gold(retriever, queries: list[dict], qrels: dict, desc: str):
    """(query, True, hits) with its gold documents searched, then (query, False, hits) with them left out, for
    each query whose gold passage is retrieved (when retrieval misses it, neither says anything about the writer)."""
    for query in tqdm(queries, desc=desc, file=sys.stderr):
        gold = frozenset(d for d, g in qrels[query["id"]].items() if g > 0)
        with retriever.excluding(frozenset()):
            found = retriever.search(query["text"])
        if not any(judged_id(h.chunk.doc_id, h.chunk.ref) in gold for h in found):
            continue
        yield query, True, found
        with retriever.excluding(gold):
            yield query, False, retriever.search(query["text"])
