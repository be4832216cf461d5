"""Okapi BM25 over a sparse term-by-document weight matrix.

Scores equal rank_bm25's `BM25Okapi` on the same tokens (same idf, epsilon floor and length
normalisation), but every term's per-document weight is computed once at index time (vectorised,
one sort of all (term, document) pairs), so a query costs one sparse row sum per query token
instead of a pass over every document. `scores_any` takes a query whose words each have several
alternative terms (a Hebrew word and its forms without prefixes) and counts each word by its best term.
Does not: analyse text. The library indexes analyzer.analyze(text) and searches analyzer.analyze_query(query).
"""
import json
from pathlib import Path

import numpy as np


class BM25:
    """BM25Okapi with precomputed weights: `weights[t]` is the score term t adds to each document."""

    def __init__(self, vocab: dict[str, int], indptr, indices, data, n_docs: int, params: dict, tf=None, lengths=None):
        self.vocab = vocab
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int32)
        self.data = np.asarray(data, dtype=np.float64)
        self.n_docs = n_docs
        self.params = params
        self.tf = None if tf is None else np.asarray(tf, dtype=np.int32)  # kept so documents can be added and removed
        self.lengths = None if lengths is None else np.asarray(lengths, dtype=np.int64)

    @classmethod
    def index(cls, corpus: list[list[str]], k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> "BM25":
        """Build the index from tokenized documents, with rank_bm25's defaults."""
        vocab: dict[str, int] = {}
        term_ids = np.fromiter((vocab.setdefault(t, len(vocab)) for doc in corpus for t in doc), dtype=np.int64)
        lengths = np.fromiter((len(doc) for doc in corpus), dtype=np.int64, count=len(corpus))
        return cls.from_ids(term_ids, lengths, vocab, k1, b, epsilon)

    @classmethod
    def from_ids(cls, term_ids: np.ndarray, lengths: np.ndarray, vocab: dict[str, int],
                 k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> "BM25":
        """Build from the concatenated term ids of all documents and each document's length."""
        n_docs = len(lengths)
        doc_of = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
        pairs, tf = np.unique(term_ids * max(n_docs, 1) + doc_of, return_counts=True)  # sorted by term, then doc
        return cls.from_counts(pairs // max(n_docs, 1), pairs % max(n_docs, 1), tf, lengths, vocab, k1, b, epsilon)

    @classmethod
    def from_counts(cls, terms, docs, tf, lengths, vocab: dict[str, int],
                    k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> "BM25":
        """Build from (term, document, count) triples sorted by term then document, and document lengths."""
        n_docs, n_terms = len(lengths), len(vocab)
        lengths = np.asarray(lengths, dtype=np.int64)
        counts = np.asarray(tf, dtype=np.int32)
        df = np.bincount(terms, minlength=n_terms)
        # rank_bm25: idf = log((N - n + .5) / (n + .5)); negative ones become epsilon * mean idf.
        idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5)
        idf = np.where(idf < 0, epsilon * idf.mean(), idf) if n_terms else idf
        avgdl = lengths.sum() / n_docs if n_docs else 1.0
        norm = k1 * (1 - b + b * lengths / avgdl)
        tf = counts.astype(np.float64)
        data = idf[terms] * tf * (k1 + 1) / (tf + norm[docs])
        indptr = np.concatenate([[0], np.cumsum(df)])
        return cls(vocab, indptr, docs, data, n_docs, {"k1": k1, "b": b, "epsilon": epsilon}, counts, lengths)

    def edit(self, keep: np.ndarray, added: list[list[str]]) -> "BM25":
        """A new index without the documents where keep is False and with the added tokenized documents at the end.

        Idf and average length are global, so every weight is recomputed; the stored term counts spare
        re-tokenizing the library. Terms no document uses any more are dropped, as a fresh index would.
        """
        terms = np.repeat(np.arange(len(self.vocab), dtype=np.int64), np.diff(self.indptr))
        new_position = np.cumsum(keep) - 1
        kept = keep[self.indices]
        terms, docs, tf = terms[kept], new_position[self.indices[kept]], self.tf[kept]
        lengths = self.lengths[keep]
        vocab = dict(self.vocab)
        new_ids = [np.fromiter((vocab.setdefault(t, len(vocab)) for t in doc), dtype=np.int64) for doc in added]
        if added:
            start = len(lengths)
            flat = np.concatenate(new_ids)
            doc_of = np.repeat(np.arange(start, start + len(added), dtype=np.int64), [len(d) for d in added])
            pairs, counts = np.unique(flat * (start + len(added)) + doc_of, return_counts=True)
            terms = np.concatenate([terms, pairs // (start + len(added))])
            docs = np.concatenate([docs, pairs % (start + len(added))])
            tf = np.concatenate([tf, counts])
            lengths = np.concatenate([lengths, [len(d) for d in added]])
        used, terms = np.unique(terms, return_inverse=True)  # renumber the terms still in use
        names = sorted(vocab, key=vocab.get)
        order = np.lexsort((docs, terms))
        return BM25.from_counts(terms[order], docs[order], tf[order], lengths,
                                {names[t]: i for i, t in enumerate(used)}, **self.params)

    def _postings(self, row: int) -> tuple[np.ndarray, np.ndarray]:
        """The documents a term occurs in and the score it adds to each."""
        start, end = self.indptr[row], self.indptr[row + 1]
        return self.indices[start:end], self.data[start:end]

    def scores(self, query: list[str]) -> np.ndarray:
        """BM25 score of every document for the tokenized query (repeated tokens count again)."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for token in query:
            row = self.vocab.get(token)
            if row is None:
                continue
            docs, weights = self._postings(row)
            scores[docs] += weights
        return scores

    def scores_any(self, words: list[list[str]]) -> np.ndarray:
        """BM25 score of every document for a query of words given as alternative terms.

        Each word adds the score of its best-scoring term in the document (a Hebrew word and its forms without
        prefixes are one word, not several), so a word of a single term counts exactly as in `scores`.
        """
        scores = np.zeros(self.n_docs, dtype=np.float64)
        best = None  # per document, the best score of the current word's terms; -inf where none occurs
        for terms in words:
            postings = [self._postings(row) for row in dict.fromkeys(self.vocab.get(t) for t in terms) if row is not None]
            if len(postings) == 1:
                docs, weights = postings[0]
                scores[docs] += weights
            elif postings:
                best = np.full(self.n_docs, -np.inf) if best is None else best
                for docs, weights in postings:
                    best[docs] = np.maximum(best[docs], weights)
                for docs, _ in postings:  # add each document's best once, resetting it as it is taken
                    found = best[docs]
                    taken = found > -np.inf
                    scores[docs[taken]] += found[taken]
                    best[docs] = -np.inf
        return scores

    def save(self, folder: Path) -> None:
        """Write the index as bm25.npz and bm25_vocab.json in folder."""
        np.savez(folder / "bm25.npz", indptr=self.indptr, indices=self.indices, data=self.data, tf=self.tf,
                 lengths=self.lengths)
        terms = sorted(self.vocab, key=self.vocab.get)
        (folder / "bm25_vocab.json").write_text(
            json.dumps({"n_docs": self.n_docs, "params": self.params, "terms": terms}, ensure_ascii=False),
            encoding="utf-8",
        )

    @classmethod
    def load(cls, folder: Path) -> "BM25":
        """Read an index written by `save`."""
        meta = json.loads((folder / "bm25_vocab.json").read_text(encoding="utf-8"))
        arrays = np.load(folder / "bm25.npz")
        vocab = {t: i for i, t in enumerate(meta["terms"])}
        return cls(vocab, arrays["indptr"], arrays["indices"], arrays["data"], meta["n_docs"], meta["params"],
                   arrays["tf"], arrays["lengths"])
