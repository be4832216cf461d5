"""Hybrid retrieval: retrieve with BM25 and dense vectors, fuse the scores, re-rank with a cross-encoder.

fused = alpha * cosine + (1 - alpha) * bm25 / max(bm25) (FUSION=weighted, the default), or reciprocal rank fusion,
1/(k + BM25 rank) + 1/(k + dense rank) scaled to [0, 1] (FUSION=rrf, k = RRF_K), over the union of each method's top
candidates; the best `rerank_depth` go to the cross-encoder when one is loaded, and the top k are
returned with every stage's score. Without a cross-encoder the hybrid order stands. A question is searched
in its own words and in the words the texts use for them (hebrew/glossary.py), so an English or everyday-Hebrew
question finds a rabbinic text. With community_boost on, the seeds' boosts are added to the fused scores of
passages of the reader's community, of all communities ("General") and of canonical texts (authority_boost).
In a book with canonical refs, a passage's fused score also counts its section's best candidates when
section_weight is above 0 (search/section_look.py: a seif with its siman's). A passage with questions written beside
it (search/asked.py) adds asked_weight times its questions' fused score (the same fusion over their BM25 and cosine);
a hit keeps its passage's own score too (passage_score), which is on the same scale with or without questions.
"""
import time
from dataclasses import dataclass

import numpy as np

from hebrew.glossary import query_words, with_text_words
from hebrew.script import HEBREW_LETTER
from models import Chunk, Hit
from search.embedders import UNCALIBRATED
from search.reranker import Reranker
from search.section_look import with_sections
from search.section_filters import SECTION_FILTERS, section_keys
from search.section_filters import wanted as sections_wanted
from search.view import Candidates, Scope, top

MODES = ("bm25", "dense", "hybrid", "rerank")
FUSIONS = ("weighted", "rrf")
# The seeds' boosts, added to a candidate's fused score when COMMUNITY_BOOST is on (README, "Hebrew and Aramaic")
SAME_COMMUNITY, GENERAL, CANONICAL = 0.15, 0.05, 0.10


@dataclass
class RetrievalConfig:
    """The knobs of hybrid search, at the design's defaults (later tuned by measurement)."""

    alpha: float = 0.7  # weight of the dense score for English and other queries: best on the English dev sets (README)
    candidates: int = 200  # top candidates taken from each of BM25 and dense search
    rerank_depth: int = 32  # fused candidates the cross-encoder re-scores
    top_k: int = 5  # passages returned
    alpha_he: float = UNCALIBRATED.alpha_he  # for queries in Hebrew (or Aramaic); chosen per embedder (embedders.py)
    community_boost: bool = False  # add authority_boost to the fused scores (off: it lost on halacha-he, README)
    section_weight: float = 0.0  # the second look over books with refs (search/section_look.py); 0: off
    fusion: str = "weighted"  # or "rrf": reciprocal rank fusion
    rrf_k: int = 60
    asked_weight: float = 0.0  # the weight of the questions written beside passages (search/asked.py); 0: unread


def fuse(dense: np.ndarray, bm25: np.ndarray, bm25_max: float, alpha: float) -> np.ndarray:
    """The design's linear fusion; BM25 is scaled by the best BM25 score of the query, so it lies in [0, 1]."""
    scaled = bm25 / bm25_max if bm25_max > 0 else np.zeros_like(bm25)
    return alpha * dense + (1 - alpha) * scaled


