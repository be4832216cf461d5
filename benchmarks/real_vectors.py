"""Real vectors of real text for the PostgreSQL benchmarks at size (benchmarks/bench_pg_scale.py): recall measured
on random vectors says little, as random vectors have no neighbourhoods for an HNSW graph to follow.

The pool is the library's own passage vectors (its FAISS index), the sentence vectors it keeps, and then the
sentences of ../shared/data's corpora (SciFact's abstracts, SQuAD's paragraphs), embedded by the same model until
the pool holds `wanted`; the questions are wiki-asked's and SQuAD-dev's, embedded as queries. What is embedded
here is kept in data/cache/bench, by model, so a second run embeds nothing. Texts come with the vectors of the
library's passages only; a sentence's vector is kept without its text.
Does not: make vectors up (bench_pg_scale.py mixes these when it needs more than there are) or write a library.
"""
import json
import sqlite3
from pathlib import Path

import numpy as np

from benchmarks.load import read_questions
from checks.splitting import split_sentences

CACHE = Path("data/cache/bench")
SHARED = Path("../shared/data")
CORPORA = ("scifact-dev", "squad-dev", "squad2-train-head")
QUESTIONS = (Path("data/eval/wiki-asked/queries.jsonl"), SHARED / "squad-dev/queries.jsonl")


def library_vectors(library) -> np.ndarray:
    """The library's passage vectors, in its chunks' order."""
    view = library.current()
    return view.index.reconstruct_batch(view.labels).astype(np.float32)


def kept_sentence_vectors(folder: Path, dim: int) -> np.ndarray:
    """The sentence vectors the library keeps (sentences.sqlite3), those of its own model only."""
    path = Path(folder) / "sentences.sqlite3"
    if not path.exists():
        return np.zeros((0, dim), dtype=np.float32)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT vector FROM vectors WHERE length(vector) = ?", (4 * dim,)).fetchall()
    return np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32).reshape(-1, dim)


def corpus_sentences(limit: int) -> list[str]:
    """Up to limit distinct sentences of ../shared/data's corpora, in file order."""
    found: dict[str, None] = {}
    for name in CORPORA:
        path = SHARED / name / "corpus.jsonl"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            for sentence in split_sentences(json.loads(line)["text"]):
                if len(sentence) >= 20:
                    found[sentence] = None
                if len(found) >= limit:
                    return list(found)
    return list(found)


def cached(name: str, make) -> np.ndarray:
    path = CACHE / f"{name}.npy"
    if path.exists():
        return np.load(path)
    vectors = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def pool(library, wanted: int, log=print) -> np.ndarray:
    """At least `wanted` real unit vectors if the texts at hand give that many (fewer otherwise), de-duplicated."""
    embedder = library.embedder
    parts = [library_vectors(library), kept_sentence_vectors(library.folder, embedder.dim)]
    missing = wanted - sum(len(p) for p in parts)
    if missing > 0:
        tag = embedder.name.replace("/", "_")

        def embed():
            sentences = corpus_sentences(missing + missing // 10)
            log(f"  embedding {len(sentences):,} sentences of ../shared/data with {embedder.name} (kept in {CACHE}) ...")
            return embedder.embed(sentences, batch_size=64).astype(np.float32)

        parts.append(cached(f"sentences-{tag}-{missing + missing // 10}", embed))
    vectors = np.unique(np.concatenate(parts), axis=0)
    np.random.default_rng(0).shuffle(vectors)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def questions(embedder, n: int) -> tuple[list[str], np.ndarray]:
    """n real questions and their query vectors."""
    asked = [q for path in QUESTIONS if path.exists() for q in read_questions(path)][:n]
    tag = embedder.name.replace("/", "_")
    return asked, cached(f"questions-{tag}-{len(asked)}", lambda: embedder.embed_queries(asked).astype(np.float32))
