"""`flask --app app bench --backend postgres`: the PostgreSQL backend beside the embedded one, in one run.

- dense search on random unit vectors at each size: FAISS flat and HNSW (embedded) against pgvector exact and
  HNSW, p50/p95, and each HNSW's recall@10 against exact search;
- the real hybrid search over the default library, embedded and moved into PostgreSQL (the import's time too);
- ingest pages per minute into each backend;
- a concurrency run: 8 clients against two app servers (`flask --app app serve`) sharing one database.
It uses DATABASE_URL when set, else a throwaway pgserver; every table it makes is in a schema of its own, dropped.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import faiss
import numpy as np

from benchmarks.benchmark import timed
from postgres.database import Database

DIM = 384
QUERIES = 50


def server_url() -> tuple[str, object]:
    """DATABASE_URL, or a pgserver in a temporary folder (returned too, to stop it)."""
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"], None
    import pgserver

    server = pgserver.get_server(tempfile.mkdtemp(prefix="evidenz-bench-pg-"), cleanup_mode="delete")
    return server.get_uri(), server


def scratch(url: str) -> Database:
    db = Database(url, schema=f"bench_{uuid.uuid4().hex[:10]}", timeout_ms=3_600_000)
    db.execute(f"CREATE SCHEMA {db.schema}")
    db.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    db.reopen()
    return db


def dense(url: str, size: int, hnsw: bool, log) -> dict:
    """Flat and HNSW search, embedded and in pgvector, over size random unit vectors."""
    rng = np.random.default_rng(size)
    vectors = rng.standard_normal((size, DIM), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = list(vectors[rng.choice(size, QUERIES, replace=False)] + 0.05 * rng.standard_normal((QUERIES, DIM), dtype=np.float32))
    flat = faiss.IndexFlatIP(DIM)
    flat.add(vectors)
    truth = [set(flat.search(q[None, :], 10)[1][0]) for q in queries]
    out = {"chunks": size, "faiss_flat": timed(lambda q: flat.search(q[None, :], 200), queries)}
    db = scratch(url)
    try:
        log(f"  copying {size:,} vectors into PostgreSQL ...")
        db.execute(f"CREATE TABLE v (id bigint PRIMARY KEY, embedding vector({DIM}))")
        with db.connection() as conn, conn.cursor().copy("COPY v (id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "vector"])
            for i, vector in enumerate(vectors):
                copy.write_row((i, vector))
        exact = "SELECT id FROM v ORDER BY embedding <#> %s LIMIT 200"
        out["pgvector_exact"] = timed(lambda q: db.execute(exact, (q,)), queries)
        if hnsw:
            index = faiss.IndexHNSWFlat(DIM, 32, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction, index.hnsw.efSearch = 80, 256
            started = time.perf_counter()
            index.add(vectors)
            out["faiss_hnsw_build_s"] = round(time.perf_counter() - started, 1)
            out["faiss_hnsw"] = timed(lambda q: index.search(q[None, :], 200), queries)
            out["faiss_hnsw_recall@10"] = recall(truth, [index.search(q[None, :], 10)[1][0] for q in queries])
            log(f"  building pgvector's HNSW index over {size:,} vectors ...")
            started = time.perf_counter()
            db.execute("SET maintenance_work_mem = '2GB'")
            db.execute("CREATE INDEX ON v USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)")
            out["pgvector_hnsw_build_s"] = round(time.perf_counter() - started, 1)

            def approximate(q, k=200):
                return db.run(lambda conn: (conn.execute("SET LOCAL hnsw.ef_search = 256"), conn.execute(
                    "SELECT id FROM v ORDER BY embedding <=> %s LIMIT %s", (q, k)).fetchall())[1])

            out["pgvector_hnsw"] = timed(approximate, queries)
            out["pgvector_hnsw_rows"] = len(out["pgvector_hnsw"]["last"])
            out["pgvector_hnsw_recall@10"] = recall(truth, [[r[0] for r in approximate(q, 10)] for q in queries])
    finally:
        db.execute(f"DROP SCHEMA {db.schema} CASCADE")
        db.close()
    for value in out.values():
        if isinstance(value, dict):
            pop(value)
    return out


def recall(truth: list[set], found: list) -> float:
    return round(float(np.mean([len(t & set(int(i) for i in f)) / 10 for t, f in zip(truth, found)])), 3)


def hybrid(url: str, library, queries: list[str], log) -> dict:
    """The real hybrid search over a library, embedded and moved into PostgreSQL (with the import's time): p50/p95
    of the whole search and of its stages (the question's embedding, the search itself, fusion and passages)."""
    from postgres.library import PgLibrary
    from postgres.moving_in import import_library
    from retrieval import Retriever

    db = Database(url, schema=f"bench_{uuid.uuid4().hex[:10]}", timeout_ms=3_600_000)
    try:
        log(f"  importing {library.folder}/ into PostgreSQL ...")
        moved = PgLibrary.open(db, library.embedder, create_schema=True)
        counts = import_library(library.folder, moved)
        embedded, postgres = Retriever(library, library.embedder), Retriever(moved, library.embedder)
        same = sum([h.chunk.id for h in embedded.search(q)] == [h.chunk.id for h in postgres.search(q)] for q in queries)
        return {"chunks": counts["chunks"], "import_s": counts["seconds"], "questions": len(queries),
                "embedded": staged(embedded, queries), "postgres": staged(postgres, queries),
                "same_top5": f"{same}/{len(queries)}"}
    finally:
        db.execute(f"DROP SCHEMA IF EXISTS {db.schema} CASCADE")
        db.close()


def staged(retriever, queries: list[str]) -> dict:
    """p50/p95 of retriever's searches of queries, and the p50 of each stage."""
    stages: dict[str, list[float]] = {}

    def search(query):
        timings = {}
        retriever.search(query, timings=timings)
        for stage, ms in timings.items():
            stages.setdefault(stage, []).append(ms)

    getattr(retriever.embedder, "_asked", {}).clear()  # each question embedded as a new one is, on either backend
    figures = pop(timed(search, queries))
    return figures | {f"{stage}_p50_ms": round(float(np.median(ms)), 2) for stage, ms in stages.items()}


def ingest(url: str, embedder, pages: int) -> dict:
    """Pages per minute of a generated PDF ingested into each backend."""
    from benchmarks.bench_ingest import bench_ingest
    from postgres.library import PgLibrary

    db = Database(url, schema=f"bench_{uuid.uuid4().hex[:10]}")
    try:
        target = PgLibrary.open(db, embedder, create_schema=True)
        return {"embedded": bench_ingest(embedder, pages), "postgres": bench_ingest(embedder, pages, target)}
    finally:
        db.execute(f"DROP SCHEMA IF EXISTS {db.schema} CASCADE")
        db.close()


def concurrency(url: str, library_dir: Path, clients: int, requests: int, log) -> dict:
    """Two app servers on one database (the default library moved in), loaded by clients at once."""
    from benchmarks.load import run

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "DATABASE_URL": url, "FLASK_DATABASE_SCHEMA": schema, "HF_HUB_OFFLINE": "1"}
    flask = [sys.executable, "-m", "flask", "--app", "app"]
    subprocess.run([*flask, "db", "import-library", str(library_dir)], env=env, check=True, capture_output=True)
    ports = (5301, 5302)
    servers = [subprocess.Popen([*flask, "serve", "--port", str(p), "--threads", "4"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in ports]
    try:
        for port in ports:
            wait_ready(f"http://127.0.0.1:{port}")
        log(f"  {clients} clients against two servers at once ...")
        return {"servers": 2, **run([f"http://127.0.0.1:{p}" for p in ports], clients, requests)}
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
        db = Database(url, schema=schema)
        db.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        db.close()


def wait_ready(url: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:  # refused while it starts, or 503 while it loads
            pass
        time.sleep(1)
    raise RuntimeError(f"{url} did not become healthy in {timeout} s")


def pop(figures: dict) -> dict:
    figures.pop("last", None)
    return figures


def report(sizes: list[int], hnsw_max: int, library, queries: list[str], pages: int, log=print) -> dict:
    url, server = server_url()
    try:
        out = {"dense": [dense(url, n, n <= hnsw_max, log) for n in sizes]}
        out["hybrid"] = hybrid(url, library, queries, log)
        out["ingest"] = ingest(url, library.embedder, pages)
        out["concurrency"] = concurrency(url, library.folder, 8, 64, log)
        return out
    finally:
        if server is not None:
            server.cleanup()


def dumps(figures: dict) -> str:
    return json.dumps(figures, indent=1)
