"""Hybrid retrieval: retrieve with BM25 and dense vectors, fuse the scores, re-rank with a cross-encoder.

fused = alpha * cosine + (1 - alpha) * bm25 / max(bm25), over the union of each method's top
candidates; the best `rerank_depth` go to the cross-encoder when one is loaded, and the top k are
returned with every stage's score. Without a cross-encoder the hybrid order stands. A question is searched
in its own words and in the words the texts use for them (hebrew/glossary.py), so an English or everyday-Hebrew
question finds a rabbinic text.
"""
import time
from dataclasses import dataclass

import numpy as np

from hebrew.glossary import query_words, with_text_words
from hebrew.script import HEBREW_LETTER
from models import Hit
from search.embedders import UNCALIBRATED
from search.reranker import Reranker

MODES = ("bm25", "dense", "hybrid", "rerank")


@dataclass
class RetrievalConfig:
    """The knobs of hybrid search, at the design's defaults (later tuned by measurement)."""

    alpha: float = 0.7  # weight of the dense score for English and other queries: best on the English dev sets (README)
    candidates: int = 200  # top candidates taken from each of BM25 and dense search
    rerank_depth: int = 32  # fused candidates the cross-encoder re-scores
    top_k: int = 5  # passages returned
    alpha_he: float = UNCALIBRATED.alpha_he  # for queries in Hebrew (or Aramaic); chosen per embedder (embedders.py)


def fuse(dense: np.ndarray, bm25: np.ndarray, bm25_max: float, alpha: float) -> np.ndarray:
    """The design's linear fusion; BM25 is scaled by the best BM25 score of the query, so it lies in [0, 1]."""
    scaled = bm25 / bm25_max if bm25_max > 0 else np.zeros_like(bm25)
    return alpha * dense + (1 - alpha) * scaled


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores, best first."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


class Retriever:
    """Searches one library of chunks with BM25, a FAISS index and, optionally, a cross-encoder."""

    def __init__(self, library, embedder, reranker: Reranker | None = None, config=None):
        """library: current() gives the View to search, matching_documents(filters) the ids filters allow."""
        self.library = library
        self.embedder = embedder
        self.reranker = reranker
        self.config = config or RetrievalConfig()

    def search(self, query: str, top_k: int | None = None, candidates: int | None = None, timings=None,
               mode: str | None = None, filters: dict | None = None) -> list[Hit]:
        """Find the passages that best answer query.

        Args:
            query: the question as the user wrote it.
            top_k: passages to return (default: the config's).
            candidates: candidates taken from each of BM25 and dense search (default: the config's).
            timings: a dict that receives the milliseconds of each stage, if given.
            mode: "bm25", "dense", "hybrid" or "rerank" to rank by one stage (default: the full pipeline).
            filters: search only documents matching document_ids, language, work, tier, community.

        Returns:
            Up to top_k hits, best first, each with its BM25, dense, fused and cross-encoder scores
            (a stage that a mode skips scores 0), and its neighbouring chunks in the document.
        """
        cfg = self.config
        view = self.library.current()
        top_k = top_k or cfg.top_k
        candidates = candidates or cfg.candidates
        hebrew = bool(HEBREW_LETTER.search(query))
        # a query in Hebrew is not re-ranked: no cross-encoder that reads Hebrew can be installed here (README)
        mode = mode or ("rerank" if self.reranker and not hebrew else "hybrid")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        if mode == "rerank" and not self.reranker:
            raise ValueError("mode 'rerank' needs a cross-encoder; set RERANKER_MODEL")
        timings = {} if timings is None else timings
        clock = time.perf_counter()

        def lap(stage):
            nonlocal clock
            now = time.perf_counter()
            timings[stage] = round((now - clock) * 1000, 2)
            clock = now

        allowed = self.allowed(view, filters)  # a mask over chunk positions, when filters narrow the search
        ids = np.zeros(0, dtype=np.int64)
        bm25_all = np.zeros(len(view.chunks))
        if mode != "dense":
            bm25_all = view.bm25.scores_any(self.bm25_words(query))  # a word counts by its best form
            if allowed is not None:
                bm25_all[~allowed] = 0.0
            bm25_top = _top(bm25_all, candidates)
            ids = bm25_top[bm25_all[bm25_top] > 0]  # a chunk with no query word is no BM25 candidate
            lap("bm25")
        if mode != "bm25":
            query_vector = self.embedder.embed_queries([self.dense_text(query, view.bm25.vocab)])[0]
            lap("embed_query")
            ids = np.union1d(ids, self._dense_candidates(view, query_vector, candidates, allowed)).astype(np.int64)
            lap("dense")

        dense = (view.index.reconstruct_batch(view.labels[ids]) @ query_vector if mode != "bm25" and len(ids)
                 else np.zeros(len(ids)))
        bm25 = bm25_all[ids]
        fused = fuse(dense, bm25, float(bm25_all.max(initial=0.0)), cfg.alpha_he if hebrew else cfg.alpha)
        rank_by = {"bm25": bm25, "dense": dense}.get(mode, fused)
        depth = cfg.rerank_depth if mode == "rerank" else 0
        order = _top(rank_by, max(top_k, depth))
        hits = [Hit(view.chunks[ids[i]].bounded(), float(bm25[i]), float(dense[i]), float(fused[i]),
                    position=int(ids[i])) for i in order]
        lap("fusion")

        if depth and hits:  # the best `depth` fused hits are re-scored; any below them keep the fused order
            head = hits[:depth]
            ce = self.reranker.score(query, [h.chunk.passage_text for h in head])
            for hit, score in zip(head, ce):
                hit.ce_score = float(score)
            hits = sorted(head, key=lambda h: h.ce_score, reverse=True) + hits[depth:]
            lap("rerank")
        hits = hits[:top_k]
        for hit in hits:  # the passages around each hit, for context
            before, after = hit.position - 1, hit.position + 1
            if before >= 0 and view.chunks[before].doc_id == hit.chunk.doc_id:
                hit.context_before = view.chunks[before].bounded().text
            if after < len(view.chunks) and view.chunks[after].doc_id == hit.chunk.doc_id:
                hit.context_after = view.chunks[after].bounded().text
        return hits

    def allowed(self, view, filters: dict | None) -> np.ndarray | None:
        """The chunk positions filters allow, as a mask; None when nothing is filtered."""
        if not filters:
            return None
        return np.isin(view.doc_ids, list(self.library.matching_documents(filters)))

    @staticmethod
    def bm25_words(query: str) -> list[list[str]]:
        """The query's BM25 words, each with its alternative forms, the glossary's words for it added."""
        return query_words(query)

    @staticmethod
    def dense_text(query: str, vocabulary) -> str:
        """What dense search embeds: the question and the glossary's words for it that the library contains."""
        return with_text_words(query, vocabulary)

    @staticmethod
    def _dense_candidates(view, query_vector: np.ndarray, k: int, allowed) -> np.ndarray:
        """Positions of the k chunks nearest the query (among the allowed ones, when filtered)."""
        if allowed is None:
            _, labels = view.index.search(query_vector[None, :], min(k, view.index.ntotal))
            return view.positions(labels[0][labels[0] >= 0])
        positions = np.flatnonzero(allowed)  # filtered: exact search over the allowed chunks only
        if not len(positions):
            return positions
        scores = view.index.reconstruct_batch(view.labels[positions]) @ query_vector
        return positions[_top(scores, k)]
