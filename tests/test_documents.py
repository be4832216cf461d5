"""The book manager end to end over HTTP: upload, jobs, list, filters, re-index, remove, and refusals.

Real files, the real parsers, chunker, SQLite store and indexes; the embedder and classifier are fakes.
"""
import time

import pytest

import library
from app import create_app
from conftest import CORPUS, FakeClassifier, FakeEmbedder, FakeWriter
from generator import Generator
from jobs import Ingestor
from pipeline import Pipeline
from retrieval import Retriever

BOOK = """Course Title: Kettles and Tea

Lesson 1: Boiling water

A kettle boils water on the stove. The whistle tells you the water is ready.

Lesson 2: Brewing

Green tea wants water below boiling, about eighty degrees, for two minutes.
"""


def library_pipeline(folder):
    lib = library.build(CORPUS, FakeEmbedder(), folder, 1200, 200)
    writer = FakeWriter("offline")
    return Pipeline(FakeClassifier(), Retriever(lib, FakeEmbedder()), Generator({"offline": writer}, "offline"),
                    {"library": {}}, Ingestor(lib))


@pytest.fixture
def lib_client(tmp_path):
    app = create_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, pipeline=library_pipeline(tmp_path / "lib"))
    return app.test_client()


def upload(client, name, data, **fields):
    from io import BytesIO

    return client.post("/api/documents", data={"file": (BytesIO(data), name), **fields},
                       content_type="multipart/form-data")


def wait_for(client, job, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(job["url"]).get_json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job did not finish: {job}")


def test_upload_index_search_and_remove(lib_client):
    response = upload(lib_client, "kettles.txt", BOOK.encode(), tier="private", language="en")
    assert response.status_code == 202 and response.headers["Location"] == response.get_json()["url"]
    job = wait_for(lib_client, response.get_json())
    assert job["status"] == "done" and job["document_id"] == "kettles" and job["total"] >= 2

    docs = lib_client.get("/api/documents?q=Kettles").get_json()
    assert docs["total"] == 1 and docs["documents"][0]["title"] == "Kettles and Tea"
    assert docs["documents"][0]["filename"] == "kettles.txt" and docs["documents"][0]["tier"] == "private"
    stats = lib_client.get("/api/stats").get_json()
    assert stats["documents"] == 5 and stats["per_document"][0]["id"] == "kettles"

    body = lib_client.post("/api/query", json={"question": "How hot should the water for green tea be?",
                                               "filters": {"tier": "private"}}).get_json()
    assert body["passages"] and {p["doc_id"] for p in body["passages"]} == {"kettles"}
    assert any("Lesson 2" in p["ref"] for p in body["passages"])

    removed = lib_client.delete("/api/documents/kettles").get_json()
    assert removed["chunks_removed"] == job["total"]
    body = lib_client.post("/api/query", json={"question": "kettle green tea water"}).get_json()
    assert "kettles" not in {p["doc_id"] for p in body["passages"]}
    assert lib_client.delete("/api/documents/kettles").status_code == 404


def test_unchanged_file_changes_nothing_and_a_changed_one_replaces_its_chunks(lib_client, tmp_path):
    first = wait_for(lib_client, upload(lib_client, "kettles.txt", BOOK.encode()).get_json())
    generation = lib_client.get("/api/stats").get_json()["generation"]
    again = wait_for(lib_client, upload(lib_client, "kettles.txt", BOOK.encode()).get_json())
    assert again["stage"] == "unchanged" and lib_client.get("/api/stats").get_json()["generation"] == generation
    changed = BOOK + "\nLesson 3: Cleaning\n\nDescale the kettle with vinegar once a month.\n"
    third = wait_for(lib_client, upload(lib_client, "kettles.txt", changed.encode()).get_json())
    assert third["status"] == "done" and third["total"] > first["total"]
    assert lib_client.get("/api/stats").get_json()["documents"] == 5  # replaced, not added


def test_reindex_rebuilds_one_document(lib_client):
    wait_for(lib_client, upload(lib_client, "kettles.txt", BOOK.encode()).get_json())
    response = lib_client.post("/api/documents/kettles/reindex")
    assert response.status_code == 202
    assert wait_for(lib_client, response.get_json())["status"] == "done"
    assert lib_client.post("/api/documents/nothing/reindex").status_code == 404
    corpus_doc = lib_client.post("/api/documents/fleming/reindex")
    assert corpus_doc.status_code == 409 and "ingest-default" in corpus_doc.get_json()["error"]


@pytest.mark.parametrize("name, data, status, message", [
    ("virus.exe", b"MZ\x90\x00", 415, "not accepted"),
    ("report.pdf", b"hello, I am not a PDF", 415, "PDF"),
    ("big.txt", b"a" * 300_000, 413, "limit"),
    ("empty.txt", b"", 400, "empty"),
])
def test_bad_uploads_are_refused_and_lose_nothing(lib_client, name, data, status, message):
    before = lib_client.get("/api/stats").get_json()
    response = upload(lib_client, name, data)
    assert response.status_code == status and message in response.get_json()["error"]
    assert "Traceback" not in response.get_data(as_text=True)
    assert lib_client.get("/api/stats").get_json() == before


def test_a_docx_zip_bomb_is_refused_at_upload(lib_client):
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/document.xml", "w") as entry:
            for _ in range(64):
                entry.write(b"\0" * 2**20)  # 64 MB of zeros, about 64 KB packed
    response = upload(lib_client, "bomb.docx", buffer.getvalue())
    assert response.status_code == 415 and "zip bomb" in response.get_json()["error"]
    assert lib_client.get("/api/stats").get_json()["jobs"] == {}


def test_upload_form_errors(lib_client):
    assert "exactly one file" in lib_client.post("/api/documents", data={}).get_json()["error"]
    bad_field = upload(lib_client, "a.txt", b"text", colour="blue")
    assert bad_field.status_code == 400 and "colour" in bad_field.get_json()["error"]
    bad_id = upload(lib_client, "a.txt", b"text", document_id="../etc")
    assert bad_id.status_code == 400
    assert lib_client.get("/api/jobs/nope").status_code == 404
    assert lib_client.get("/api/documents?limit=0").status_code == 400


def test_a_failed_parse_is_reported_on_the_job(lib_client):
    job = wait_for(lib_client, upload(lib_client, "broken.json", b'{"no": "text here"}').get_json())
    assert job["status"] == "failed" and job["error"] and "Traceback" not in job["error"]
    assert lib_client.get("/api/stats").get_json()["documents"] == 4


def test_queued_jobs_survive_a_restart(tmp_path):
    lib = library.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    job = Ingestor(lib).submit_file(BOOK.encode(), "kettles.txt", {})  # queued; the process "stops" here
    lib.store.update_job(job.id, status="running", stage="embedding")  # as if killed mid-job
    restarted = Ingestor(library.load(tmp_path, FakeEmbedder()))
    assert restarted.run_pending() == 1
    assert restarted.store.job(job.id).status == "done" and restarted.store.document("kettles").chunk_count >= 2
