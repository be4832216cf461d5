"""`flask --app app bench --backend postgres --scale 100000,1000000`: PostgreSQL search at the sizes that need it.

At each size a library is loaded in bulk into a scratch schema (benchmarks/pg_scale_build.py: real texts, real
vectors as far as they go), and measured with real questions (wiki-asked's, SQuAD-dev's) through the search the
app runs (postgres/search.PgView): its first stage (one statement: BM25, the nearest, both scores) with and without
a filter (a twentieth of the documents) and with DATABASE_BM25_COMMON=skip, BM25 and the nearest alone, the shown
passages' read, the exact scan, pgvector's HNSW recall@10 against exact search at several ef_search, the sizes
on disk, and the time a write of one document takes (`--sweep` also rebuilds the HNSW index with other m and
ef_construction at the first size).
Does not: compare with the embedded engine (bench_postgres.py does) or keep what it loads.
"""
import time
import uuid

import numpy as np

from benchmarks import real_vectors
from benchmarks.benchmark import timed
from benchmarks.pg_scale_build import PER_DOCUMENT, build_hnsw, load, vectors_at
from models import Chunk, DocumentInfo
from postgres.database import Database
from postgres.library import PgLibrary
from postgres.search import PgView
from retrieval import Retriever
from search.view import Scope

QUESTIONS = 100
REAL = 100_000  # real vectors wanted in the pool (beyond them, mixtures)
EF_SEARCH = (40, 100, 200, 400)
CANDIDATES = 200  # what a search asks of each of BM25 and dense search
M, EF_CONSTRUCTION = 16, 64  # the schema's


def report(url: str, library, sizes: list[int], sweep: list[tuple[int, int]], log=print) -> dict:
    pool = real_vectors.pool(library, min(max(sizes), REAL), log)
    asked, vectors = real_vectors.questions(library.embedder, QUESTIONS)
    texts = [c.passage_text for c in library.current().chunks]
    log(f"  {len(pool):,} real vectors, {len(asked)} questions, {len(texts):,} texts")
    return {"real_vectors": len(pool), "questions": len(asked),
            "sizes": [at_size(url, library.embedder, texts, pool, asked, vectors, n, sweep if i == 0 else [], log)
                      for i, n in enumerate(sizes)]}


def at_size(url, embedder, texts, pool, asked, queries, n: int, sweep, log) -> dict:
    vectors = vectors_at(pool, n)
    truth = [set(np.argpartition(-(vectors @ q), 10)[:10] + 1) for q in queries]  # ids run 1..n
    db = Database(url, schema=f"bench_{uuid.uuid4().hex[:10]}", timeout_ms=6 * 3_600_000)
    try:
        log(f"  loading {n:,} chunks ({min(n, len(pool)):,} real vectors) ...")
        started = time.perf_counter()
        out = {"chunks": n, "real_vectors": min(n, len(pool)), "build_s": load(db, embedder, texts, vectors, M,
                                                                                EF_CONSTRUCTION, log)}
        out["build_s"]["total"] = round(time.perf_counter() - started, 1)
        out["disk_mb"] = disk(db)
        out |= searches(db, asked, queries, n)
        out["hnsw"] = {f"m{M}_efc{EF_CONSTRUCTION}": recalls(db, queries, truth)}
        for m, ef_construction in sweep:
            log(f"  HNSW with m {m}, ef_construction {ef_construction} ...")
            started = time.perf_counter()
            build_hnsw(db, m, ef_construction)
            out["hnsw"][f"m{m}_efc{ef_construction}"] = {"build_s": round(time.perf_counter() - started, 1),
                                                         "index_mb": disk(db)["hnsw"], **recalls(db, queries, truth)}
        out["write"] = write_one(db, embedder, texts, pool)
        return out
    finally:
        db.execute(f"DROP SCHEMA IF EXISTS {db.schema} CASCADE")
        db.close()


def disk(db: Database) -> dict:
    """MB on disk of the chunks (heap and TOAST), their HNSW index, the postings and their index, and the terms."""
    rows = db.execute(
        "SELECT pg_relation_size('chunks'), pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE oid = "
        "'chunks'::regclass)), pg_relation_size('chunks_embedding'), pg_relation_size('postings'), "
        "pg_relation_size('postings_pkey'), pg_total_relation_size('terms'), pg_database_size(current_database())")[0]
    names = ("chunks", "chunks_toast", "hnsw", "postings", "postings_index", "terms", "database")
    return {name: round(size / 2**20, 1) for name, size in zip(names, rows)}


