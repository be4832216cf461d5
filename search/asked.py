"""The questions a passage answers, written beside it (document expansion), as a search field of their own.

A book may come with questions that readers ask, each naming the ref of the passage that answers it (the Shulchan
Arukh's seifim and the Rema's glosses: data/seif-questions/). They are kept in the library's store with their
vectors (table `asked`) and searched beside the passages' text: BM25 over them, Hebrew ones read by the Hebrew
analyzer and English ones by a plain English analyzer (search/english.py), and the cosine of the query with each
question. A passage's question score is that of its best question on each side; retrieval.py fuses it into the
passage's own score with ASKED_WEIGHT. The questions are never shown or cited: a hit is the passage.
Does not: store questions (storage/), read question files (ingest/questions.py) or fuse scores (retrieval.py).
"""
from dataclasses import dataclass

import numpy as np

from hebrew import analyzer
from hebrew.script import HEBREW_LETTER
from search import english
from search.bm25 import BM25


def terms(text: str) -> list[str]:
    """A question's BM25 terms: Hebrew by the Hebrew analyzer, anything else by the English one."""
    return analyzer.analyze(text) if HEBREW_LETTER.search(text) else english.analyze(text)


def query_terms(query: str) -> list[list[str]]:
    """A query's words as it is searched against the questions, each with its alternative forms."""
    return analyzer.analyze_query(query) if HEBREW_LETTER.search(query) else english.analyze_query(query)


@dataclass(frozen=True)
class AskedScores:
    """A query's question scores per chunk position: the best question's BM25 and cosine, and the best BM25."""

    bm25: np.ndarray
    dense: np.ndarray
    bm25_max: float


@dataclass(frozen=True)
class Asked:
    """The questions of a view's passages: their BM25 index, their vectors, and the chunk position each belongs to
    (a question of a long seif belongs to each of its chunks: one row per (question, position))."""

    bm25: BM25
    vectors: np.ndarray  # (questions, dim), unit length
    question: np.ndarray  # question index of each (question, position) row
    position: np.ndarray  # chunk position of each row
    size: int  # the view's chunk count

    @classmethod
    def of(cls, rows: list[tuple[str, str, str, np.ndarray]], chunks) -> "Asked | None":
        """The questions (doc_id, ref, text, vector) of the chunks whose (document, ref) they name; None when none
        of them names a chunk of this view (a library without questions searches as it always did)."""
        where: dict[tuple[str, str], list[int]] = {}
        for position, chunk in enumerate(chunks):
            if chunk.ref:
                where.setdefault((chunk.doc_id, chunk.ref), []).append(position)
        kept = [(text, vector, where[(doc_id, ref)]) for doc_id, ref, text, vector in rows if (doc_id, ref) in where]
        return cls.placed([t for t, _, _ in kept], [v for _, v, _ in kept], [p for _, _, p in kept], len(chunks))

    @classmethod
    def placed(cls, texts: list[str], vectors, positions: list[list[int]], size: int) -> "Asked | None":
        """Questions with their vectors and the chunk positions each belongs to, in a view of size positions."""
        if not texts:
            return None
        question = np.repeat(np.arange(len(texts)), [len(p) for p in positions])
        position = np.fromiter((p for ps in positions for p in ps), dtype=np.int64, count=len(question))
        return cls(BM25.index([terms(t) for t in texts]), np.vstack(vectors).astype(np.float32), question, position,
                   size)

    def __len__(self) -> int:
        return len(self.vectors)

    def scores(self, query: str, vector: np.ndarray | None, allowed: np.ndarray | None) -> AskedScores:
        """Per chunk position, the BM25 and cosine of its best question for query (0 where it has none, or where
        allowed, a mask of positions, says no)."""
        bm25 = self._best(self.bm25.scores_any(query_terms(query)))
        dense = self._best(self.vectors @ vector) if vector is not None else np.zeros(self.size)
        if allowed is not None:
            bm25[~allowed], dense[~allowed] = 0.0, 0.0
        return AskedScores(bm25, dense, float(bm25.max(initial=0.0)))

    def _best(self, per_question: np.ndarray) -> np.ndarray:
        """The best of each position's questions' scores (0 for a position without any, and never below 0)."""
        best = np.zeros(self.size)
        np.maximum.at(best, self.position, per_question[self.question])
        return best
