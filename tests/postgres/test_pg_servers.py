"""Stateless app servers: two `flask --app app serve` processes on one PostgreSQL database share one library, and a
server outlives its database stopping and starting again (503 with a message meanwhile, never a 500)."""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from postgres.schema import MIGRATIONS as PG_MIGRATIONS

from builders import BOOK
from conftest import WIKI_SAMPLE
from ingest import corpus
from pg import fresh_schema
from postgres.library import PgLibrary

ROOT = Path(__file__).resolve().parents[2]


def call(url: str, method: str = "GET", body: dict | None = None, upload: tuple[str, bytes] | None = None):
    """(status, JSON body) of one request; a script's request (no browser headers)."""
    data, headers = None, {}
    if body is not None:
        data, headers = json.dumps(body).encode(), {"Content-Type": "application/json"}
    if upload:
        boundary = "evidenzboundary"
        data = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{upload[0]}\"\r\n"
                f"Content-Type: text/plain\r\n\r\n").encode() + upload[1] + f"\r\n--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def start(port: int, db, tmp_path: Path) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": db.url, "FLASK_DATABASE_SCHEMA": db.schema, "FLASK_GENERATOR": "offline",
           "FLASK_HISTORY_DB": str(tmp_path / f"unused-{port}.sqlite3"), "FLASK_LIBRARY_DIR": str(tmp_path / "unused")}
    return subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "serve", "--port", str(port),
                             "--threads", "4"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_healthy(url: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status, body = call(url + "/api/health")
            if status == 200:
                return body
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url} never became healthy")


@pytest.fixture(scope="module")
def two_servers(pg_server, _real_embedder, tmp_path_factory):
    """Two app servers on one fresh schema holding WIKI_SAMPLE (the real MiniLM embedder)."""
    db = fresh_schema(pg_server, _real_embedder)
    PgLibrary.open(db, _real_embedder).replace_documents(corpus.corpus_entries(WIKI_SAMPLE, _real_embedder, 1200, 200))
    tmp_path = tmp_path_factory.mktemp("servers")
    ports = (5391, 5392)
    processes = [start(port, db, tmp_path) for port in ports]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url in urls:
            wait_healthy(url)
        yield urls, db, pg_server
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        db.execute(f"DROP SCHEMA {db.schema} CASCADE")
        db.close()


def test_a_document_added_through_one_server_is_found_through_the_other_and_removed_everywhere(two_servers):
    (a, b), db, _ = two_servers
    health = call(b + "/api/health")[1]
    assert health["library"]["backend"] == "postgres" and health["database"]["schema_version"] == len(PG_MIGRATIONS)
    status, job = call(a + "/api/documents", "POST", upload=("kettles.txt", BOOK.encode()))
    assert status == 202
    deadline = time.monotonic() + 60
    while (job := call(b + job["url"])[1])["status"] not in ("done", "failed"):  # either server's worker runs it
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert job["status"] == "done"
    assert "kettles" in [d["id"] for d in call(b + "/api/documents")[1]["documents"]]
    answer = call(b + "/api/query", "POST", {"question": "What does the whistle of a kettle tell you?"})[1]
    assert answer["passages"][0]["doc_id"] == "kettles"
    assert call(b + "/api/documents/kettles", "DELETE")[0] == 200
    assert "kettles" not in [d["id"] for d in call(a + "/api/documents")[1]["documents"]]
    answer = call(a + "/api/query", "POST", {"question": "What does the whistle of a kettle tell you?"})[1]
    assert "kettles" not in [p["doc_id"] for p in answer["passages"]]
    logged = call(a + "/api/history?q=whistle")[1]  # both answers are in the one shared history
    assert logged["total"] == 2


def test_a_server_answers_503_while_its_database_is_down_and_recovers(two_servers):
    (a, _), _, server = two_servers
    import pgserver

    pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
    try:
        status, health = call(a + "/api/health")
        assert status == 503 and health["database"]["status"] == "unavailable"
        status, body = call(a + "/api/query", "POST", {"question": "Who discovered penicillin?"})
        assert status == 503 and "database cannot be reached" in body["error"] and "Traceback" not in body["error"]
        assert call(a + "/api/documents")[0] == 503
    finally:
        server.ensure_postgres_running()
    wait_healthy(a, timeout=30)
    status, body = call(a + "/api/query", "POST", {"question": "Who discovered penicillin?"})
    assert status == 200 and body["passages"][0]["doc_id"] == "Alexander_Fleming"