def searches(db: Database, asked: list[str], queries: np.ndarray, n: int) -> dict:
    """p50/p95 of the app's search statements over real questions."""
    view = PgView(db, db.pgvector_version())
    skipping = PgView(db, db.pgvector_version(), skip_common=True)  # DATABASE_BM25_COMMON=skip
    words = [Retriever.bm25_words(q) for q in asked]
    documents = (n + PER_DOCUMENT - 1) // PER_DOCUMENT
    share = Scope(documents=frozenset(f"d{d}" for d in range(0, documents, 20)))
    items = range(len(asked))
    out = {"search": timed(lambda i: view.candidates(words[i], queries[i], CANDIDATES, Scope()), items),
           "search_filtered": timed(lambda i: view.candidates(words[i], queries[i], CANDIDATES, share), items),
           "search_skip_common": timed(lambda i: skipping.candidates(words[i], queries[i], CANDIDATES, Scope()), items),
           "bm25": timed(lambda i: view.candidates(words[i], None, CANDIDATES, Scope()), items),
           "bm25_skip_common": timed(lambda i: skipping.candidates(words[i], None, CANDIDATES, Scope()), items),
           "nearest": timed(lambda i: view.candidates(None, queries[i], CANDIDATES, Scope()), items),
           "nearest_filtered": timed(lambda i: len(view.candidates(None, queries[i], CANDIDATES, share).keys), items)}
    out["nearest_filtered_rows"] = out["nearest_filtered"]["last"]
    keys = np.arange(1, n + 1, max(1, n // 5), dtype=np.int64)[:5]
    out["passages"] = timed(lambda i: view.passages(keys + i, 5), items)
    exact = "SELECT id FROM chunks ORDER BY embedding <#> %s, id LIMIT %s"
    out["exact_scan"] = timed(lambda i: db.execute(exact, (queries[i], CANDIDATES)), range(min(20, len(asked))))
    for figures in out.values():
        if isinstance(figures, dict):
            figures.pop("last", None)
    return out


def recalls(db: Database, queries: np.ndarray, truth: list[set]) -> dict:
    """Per ef_search: HNSW's recall@10 against exact search, its p50/p95 for 10, and the share of the true ten among
    the 200 candidates a search takes."""
    out = {}
    for ef in EF_SEARCH:
        def nearest(q, k):
            return [r[0] for r in db.query("SELECT id FROM chunks ORDER BY embedding <=> %s LIMIT %s", (q, k),
                                           [f"SET LOCAL hnsw.ef_search = {ef}"])]

        top10 = []  # each query's ten, kept as they are timed
        found = timed(lambda q: top10.append(nearest(q, 10)), list(queries))
        wide = [nearest(q, CANDIDATES) for q in queries]
        out[f"ef{ef}"] = {"recall@10": share(truth, top10), "top10_in_candidates": share(truth, wide),
                          "p50_ms": found["p50_ms"], "p95_ms": found["p95_ms"]}
    return out


def share(truth: list[set], found: list[list[int]]) -> float:
    return round(float(np.mean([len(t & set(f)) / len(t) for t, f in zip(truth, found)])), 4)


def write_one(db: Database, embedder, texts: list[str], pool: np.ndarray) -> dict:
    """The seconds a document of ten passages takes to add and to remove, through the app's own writes (under the
    library's write lock, with the term statistics)."""
    library = PgLibrary.open(db, embedder)
    chunks, at = [], 0
    for i, text in enumerate(texts[:PER_DOCUMENT]):
        chunks.append(Chunk(f"new#{i}", "new", "A new document", text, at, at + len(text), ()))
        at += len(text) + 2
    info = DocumentInfo("new", "A new document", "txt", "hash-new")
    entry = (info, "\n\n".join(texts[:PER_DOCUMENT]), chunks, pool[:len(chunks)], None)
    started = time.perf_counter()
    library.replace_documents([entry])
    added = time.perf_counter() - started
    started = time.perf_counter()
    library.delete_document("new")
    return {"add_s": round(added, 3), "remove_s": round(time.perf_counter() - started, 3)}
