"""`flask --app app db upgrade | status | import-library` and the ingest worker command, on a real PostgreSQL."""
import uuid

import numpy as np

from app import create_app
from builders import BOOK, logged_answer
from conftest import WIKI_SAMPLE, FakeEmbedder
from ingest import corpus
from ingest.jobs import Ingestor
from ingest.warming import Warmer
from checks.sentences import forms
from postgres.database import Database
from postgres.schema import MIGRATIONS as PG_MIGRATIONS
from postgres.library import PgLibrary
from postgres.search import PgView
from retrieval import Retriever
from search.view import Scope
from storage.history import History


def cli_app(pg_server, schema, monkeypatch, tmp_path):
    monkeypatch.setattr("search.embedding.Embedder.load", staticmethod(lambda name, runtime="torch": FakeEmbedder()))
    return create_app({"TESTING": True, "DATABASE_URL": pg_server.get_uri(), "DATABASE_SCHEMA": schema,
                       "HISTORY_DB": str(tmp_path / "h.sqlite3"), "LIBRARY_DIR": str(tmp_path / "lib")})


def test_upgrade_then_import_an_embedded_library_with_its_jobs_files_and_history(pg_server, tmp_path, monkeypatch):
    embedded = corpus.build(WIKI_SAMPLE, FakeEmbedder(), tmp_path / "lib", 1200, 200)
    ingestor = Ingestor(embedded)
    ingestor.submit_file(BOOK.encode(), "kettles.txt", {"tier": "private"})
    ingestor.run_pending()
    waiting = ingestor.submit_file(BOOK.encode() + b"\nMore.", "later.txt", {})  # queued, not run
    while Warmer(embedded, forms).step():  # the passages' sentence vectors, kept
        pass
    history = History(tmp_path / "history.sqlite3")
    answer_id = history.log(logged_answer())
    history.add_feedback(answer_id, "up", "clear", user=7)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    runner = cli_app(pg_server, schema, monkeypatch, tmp_path).test_cli_runner()

    upgraded = runner.invoke(args=["db", "upgrade"])
    latest = len(PG_MIGRATIONS)
    assert upgraded.exit_code == 0 and f"version 0 -> {latest}" in upgraded.output
    assert f"version {latest} -> {latest}" in runner.invoke(args=["db", "upgrade"]).output  # nothing left to apply
    moved = runner.invoke(args=["db", "import-library", str(tmp_path / "lib"), "--history", str(history.path)])
    assert moved.exit_code == 0, moved.output
    again = runner.invoke(args=["db", "import-library", str(tmp_path / "lib")])
    assert "'skipped': 9" in again.output  # an import run twice copies nothing twice

    db = Database(pg_server.get_uri(), schema=schema)
    library = PgLibrary.open(db, FakeEmbedder())
    assert library.store.stats()["chunks"] == embedded.store.stats()["chunks"]
    kettles = library.store.document("kettles")
    assert kettles.tier == "private" and library.files.exists(library.store.source_path("kettles"))
    assert library.sentences.table.count() == embedded.sentences.table.count() > 0
    assert Warmer(library, forms).step() == 0  # moved in warm: no passage's sentences are embedded again
    assert library.store.job(waiting.id).status == "queued" and library.files.exists(library.store.job(waiting.id).stored_path)
    for question in ("Who discovered penicillin?", "kettle whistle", "When did the Berlin Wall fall?"):
        a, b = Retriever(embedded, FakeEmbedder()).search(question), Retriever(library, FakeEmbedder()).search(question)
        assert [h.chunk.id for h in a] == [h.chunk.id for h in b]
        np.testing.assert_allclose([h.hybrid_score for h in a], [h.hybrid_score for h in b], atol=1e-6)
    from postgres.history import PgHistory

    copied = PgHistory(db).get(answer_id)
    assert copied["question"] == "Who discovered penicillin?" and copied["feedback"][0]["comment"] == "clear"
    assert copied["feedback"][0]["user_id"] == 7  # who gave it moves too: they can change it, and see it again

    worker = runner.invoke(args=["ingest-worker", "--once"])  # the queued job, run by a worker of its own
    assert worker.exit_code == 0 and "ran 1 job(s)" in worker.output
    assert library.store.document("later") is not None
    db.execute(f"DROP SCHEMA {schema} CASCADE")
    db.close()


def test_commands_without_database_url_say_how_to_set_it(tmp_path):
    app = create_app({"TESTING": True, "HISTORY_DB": str(tmp_path / "h.sqlite3")})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code != 0 and "DATABASE_URL is not set" in result.output


class Recording:
    """A Database stand-in that records the statements it is sent with their settings (the pgvector 0.8 path)."""

    def __init__(self):
        self.statements = []

    def execute(self, sql, args=None):
        return [(10_000_000,)]  # the library's size, and how many chunks a scope allows

    def query(self, sql, args=None, settings=()):
        self.statements += [*settings, sql]
        return []


def test_pgvector_0_8_scans_hnsw_iteratively_when_filtered_and_older_ones_do_not():
    vector = np.zeros(4, dtype=np.float32)
    for version, expected in (((0, 8, 0), True), ((0, 6, 2), False)):
        for search in (lambda view, scope: view.nearest(vector, 200, scope),
                       lambda view, scope: view.candidates([["x"]], vector, 200, scope)):
            db = Recording()
            search(PgView(db, version), Scope(excluded=frozenset({"x"})))
            assert ("SET LOCAL hnsw.iterative_scan = relaxed_order" in db.statements) is expected
            assert "SET LOCAL hnsw.ef_search = 256" in db.statements
            assert "embedding <=> %(vector)s" in db.statements[-1]  # the index's order, not the exact scan's
