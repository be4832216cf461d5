"""A library of n chunks in PostgreSQL, loaded in bulk for the benchmarks at size (bench_pg_scale.py): Evidenz's
own schema, with every chunk's BM25 postings and vector, timed step by step.

Texts: the default library's passages, drawn at random (a passage may recur), so the postings have real text's
term statistics. Vectors: real ones (benchmarks/real_vectors.py) as far as they go; beyond that each is a mixture
of two real ones with a little noise, normalised, so that neighbourhoods stay those of real text. A chunk's
vector is not its text's (texts and vectors are drawn apart). Ten chunks make a document; chunk ids run 1..n.
The indexes are dropped during the load and built after it, as one loads a large library, then VACUUM ANALYZE.
Does not: measure searches (bench_pg_scale.py) or embed anything.
"""
import time
from collections import Counter

import numpy as np
from psycopg.types.json import Jsonb

from hebrew import analyzer
from postgres.database import Database
from postgres.library import CHUNK_INSERT, create

PER_DOCUMENT = 10
CORPUS = "bench"


def vectors_at(pool: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """n unit vectors: the pool's first n, then mixtures of two of its vectors (0.7/0.3, noise 0.02)."""
    if n <= len(pool):
        return pool[:n]
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, len(pool), (2, n - len(pool)))
    mixed = 0.7 * pool[a] + 0.3 * pool[b] + 0.02 * rng.standard_normal((n - len(pool), pool.shape[1]), dtype=np.float32)
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    return np.concatenate([pool, mixed.astype(np.float32)])


class Steps:
    """Seconds of each step, logged as they end."""

    def __init__(self, log):
        self.log, self.seconds = log, {}

    def __call__(self, name: str, work):
        started = time.perf_counter()
        result = work()
        self.seconds[name] = round(time.perf_counter() - started, 1)
        self.log(f"    {name}: {self.seconds[name]} s")
        return result


def load(db: Database, embedder, texts: list[str], vectors: np.ndarray, m: int, ef_construction: int, log) -> dict:
    """Evidenz's schema in db, filled with len(vectors) chunks of texts drawn at random; the seconds of each step."""
    n, step = len(vectors), Steps(log)
    create(db, embedder)
    db.execute("DROP INDEX chunks_embedding")
    db.execute("ALTER TABLE postings DROP CONSTRAINT postings_pkey, DROP CONSTRAINT postings_chunk_fkey")
    db.execute("DROP INDEX postings_chunk")
    counts = [Counter(analyzer.analyze(t)) for t in texts]
    lengths = [sum(c.values()) for c in counts]
    drawn = np.random.default_rng(1).integers(0, len(texts), n)
    terms = sorted({t for c in counts for t in c})
    term_id = {t: i + 1 for i, t in enumerate(terms)}
    df = Counter()
    for j, times in zip(*np.unique(drawn, return_counts=True)):
        for t in counts[j]:
            df[t] += int(times)
    with db.connection() as conn:
        conn.execute("INSERT INTO corpora (id, title, tier) VALUES (%s, %s, 'public')", (CORPUS, CORPUS))
        step("documents", lambda: copy_documents(conn, n))
        step("chunks", lambda: copy_chunks(conn, texts, lengths, drawn, vectors))
        step("terms", lambda: copy_rows(conn, "terms (id, term, df)", ((term_id[t], t, df[t]) for t in terms if df[t])))
        step("postings", lambda: copy_rows(conn, "postings (term_id, chunk, tf, length)", (
            (term_id[t], key, tf, lengths[j]) for key, j in enumerate(drawn, 1) for t, tf in counts[j].items())))
        total = sum(lengths[j] for j in drawn)
        conn.execute("SELECT setval('terms_id_seq', %s), setval('chunks_id_seq', %s)", (len(terms), n))
        conn.execute("UPDATE bm25 SET n = %s, total_length = %s, mean_idf = (SELECT avg(ln(%s - df + 0.5) - "
                     "ln(df + 0.5)) FROM terms)", (n, total, n))
    step("postings index", lambda: db.execute(
        "ALTER TABLE postings ADD PRIMARY KEY (term_id, chunk) INCLUDE (tf, length)"))
    step("postings by chunk", lambda: db.execute("CREATE INDEX postings_chunk ON postings (chunk)"))
    step("postings' foreign key", lambda: db.execute(
        "ALTER TABLE postings ADD FOREIGN KEY (chunk) REFERENCES chunks(id) ON DELETE CASCADE"))
    step("vacuum analyze", lambda: db.vacuum("chunks", "postings", "terms"))
    step("hnsw", lambda: build_hnsw(db, m, ef_construction))
    return step.seconds


def build_hnsw(db: Database, m: int, ef_construction: int) -> None:
    """The chunks' HNSW index (cosine), with the memory to build it in and both cores."""
    def work(conn):
        conn.execute("SET LOCAL maintenance_work_mem = '6GB'")
        conn.execute("SET LOCAL max_parallel_maintenance_workers = 2")
        conn.execute("DROP INDEX IF EXISTS chunks_embedding")
        conn.execute(f"CREATE INDEX chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops) "
                     f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)})")

    db.run(work)


def copy_rows(conn, table: str, rows) -> None:
    with conn.cursor().copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def copy_documents(conn, n: int) -> None:
    copy_rows(conn, "documents (id, corpus_id, title, format, content_hash, status, chunk_count, created_at, "
                    "updated_at, text)",
              ((f"d{d}", CORPUS, f"Document {d}", "txt", f"h{d}", "ready", PER_DOCUMENT, 0.0, 0.0, "")
               for d in range((n + PER_DOCUMENT - 1) // PER_DOCUMENT)))


def copy_chunks(conn, texts: list[str], lengths: list[int], drawn: np.ndarray, vectors: np.ndarray) -> None:
    with conn.cursor().copy(f"COPY chunks ({', '.join(CHUNK_INSERT)}) FROM STDIN WITH (FORMAT BINARY)") as copy:
        copy.set_types(["int8", "text", "text", "text", "text", "int4", "text", "text", "int4", "int4", "jsonb", "text",
                        "text", "text", "text", "text", "text", "float4", "text", "int4", "vector"])
        for key, (j, vector) in enumerate(zip(drawn, vectors), 1):
            doc = (key - 1) // PER_DOCUMENT
            copy.write_row((key, f"c{key}", f"d{doc}", CORPUS, "public", (key - 1) % PER_DOCUMENT, f"Document {doc}",
                            texts[j], 0, len(texts[j]), Jsonb([]), None, None, None, "en", None, None, 0.0, None,
                            lengths[j], vector))
