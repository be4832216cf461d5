"""Okapi BM25 over a sparse term-by-document weight matrix, plus the tokenizer it uses.

Scores equal rank_bm25's `BM25Okapi` on the same tokens (same idf, epsilon floor and length
normalisation), but every term's per-document weight is computed once at index time, so a query
costs one sparse row sum per query token instead of a pass over every document.
Does not: stem, drop stop words or analyse Hebrew prefixes; the tokenizer only splits and folds case.
"""
import json
import math
from pathlib import Path

import numpy as np
import regex

# Letters and digits of every script, keeping combining marks (Hebrew vowel points, accents)
# inside the word they belong to. ASCII-only patterns such as [^a-z0-9] drop Hebrew entirely.
TOKEN_RE = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*")


def tokenize(text: str) -> list[str]:
    """Split text into case-folded words of any script."""
    return TOKEN_RE.findall(text.casefold())


class BM25:
    """BM25Okapi with precomputed weights: `weights[t]` is the score term t adds to each document."""

    def __init__(self, vocab: dict[str, int], indptr, indices, data, n_docs: int, params: dict):
        self.vocab = vocab
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int32)
        self.data = np.asarray(data, dtype=np.float64)
        self.n_docs = n_docs
        self.params = params

    @classmethod
    def index(cls, corpus: list[list[str]], k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> "BM25":
        """Build the index from tokenized documents, with rank_bm25's defaults."""
        n_docs = len(corpus)
        doc_len = np.array([len(doc) for doc in corpus], dtype=np.float64)
        avgdl = doc_len.sum() / n_docs if n_docs else 0.0
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for doc_id, doc in enumerate(corpus):
            counts: dict[str, int] = {}
            for token in doc:
                counts[token] = counts.get(token, 0) + 1
            for token, tf in counts.items():
                docs, tfs = postings.setdefault(token, ([], []))
                docs.append(doc_id)
                tfs.append(tf)

        # rank_bm25: idf = log((N - n + .5) / (n + .5)); negative ones become epsilon * mean idf.
        idf = {t: math.log(n_docs - len(d) + 0.5) - math.log(len(d) + 0.5) for t, (d, _) in postings.items()}
        floor = epsilon * (sum(idf.values()) / len(idf)) if idf else 0.0
        idf = {t: (floor if v < 0 else v) for t, v in idf.items()}

        vocab = {t: i for i, t in enumerate(sorted(postings))}
        indptr, indices, data = [0], [], []
        norm = k1 * (1 - b + b * doc_len / avgdl) if n_docs else doc_len
        for term in vocab:
            docs, tfs = postings[term]
            tf = np.array(tfs, dtype=np.float64)
            indices.extend(docs)
            data.extend(idf[term] * tf * (k1 + 1) / (tf + norm[docs]))
            indptr.append(len(indices))
        return cls(vocab, indptr, indices, data, n_docs, {"k1": k1, "b": b, "epsilon": epsilon})

    def scores(self, query: list[str]) -> np.ndarray:
        """BM25 score of every document for the tokenized query (repeated tokens count again)."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for token in query:
            row = self.vocab.get(token)
            if row is None:
                continue
            start, end = self.indptr[row], self.indptr[row + 1]
            scores[self.indices[start:end]] += self.data[start:end]
        return scores

    def save(self, folder: Path) -> None:
        """Write the index as bm25.npz and bm25_vocab.json in folder."""
        np.savez(folder / "bm25.npz", indptr=self.indptr, indices=self.indices, data=self.data)
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
        return cls(vocab, arrays["indptr"], arrays["indices"], arrays["data"], meta["n_docs"], meta["params"])
