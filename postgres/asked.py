"""The questions written beside passages (search/asked.py) in PostgreSQL: kept in the table `asked`, and read into
each server's memory, again when the library's generation has moved (checked at most every FRESH seconds, so a
search costs no statement for them), then scored as the embedded library scores them.

A question belongs to the chunks of its document that carry its ref; the positions are chunk ids. What a search may
reach is the scope's: a question of a document the reader may not see scores nothing, so a hidden passage is never
found through its questions. A candidate found only through its questions gets its text's BM25 and cosine by two
more statements, on those candidates alone.
Does not: write questions (PgLibrary.add_questions) or fuse scores (retrieval.py).
"""
import threading
import time
from dataclasses import dataclass

import numpy as np

from search.asked import Asked, AskedScores
from search.view import Candidates, Scope, asked_best, scope_mask

FRESH = 5.0  # seconds a server searches with the questions it read before looking at the generation again


@dataclass(frozen=True)
class Owners:
    """The chunk ids the questions reach and the document of each, read once with them."""

    keys: np.ndarray
    documents: np.ndarray


class PgAsked:
    """The library's questions as this server last read them, with the document of each chunk position they reach."""

    def __init__(self, db):
        self.db = db
        self._lock = threading.Lock()
        self._read = (-FRESH - 1.0, None, None, None)  # (when, generation, Asked, Owners)

    def current(self) -> tuple[Asked | None, Owners | None]:
        """The questions and the documents of their positions, read again when the generation moved."""
        read_at, generation, asked, owners = self._read
        if time.monotonic() - read_at <= FRESH:
            return asked, owners
        with self._lock:
            now = int(self.db.execute("SELECT value FROM library_meta WHERE key = 'generation'")[0][0])
            if now != generation:
                asked, owners = self._load()
            self._read = (time.monotonic(), now, asked, owners)
        return asked, owners

    def _load(self) -> tuple[Asked | None, Owners | None]:
        rows = self.db.execute("SELECT a.id, a.text, a.embedding::real[], array_agg(c.id ORDER BY c.id), a.doc_id FROM asked a "
                               "JOIN chunks c ON c.doc_id = a.doc_id AND c.section_ref = a.ref "
                               "GROUP BY a.id ORDER BY a.id")
        if not rows:
            return None, None
        size = max(max(r[3]) for r in rows) + 1
        documents = {key: r[4] for r in rows for key in r[3]}
        owners = Owners(np.fromiter(documents, dtype=np.int64, count=len(documents)),
                        np.array(list(documents.values()), dtype=object))
        return Asked.placed([r[1] for r in rows], [np.asarray(r[2], dtype=np.float32) for r in rows],
                            [list(r[3]) for r in rows], size), owners


def allowed(asked: Asked, owners: Owners, scope: Scope) -> np.ndarray | None:
    """The positions scope lets a search reach, as a mask (None: all)."""
    ok = scope_mask(scope, owners.documents, owners.keys)
    if ok is None:
        return None
    mask = np.zeros(asked.size, dtype=bool)
    mask[owners.keys[ok]] = True
    return mask


def with_asked(view, found: Candidates, query: str, words, vector, k: int, scope: Scope) -> Candidates:
    """The first stage's candidates with the passages whose questions match query best, and each one's scores."""
    asked, owners = view.asked.current()
    if asked is None:
        return found
    scores = asked.scores(query, vector, allowed(asked, owners, scope))
    extra = np.setdiff1d(asked_best(scores, k, words is not None, vector is not None), found.keys)
    keys, bm25, dense, refs = found.keys, found.bm25, found.dense, found.refs
    if len(extra):
        extra_bm25, extra_dense, extra_refs = view.text_scores(extra, words, vector, scope)
        keys, bm25 = np.concatenate([keys, extra]), np.concatenate([bm25, extra_bm25])
        dense = np.concatenate([dense, extra_dense]).astype(np.float32)
        refs = None if refs is None else list(refs) + extra_refs
    return Candidates(keys, bm25, dense, found.bm25_max, refs,
                      AskedScores(at(scores.bm25, keys), at(scores.dense, keys), scores.bm25_max))


def at(scores: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """scores[keys], 0 for a key past the last position any question belongs to."""
    out = np.zeros(len(keys))
    inside = keys < len(scores)
    out[inside] = scores[keys[inside]]
    return out
