"""Bounded cost over HTTP: queued jobs (429), the library's stored bytes (413), and passage text in responses.

A real library with the real store and indexes; the embedder and writer are fakes. Jobs are kept waiting by
holding the ingest claim lock, as a busy worker in another process would.
"""
import fcntl

import pytest

from builders import BOOK, entry, library_app
from test_documents import upload, wait_for


@pytest.fixture
def busy(tmp_path):
    """A client whose ingest worker cannot claim a job (another process holds the claim lock): jobs stay queued."""
    app = library_app({"TESTING": True, "MAX_QUEUED_JOBS": 2}, tmp_path / "lib")
    with open(tmp_path / "lib" / "jobs" / ".claim", "a") as claim:
        fcntl.flock(claim, fcntl.LOCK_EX)
        yield app.test_client(), tmp_path / "lib"
        fcntl.flock(claim, fcntl.LOCK_UN)


def test_too_many_queued_jobs_is_a_429_that_names_the_limit(busy):
    client, folder = busy
    for name in ("one.txt", "two.txt"):
        assert upload(client, name, BOOK.encode()).status_code == 202
    refused = upload(client, "three.txt", BOOK.encode())
    assert refused.status_code == 429
    assert "MAX_QUEUED_JOBS" in refused.get_json()["error"] and "Wait" in refused.get_json()["error"]
    assert client.post("/api/documents/fleming/reindex").status_code == 429  # re-indexing queues a job too
    assert len(list((folder / "uploads").iterdir())) == 2  # the refused file was never stored
    assert client.get("/api/stats").get_json()["jobs"] == {"queued": 2}


def test_an_upload_past_the_library_limit_is_a_413_that_names_it(tmp_path):
    client = library_app({"TESTING": True, "MAX_LIBRARY_BYTES": 1000}, tmp_path / "lib").test_client()
    text = (BOOK * 3)[:600].encode()
    assert wait_for(client, upload(client, "first.txt", text).get_json())["status"] == "done"
    refused = upload(client, "second.txt", text.replace(b"kettle", b"teapot"))
    assert refused.status_code == 413 and "MAX_LIBRARY_BYTES" in refused.get_json()["error"]
    assert "second.txt" in refused.get_json()["error"]
    assert list((tmp_path / "lib" / "uploads").iterdir()) == []
    assert client.get("/api/stats").get_json()["jobs"] == {"done": 1}
    client.delete("/api/documents/first")  # deleting frees its room
    assert upload(client, "second.txt", text).status_code == 202


def test_a_response_and_the_history_carry_at_most_a_bounded_passage(tmp_path):
    """A passage stored before uploads were cut to size (here 5,000 characters) is shortened and marked."""
    app = library_app({"TESTING": True, "MAX_CHARS": 100}, tmp_path / "lib")  # passages shown up to 400 characters
    huge = ["zebra " * 800, "zebras graze " * 400, "stripes " * 700]
    app.extensions["rag"].services.library.replace_documents([entry("zebras", huge)])
    client = app.test_client()
    body = client.post("/api/query", json={"question": "Why do zebras graze?"}).get_json()
    passage = next(p for p in body["passages"] if p["id"] == "zebras#1")
    assert passage["truncated"] is True and passage["chunk"] == huge[1][:400]
    assert len(passage["context_before"]) == len(passage["context_after"]) == 400
    assert all(p["truncated"] is False for p in body["passages"] if p["doc_id"] != "zebras")
    logged = client.get(f"/api/history/{body['id']}").get_json()
    assert max(len(p["chunk"]) for p in logged["passages"]) == 400
