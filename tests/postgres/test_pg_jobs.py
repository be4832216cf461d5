"""Ingest workers on one PostgreSQL library: killed mid-job (SIGKILL) the library stays as it was and the job is
retried by another worker; several workers share one queue, each job run once."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builders import BOOK
from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.jobs import Ingestor
from postgres.database import Database
from postgres.library import PgLibrary

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import sys
sys.path[:0] = [{tests!r}, {root!r}]
from conftest import FakeEmbedder
from postgres.database import Database
from postgres.library import PgLibrary
from ingest.jobs import Ingestor
ingestor = Ingestor(PgLibrary.open(Database({url!r}, {schema!r}), FakeEmbedder()))
print("ready", flush=True)
ingestor.run_pending()
print("finished", flush=True)
"""


def child(db: Database) -> subprocess.Popen:
    script = CHILD.format(tests=str(ROOT / "tests"), root=str(ROOT), url=db.url, schema=db.schema)
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT)


def consistent(db: Database) -> int:
    """Check documents, chunks and BM25's statistics agree; returns the big book's chunk count (0 when absent)."""
    n, total = db.execute("SELECT count(*), coalesce(sum(length), 0) FROM chunks")[0]
    assert db.execute("SELECT n, total_length FROM bm25")[0] == (n, total)
    assert db.execute("SELECT count(*) FROM terms t WHERE df <> (SELECT count(*) FROM postings p "
                      "WHERE p.term_id = t.id)")[0][0] == 0
    assert db.execute("SELECT coalesce(sum(chunk_count), 0) FROM documents")[0][0] == n
    return db.execute("SELECT count(*) FROM chunks WHERE doc_id = 'big-book'")[0][0]


@pytest.mark.parametrize("delay", [0.0, 0.5, 1.5])
def test_a_killed_worker_leaves_the_library_as_it_was_and_its_job_to_another(pg_db, tmp_path, delay):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    library.replace_documents(corpus.corpus_entries(CORPUS, FakeEmbedder(), 1200, 200))
    book = tmp_path / "big-book.txt"
    book.write_text("\n\n".join(f"Chapter {i}\n\nParagraph {i} about kettles, tea and water. " * 30 for i in range(1, 200)))
    job = Ingestor(library).submit_file(book, "big-book.txt", {})
    worker = child(pg_db)
    assert worker.stdout.readline().strip() == b"ready"
    time.sleep(delay)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()

    before = consistent(pg_db)  # absent or whole, never half
    said = library.store.job(job.id).status  # it may have died between the commit and saying "done"
    assert Ingestor(library).run_pending() == (0 if said == "done" else 1)  # the dead worker's lease is free
    assert library.store.job(job.id).status == "done"
    after = consistent(pg_db)
    assert after > 0 and (before == 0 or before == after)


def test_workers_share_one_queue_and_run_each_job_once(pg_db):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    ingestor = Ingestor(library)
    bodies = [BOOK.replace("Kettles", f"Kettles {i}").encode() for i in range(8)]
    jobs = [ingestor.submit_file(body, f"book-{i}.txt", {}) for i, body in enumerate(bodies)]
    workers = [child(pg_db) for _ in range(2)]
    for worker in workers:
        assert worker.stdout.readline().strip() == b"ready"
    for worker in workers:
        assert worker.wait(timeout=120) == 0
    done = [library.store.job(j.id) for j in jobs]
    assert all(j.status == "done" for j in done)
    assert library.store.stats()["documents"] == 8 and consistent(pg_db) == 0
    assert library.files.total_bytes() == sum(map(len, bodies))  # each document's kept source, no upload left
    assert not pg_db.execute("SELECT key FROM files WHERE key LIKE 'db:uploads/%%'")
