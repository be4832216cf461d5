"""The book manager end to end over HTTP: upload, jobs, list, filters, re-index, remove, and refusals.

Real files, the real parsers, chunker, store and indexes, on each backend (the embedded files, and PostgreSQL);
the embedder and classifier are fakes.
"""

import pytest

from builders import BOOK, english_pdf, library_app, upload, wait_for
from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.jobs import Ingestor
from search import library


@pytest.fixture
def lib_client(tmp_path, backend):
    """A client of the app over a library on each backend in turn (tests/pg.py)."""
    app = library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)
    client = app.test_client()
    client.backend = backend.name
    return client


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


def test_a_failed_parse_is_reported_on_the_job_and_its_file_removed(lib_client, tmp_path):
    job = wait_for(lib_client, upload(lib_client, "broken.json", b'{"no": "text here"}').get_json())
    assert job["status"] == "failed" and job["error"] and "Traceback" not in job["error"]
    assert lib_client.get("/api/stats").get_json()["documents"] == 4
    assert [p for p in (tmp_path / "lib").rglob("*") if p.is_file() and p.parent.name in ("uploads", "files", "jobs")
            and not p.name.startswith(".")] == []  # no upload, no kept copy, no lock: only the job's record
    assert lib_client.get("/api/stats").get_json()["uploaded_bytes"] == 0  # in the folder or the database


@pytest.mark.parametrize("name", ["notes\x00.txt", "no\x00tes.t\x00xt", "tab\there.txt", "bell\x07.md"])
def test_a_file_name_with_control_characters_is_a_400(lib_client, name):
    response = upload(lib_client, name, b"Some text.")
    assert response.status_code == 400 and "control characters" in response.get_json()["error"]
    assert lib_client.get("/api/stats").get_json()["jobs"] == {}


def test_a_long_txt_name_is_accepted_and_shown_shortened_with_its_extension(lib_client):
    name = "a-very-long-name-for-a-plain-text-file-about-kettles-and-tea-and-the-water-they-boil.txt"
    assert len(name) > 80
    job = wait_for(lib_client, upload(lib_client, name, BOOK.encode()).get_json())
    assert job["status"] == "done" and job["filename"] == name
    refused = upload(lib_client, name[:-4] + ".exe", b"MZ")
    assert refused.status_code == 415 and "files of type .exe" in refused.get_json()["error"]
    empty = upload(lib_client, name, b"").get_json()["error"]
    assert empty.endswith("….txt is empty.") and len(empty) < 100


def test_queued_jobs_survive_a_restart(tmp_path):
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    job = Ingestor(lib).submit_file(BOOK.encode(), "kettles.txt", {})  # queued; the process "stops" here
    lib.store.update_job(job.id, status="running", stage="embedding")  # as if killed mid-job
    restarted = Ingestor(library.load(tmp_path, FakeEmbedder()))
    assert restarted.run_pending() == 1
    assert restarted.store.job(job.id).status == "done" and restarted.store.document("kettles").chunk_count >= 2


def real_files(tmp_path):
    """A PDF, a DOCX, an HTML page and a Sefaria-shaped JSON, each built for real, with a question each answers."""
    import json

    import docx

    pdf = english_pdf(tmp_path / "pdf-upload.pdf", ["Chapter 1\n\nThe lighthouse keeper lit the lamp at dusk.",
                                                     "Chapter 2\n\nStorms in November wrecked three schooners."])
    document = docx.Document()
    document.add_heading("Gardening", level=1)
    document.add_paragraph("Tomatoes need six hours of direct sunlight every day.")
    document.add_heading("Pests", level=2)
    document.add_paragraph("Aphids are washed off tomato leaves with soapy water.")
    document.core_properties.title = "Garden Notes"
    document.save(tmp_path / "garden.docx")
    html = tmp_path / "volcano.html"
    html.write_text("<html><head><title>Volcanoes</title><script>alert(1)</script></head><body>"
                    "<h2>Eruptions</h2><p>Magma that reaches the surface is called lava.</p></body></html>")
    sefaria = tmp_path / "oc.json"
    sefaria.write_text(json.dumps({"title": "Shulchan Arukh, Orach Chayim", "language": "he",
                                   "sectionNames": ["Siman", "Seif"],
                                   "text": [["יתגבר כארי לעמוד בבוקר לעבודת בוראו", "ילבש ציצית ויברך"],
                                            ["לא ילבש חלוקו מיושב אלא יקח חלוקו ויכניס בו ראשו"]]},
                                  ensure_ascii=False))
    return [(pdf, "Storms in November wrecked schooners", "pdf-upload", "The Test Book, Chapter 2"),
            (tmp_path / "garden.docx", "How are aphids washed off tomato leaves", "garden", "Pests"),
            (html, "What is magma at the surface called", "volcano", "Eruptions"),
            (sefaria, "חלוקו מיושב", "oc", "Shulchan Arukh, Orach Chayim 2:1")]