def rrf(dense: np.ndarray, bm25: np.ndarray, k: int) -> np.ndarray:
    """Reciprocal rank fusion of the candidates' two rankings, 1/(k + rank) each, scaled so that a candidate first in
    both scores 1 (the boosts and the second look add to it as to the weighted score)."""
    fused = np.zeros(len(dense))
    for scores in (dense, bm25):
        ranks = np.empty(len(scores))
        ranks[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
        fused += 1.0 / (k + ranks)
    return fused * (k + 1) / 2


def authority_boost(chunk: Chunk | None, community: str | None) -> float:
    """What the seeds add to a passage's fused score for a reader of community (None: a reader without one):
    its community's passages, passages for all communities ("General") and canonical ones count for more."""
    if chunk is None:
        return 0.0
    return (SAME_COMMUNITY * (community is not None and chunk.community == community)
            + GENERAL * (chunk.community == "General")
            + CANONICAL * (chunk.tier == "canonical" or chunk.authority_weight > 0))


class Retriever:
    """Searches one library of chunks with BM25, a FAISS index and, optionally, a cross-encoder."""

    def __init__(self, library, embedder, reranker: Reranker | None = None, config=None):
        """library: current() gives the View to search, matching_documents(filters) the ids filters allow."""
        self.library = library
        self.embedder = embedder
        self.reranker = reranker
        self.config = config or RetrievalConfig()

    def search(self, query: str, top_k: int | None = None, candidates: int | None = None, timings=None,
               mode: str | None = None, filters: dict | None = None, hidden: frozenset[str] = frozenset(),
               community: str | None = None) -> list[Hit]:
        """Find the passages that best answer query.

        Args:
            query: the question as the user wrote it.
            top_k: passages to return (default: the config's).
            candidates: candidates taken from each of BM25 and dense search (default: the config's).
            timings: a dict that receives the milliseconds of each stage, if given.
            mode: "bm25", "dense", "hybrid" or "rerank" to rank by one stage (default: the full pipeline).
            filters: search only documents matching document_ids, language, work, tier, community.
            hidden: documents the reader may not see; no route of the search reaches them (applied before top-k).
            community: the reader's community ("Ashkenazi", "Sephardi" ...), for the boosts when the config has them.

        Returns:
            Up to top_k hits, best first, each with its BM25, dense, fused and cross-encoder scores
            (a stage that a mode skips scores 0), and its neighbouring chunks in the document.
        """
        cfg = self.config
        view = self.library.current()
        top_k, hebrew = top_k or cfg.top_k, bool(HEBREW_LETTER.search(query))
        # a query in Hebrew is re-ranked only by a cross-encoder trained to read it (train-lay-reranker's)
        mode = mode or ("rerank" if self.reranker and (not hebrew or "he" in self.reranker.languages) else "hybrid")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        if mode == "rerank" and not self.reranker:
            raise ValueError("mode 'rerank' needs a cross-encoder; set RERANKER_MODEL")
        lap = Laps({} if timings is None else timings)
        found = self.candidates(view, query, mode, candidates or cfg.candidates, self.scope(filters, hidden), lap)
        keys, bm25, dense = found.keys, found.bm25, found.dense
        fused, own, rows = self.scored(view, found, mode, hebrew, community)
        depth = cfg.rerank_depth if mode == "rerank" else 0
        order = top({"bm25": bm25, "dense": dense}.get(mode, fused), max(top_k, depth))
        # the shown passages and what lies around each that may be shown, in one read (or from the rows read)
        chunks, around = view.passages(keys[order], max(top_k, depth)) if rows is None else ([rows[i] for i in order], {})
        written = found.asked is not None  # the library has questions written beside these passages
        hits = [Hit(chunk.bounded(), float(bm25[i]), float(dense[i]), float(fused[i]), position=int(keys[i]),
                    passage_score=float(own[i]) if written else None)
                for chunk, i in zip(chunks, order) if chunk is not None]  # None: removed since it was found
        lap("fusion")
        if depth and hits:
            hits = self.rerank(query, hits, depth)
            lap("rerank")
        return with_context(view, hits[:top_k], around)

    def scored(self, view, found: Candidates, mode: str, hebrew: bool, community: str | None):
        """The candidates' fused scores; their passages' own, without the questions written beside them (on one scale
        whether a library has them or not); and every candidate's chunk when the boosts read them (else None)."""
        cfg = self.config
        own, asked = self.fused(found.dense, found.bm25, found.bm25_max, mode, hebrew), self.asked(found, mode, hebrew)
        rows = None
        looking_again = mode in ("hybrid", "rerank") and len(found.keys)
        if cfg.community_boost and looking_again:
            rows = view.chunks_of(found.keys)
            own = own + np.array([authority_boost(chunk, community) for chunk in rows])
        fused = own + asked
        if cfg.section_weight and looking_again:  # a passage with its section's best: the siman found by its seifim
            refs = refs_of(view, found, rows)
            fused = with_sections(fused, refs, cfg.section_weight)
            own = with_sections(own, refs, cfg.section_weight) if found.asked is not None else fused
        return fused, own, rows

    def candidates(self, view, query: str, mode: str, candidates: int, scope: Scope, lap) -> Candidates:
        """The union of BM25's and dense search's best candidates (one of them for a one-stage mode), with each
        candidate's BM25 and cosine scores and the query's best BM25 score, asked of the view at once."""
        vector = None
        if mode != "bm25":
            vector = self.embedder.embed_queries([self.dense_text(query, view.vocabulary)])[0]
            lap("embed_query")
        # a word counts by its best form
        asked = query if self.config.asked_weight > 0 and mode in ("hybrid", "rerank") else None
        found = view.candidates(self.bm25_words(query) if mode != "dense" else None, vector, candidates, scope, asked)
        lap("search")
        return found

    def fused(self, dense: np.ndarray, bm25: np.ndarray, bm25_max: float, mode: str, hebrew: bool) -> np.ndarray:
        """The candidates' fused scores: reciprocal rank fusion when FUSION is rrf, else weighted by alpha (the
        Hebrew alpha for a Hebrew query); a one-stage mode ranks by its own score and reads these only for show."""
        cfg = self.config
        if cfg.fusion == "rrf" and mode in ("hybrid", "rerank"):
            return rrf(dense, bm25, cfg.rrf_k)
        return fuse(dense, bm25, bm25_max, cfg.alpha_he if hebrew else cfg.alpha)

    def asked(self, found: Candidates, mode: str, hebrew: bool) -> np.ndarray | float:
        """What the questions written beside the candidates add to their fused scores: asked_weight times the same
        fusion over the questions' BM25 and cosines (search/asked.py); nothing without them or in a one-stage mode."""
        if found.asked is None:  # candidates() asks for them in hybrid and rerank modes only
            return 0.0
        asked = found.asked
        return self.config.asked_weight * self.fused(asked.dense, asked.bm25, asked.bm25_max, mode, hebrew)

    def rerank(self, query: str, hits: list[Hit], depth: int) -> list[Hit]:
        """The best `depth` fused hits re-scored by the cross-encoder; any below them keep the fused order."""
        head = hits[:depth]
        for hit, score in zip(head, self.reranker.score(query, [h.chunk.passage_text for h in head])):
            hit.ce_score = float(score)
        return sorted(head, key=lambda h: h.ce_score, reverse=True) + hits[depth:]

    def scope(self, filters: dict | None, hidden: frozenset[str] = frozenset()) -> Scope:
        """The documents filters allow (all when there are none), without those hidden from the reader, and of
        them the passages of the sections filters name, if they name any (search/section_filters.py)."""
        if not filters:
            return Scope(excluded=frozenset(hidden))
        by_document = {k: v for k, v in filters.items() if k not in SECTION_FILTERS}
        documents = frozenset(self.library.matching_documents(by_document)) if by_document else None
        chunks = None
        if sections_wanted(filters):
            rows = self.library.store.section_rows(None if documents is None else documents - hidden)
            chunks = frozenset(section_keys(rows, filters))
        return Scope(documents, frozenset(hidden), chunks)

    @staticmethod
    def bm25_words(query: str) -> list[list[str]]:
        """The query's BM25 words, each with its alternative forms, the glossary's words for it added."""
        return query_words(query)

    @staticmethod
    def dense_text(query: str, vocabulary) -> str:
        """What dense search embeds: the question and the glossary's words for it that the library contains."""
        return with_text_words(query, vocabulary)


class Laps:
    """Milliseconds of each stage of a search, into a timings dict: lap(stage) records the time since the last."""

    def __init__(self, timings: dict):
        self.timings, self.clock = timings, time.perf_counter()

    def __call__(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = round((now - self.clock) * 1000, 2)
        self.clock = now


def refs_of(view, found: Candidates, rows: list[Chunk | None] | None) -> list[str | None]:
    """The canonical ref of each candidate: from its chunk when read, else as the first stage read it, else asked."""
    if rows is not None:
        return [c.ref if c is not None else None for c in rows]
    return found.refs if found.refs is not None else view.refs_of(found.keys)


def with_context(view, hits: list[Hit], around: dict | None = None) -> list[Hit]:
    """The hits with the passages around each in its document, for context (from around, by key, when read)."""
    for hit in hits:
        before, after = (around or {}).get(hit.position) or view.neighbours(hit.position)
        hit.context_before = before.bounded().text if before else None
        hit.context_after = after.bounded().text if after else None
    return hits
