"""What one search of an embedded library reads: an immutable View of its chunks, BM25 and FAISS indexes.

A View answers the questions hybrid search (retrieval.py) asks of any backend, each over the chunks a Scope
allows: the best BM25 candidates and the score of any chunk, the nearest chunks to a query vector, the exact
cosine of given chunks, and their neighbours in their documents. Chunks are named by their position in the view.
The PostgreSQL backend answers the same questions in SQL (postgres/search.py), with the same scores.
Does not: change a library (search/library.py builds each next view) or fuse scores (retrieval.py).
"""
from dataclasses import dataclass, field
from functools import cached_property

import faiss
import numpy as np

from models import Chunk
from search.asked import Asked, AskedScores
from search.bm25 import BM25


@dataclass(frozen=True)
class Scope:
    """Which passages a search may return: those of `documents` (None: all), never those of `excluded`, and of
    those only the chunk keys in `chunks` when it is given (a section filter, search/section_filters.py)."""

    documents: frozenset[str] | None = None
    excluded: frozenset[str] = frozenset()
    chunks: frozenset[int] | None = None

    def __bool__(self) -> bool:
        return self.documents is not None or bool(self.excluded) or self.chunks is not None


def top(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores, best first (ties in index order)."""
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
    above = np.flatnonzero(scores > kth)  # then the first of the chunks tied at the k-th score, as SQL's ORDER BY
    best = np.concatenate([above, np.flatnonzero(scores == kth)[:k - len(above)]])
    return best[np.lexsort((best, -scores[best]))]


def scope_mask(scope: Scope, doc_ids: np.ndarray, keys: np.ndarray) -> np.ndarray | None:
    """Which of the rows (each a chunk's document id and key) scope allows, as a mask; None when it allows all."""
    if not scope:
        return None
    mask = np.ones(len(keys), dtype=bool)
    if scope.documents is not None:
        mask &= np.isin(doc_ids, list(scope.documents))
    if scope.excluded:
        mask &= ~np.isin(doc_ids, list(scope.excluded))
    if scope.chunks is not None:
        mask &= np.isin(keys, np.fromiter(scope.chunks, dtype=np.int64, count=len(scope.chunks)))
    return mask


@dataclass(frozen=True)
class Candidates:
    """What a search's first stage found: the union of BM25's and dense search's best chunk keys (ascending), each
    key's BM25 score and cosine, the query's best BM25 score over the scope, and each key's canonical ref when the
    backend read them on the way (None: ask refs_of)."""

    keys: np.ndarray
    bm25: np.ndarray
    dense: np.ndarray
    bm25_max: float
    refs: list[str | None] | None = None
    asked: AskedScores | None = None  # each key's question scores, when the passages have questions (search/asked.py)


def composed(view, words: list[list[str]] | None, vector: np.ndarray | None, k: int, scope: "Scope",
             query: str | None = None) -> Candidates:
    """Candidates asked one question at a time of a view: its lexical, nearest and cosines (None words: no BM25
    stage, None vector: no dense stage); with query, also the passages whose written questions match it best."""
    keys, lexical = np.zeros(0, dtype=np.int64), None
    if words is not None:
        lexical = view.lexical(words, k, scope)
        keys = np.sort(lexical.top)
    if vector is not None:
        keys = np.union1d(keys, view.nearest(vector, k, scope)).astype(np.int64)
    asked = None
    if query is not None and getattr(view, "asked", None) is not None:
        asked = view.asked.scores(query, vector, view.allowed(scope))
        keys = np.union1d(keys, asked_best(asked, k, lexical is not None, vector is not None)).astype(np.int64)
    dense = view.cosines(keys, vector) if vector is not None else np.zeros(len(keys))
    bm25 = lexical.scores_of(keys) if lexical else np.zeros(len(keys))
    if asked is not None:
        asked = AskedScores(asked.bm25[keys], asked.dense[keys], asked.bm25_max)
    return Candidates(keys, bm25, dense, lexical.max if lexical else 0.0, asked=asked)


def asked_best(asked: AskedScores, k: int, lexical: bool, dense: bool) -> np.ndarray:
    """The positions whose questions score best by BM25 and by cosine (each stage the search runs), k of each."""
    best = [np.zeros(0, dtype=np.int64)]
    for used, scores in ((lexical, asked.bm25), (dense, asked.dense)):
        if used:
            chosen = top(scores, k)
            best.append(chosen[scores[chosen] > 0])
    return np.concatenate(best)


class Lexical:
    """A query's BM25 scores over a scope: its best candidates, its best score, and the score of any chunk."""

    def __init__(self, scores: np.ndarray, k: int):
        self.scores = scores
        best = top(scores, k)
        self.top = best[scores[best] > 0]  # a chunk with no query word is no BM25 candidate
        self.max = float(scores.max(initial=0.0))

    def scores_of(self, keys: np.ndarray) -> np.ndarray:
        return self.scores[keys]


@dataclass(frozen=True)
class View:
    """Chunks in library order, their BM25 and FAISS indexes, and FAISS labels by position."""

    chunks: list[Chunk]
    bm25: BM25
    index: faiss.Index
    labels: np.ndarray  # labels[i] is the FAISS id of chunks[i]; ascending
    generation: int = 0
    doc_ids: np.ndarray = field(default=None)  # doc_ids[i] is chunks[i].doc_id
    asked: Asked | None = None  # the questions written beside the passages, when the library has any

    def __post_init__(self):
        if self.doc_ids is None:
            object.__setattr__(self, "doc_ids", np.array([c.doc_id for c in self.chunks], dtype=object))

    @classmethod
    def of(cls, chunks: list[Chunk], bm25: BM25, index: faiss.Index) -> "View":
        """A view of an index whose FAISS ids are the chunk positions (tests, throwaway indexes)."""
        return cls(chunks, bm25, index, np.arange(len(chunks), dtype=np.int64))

    def positions(self, labels: np.ndarray) -> np.ndarray:
        """Chunk positions of FAISS labels (all of which must be in this view)."""
        return np.searchsorted(self.labels, labels)

    @property
    def vocabulary(self):
        """The BM25 terms of the library (for the glossary's words the texts contain)."""
        return self.bm25.vocab

    def size(self) -> int:
        return len(self.chunks)

    def key_of(self, position: int) -> int:
        """The chunk key a Scope's chunks name (its FAISS id, the store's rowid) of the chunk at position."""
        return int(self.labels[position])

    def allowed(self, scope: Scope) -> np.ndarray | None:
        """The chunk positions scope allows, as a mask; None when it allows all."""
        return scope_mask(scope, self.doc_ids, self.labels)

    def lexical(self, words: list[list[str]], k: int, scope: Scope) -> Lexical:
        """BM25 of the query words (each with its alternative forms) over the chunks scope allows."""
        scores = self.bm25.scores_any(words)
        allowed = self.allowed(scope)
        if allowed is not None:
            scores[~allowed] = 0.0
        return Lexical(scores, k)

    def nearest(self, vector: np.ndarray, k: int, scope: Scope) -> np.ndarray:
        """Positions of the k chunks nearest the vector (exact over the allowed ones when scoped)."""
        allowed = self.allowed(scope)
        if allowed is None:
            _, labels = self.index.search(vector[None, :], min(k, self.index.ntotal))
            return self.positions(labels[0][labels[0] >= 0])
        positions = np.flatnonzero(allowed)
        if not len(positions):
            return positions
        return positions[top(self.cosines(positions, vector), k)]

    def candidates(self, words, vector, k: int, scope: Scope, query: str | None = None) -> Candidates:
        """The best k of BM25 and of dense search over scope, with both scores of each, and with query the best of
        the passages' written questions (search/view.composed)."""
        return composed(self, words, vector, k, scope, query)

    def passages(self, keys: np.ndarray, context: int) -> tuple[list[Chunk | None], dict]:
        """The chunks of keys, and the neighbours (before, after) of the first `context` of them by key."""
        return self.chunks_of(keys), {int(k): self.neighbours(int(k)) for k in keys[:context]}

    def cosines(self, keys: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """The exact inner product of each chunk's stored vector with vector (cosine: both are unit length)."""
        if not len(keys):
            return np.zeros(0, dtype=np.float32)
        return self.index.reconstruct_batch(self.labels[keys]) @ vector

    def chunks_of(self, keys: np.ndarray) -> list[Chunk]:
        return [self.chunks[k] for k in keys]

    def refs_of(self, keys: np.ndarray) -> list[str | None]:
        """The canonical ref of each chunk (None for one without), what the second look reads of every candidate."""
        return [self.chunks[k].ref for k in keys]

    @cached_property
    def _by_passage(self) -> dict[str, list[int]]:
        """Chunk positions by passage key (Chunk.key), made the first time a relation asks."""
        found: dict[str, list[int]] = {}
        for position, chunk in enumerate(self.chunks):
            found.setdefault(chunk.key, []).append(position)
        return found

    @cached_property
    def _by_id(self) -> dict[str, int]:
        return {chunk.id: position for position, chunk in enumerate(self.chunks)}

    def by_id(self, chunk_id: str) -> int | None:
        """The position of the chunk with this id; None when there is none."""
        return self._by_id.get(chunk_id)

    def by_keys(self, keys) -> list[tuple[int, str]]:
        """(position, passage key) of every chunk of the passages named (a long seif is several), in view order."""
        return sorted((p, key) for key in dict.fromkeys(keys) for p in self._by_passage.get(key, ()))

    def neighbours(self, key: int) -> tuple[Chunk | None, Chunk | None]:
        """The chunks before and after a chunk in its document (None at either end)."""
        doc_id = self.chunks[key].doc_id
        before = self.chunks[key - 1] if key > 0 and self.chunks[key - 1].doc_id == doc_id else None
        after = self.chunks[key + 1] if key + 1 < len(self.chunks) and self.chunks[key + 1].doc_id == doc_id else None
        return before, after