def test_each_real_format_is_ingested_and_answers_with_its_section(lib_client, tmp_path):
    for path, question, doc_id, ref in real_files(tmp_path):
        job = wait_for(lib_client, upload(lib_client, path.name, path.read_bytes()).get_json())
        assert job["status"] == "done", job
        body = lib_client.post("/api/query", json={"question": question,
                                                   "filters": {"document_ids": [doc_id]}}).get_json()
        assert body["passages"][0]["doc_id"] == doc_id
        assert ref in body["passages"][0]["ref"], (path.name, body["passages"][0]["ref"])
    listed = {d["id"]: d for d in lib_client.get("/api/documents").get_json()["documents"]}
    assert listed["oc"]["language"] == "he" and listed["pdf-upload"]["format"] == "pdf"


def test_cli_ingest_adds_files_and_folders_with_metadata(tmp_path):
    """`flask --app app ingest` with the real embedder: a folder of files, then an unchanged re-run."""
    books = tmp_path / "books"
    books.mkdir()
    (books / "kettles.txt").write_text(BOOK)
    (books / "notes.md").write_text("# Notes\n\nCopper kettles conduct heat well.\n")
    (books / "ignored.xyz").write_text("not a book")
    app = library_app({"TESTING": True, "LIBRARY_DIR": str(tmp_path / "lib")}, tmp_path / "x")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["ingest", str(books), "--tier", "private", "--author", "A. Brewer"])
    assert result.exit_code == 0, result.output
    assert "kettles: done" in result.output and "notes: done" in result.output and "ignored" not in result.output
    lib = library.load(tmp_path / "lib", _embedder())
    assert lib.store.document("kettles").tier == "private" and lib.store.document("notes").author == "A. Brewer"
    again = runner.invoke(args=["ingest", str(books / "kettles.txt"), "--tier", "private", "--author", "A. Brewer"])
    assert "kettles: done (unchanged" in again.output
    bad = runner.invoke(args=["ingest", str(books / "ignored.xyz")])
    assert bad.exit_code != 0 and "no files with an accepted extension" in bad.output


def _embedder():
    from search.embedding import Embedder

    return Embedder.load("sentence-transformers/all-MiniLM-L6-v2")


def test_the_same_file_under_another_name_is_stored_once_and_the_uploader_told_which(lib_client):
    first = wait_for(lib_client, upload(lib_client, "kettles.txt", BOOK.encode()).get_json())
    assert first["status"] == "done"
    again = upload(lib_client, "kettles-copy.txt", BOOK.encode())
    assert again.status_code == 409 and again.headers["X-Duplicate-Of"] == "kettles"
    assert "'kettles'" in again.json["error"] and "not added again" in again.json["error"]
    assert "kettles-copy" not in {d["id"] for d in lib_client.get("/api/documents").get_json()["documents"]}
    same_id = wait_for(lib_client, upload(lib_client, "kettles.txt", BOOK.encode()).get_json())
    assert same_id["status"] == "done" and same_id["stage"] == "unchanged"  # a re-upload under its own id
    changed = upload(lib_client, "kettles-2.txt", (BOOK + "\nOne more line.").encode())
    assert changed.status_code == 202  # other bytes: another document
