"""Ingest jobs on a real library: a text without breaks is indexed in bounded passages; a failure leaves no files;
each passage keeps its community, era and authority."""
import json
from pathlib import Path

from builders import BOOK
from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.chunking import MAX_PASSAGE_CHARS
from ingest.jobs import Ingestor
from pg import backend  # noqa: F401 - the fixture


class RecordingEmbedder(FakeEmbedder):
    """The fake embedder, remembering the longest text it was given."""

    longest = 0

    def embed(self, texts, batch_size=32, progress=False):
        self.longest = max([self.longest, *map(len, texts)])
        return super().embed(texts, batch_size, progress)


def test_a_text_without_spaces_becomes_bounded_passages(tmp_path):
    embedder = RecordingEmbedder()
    ingestor = Ingestor(corpus.build(CORPUS, embedder, tmp_path / "lib", 1200, 200))
    job = ingestor.submit_file(b"x" * 200_000, "nospace.txt", {})
    ingestor.run_pending()
    job = ingestor.store.job(job.id)
    chunks = [chunk for _, chunk, _ in ingestor.store.chunk_rows() if chunk.doc_id == "nospace"]
    assert job.status == "done" and len(chunks) == job.total == 42  # 200,000 / 4,800, rounded up
    assert max(len(c.text) for c in chunks) == MAX_PASSAGE_CHARS
    assert "".join(c.text for c in chunks) == "x" * 200_000
    assert embedder.longest <= MAX_PASSAGE_CHARS + len("Nospace\n")  # the title heads each passage


def test_a_failed_upload_leaves_only_its_record(tmp_path):
    ingestor = Ingestor(corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200))
    job = ingestor.submit_file(b"caf\xe9 au lait", "latin1.txt", {})
    ingestor.run_pending()
    job = ingestor.store.job(job.id)
    assert job.status == "failed" and "not UTF-8" in job.error
    assert list(ingestor.files.uploads.iterdir()) == list(ingestor.files.kept.iterdir()) == []
    assert [p.name for p in ingestor.leases.folder.iterdir()] == [".claim"]


def test_a_failed_reindex_keeps_the_documents_file(tmp_path):
    ingestor = Ingestor(corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200))
    ingestor.submit_file(BOOK.encode(), "kettles.txt", {})
    ingestor.run_pending()
    source = Path(ingestor.store.source_path("kettles"))
    source.write_bytes(b"caf\xe9")  # the kept file was damaged on disk
    job = ingestor.submit_reindex("kettles")
    ingestor.run_pending()
    assert ingestor.store.job(job.id).status == "failed"
    assert list(ingestor.files.kept.iterdir()) == [source] and ingestor.store.document("kettles").chunk_count >= 2


def test_a_job_whose_worker_died_after_the_commit_is_done_not_failed(tmp_path):
    ingestor = Ingestor(corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200))
    job = ingestor.submit_file(BOOK.encode(), "kettles.txt", {})
    ingestor.run_pending()
    chunks = ingestor.store.document("kettles").chunk_count
    ingestor.store.update_job(job.id, status="queued", stage="indexing")  # killed before it could say "done"
    assert ingestor.run_pending() == 1
    job = ingestor.store.job(job.id)
    assert (job.status, job.error, job.total) == ("done", None, chunks)
    assert ingestor.store.document("kettles").chunk_count == chunks


def test_a_job_finished_while_another_lane_looks_for_orphans_stays_finished(tmp_path):
    ingestor = Ingestor(corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200))
    job, lease = ingestor.claim(ingestor.submit_file(BOOK.encode(), "kettles.txt", {}).id)

    def finished_before_its_lease_is_read(job_id):  # the other lane saw it running; it ends before the lease check
        ingestor.store.update_job(job_id, status="done", stage="unchanged")
        lease.release()
        return ingestor.leases.is_running(job_id)

    assert ingestor.store.requeue_orphans(finished_before_its_lease_is_read) == 0
    assert ingestor.store.job(job.id).status == "done" and ingestor.claim() is None


SEIFIM = [{"ref": "Shulchan Arukh, Orach Chayim 2:5", "he": "לא ילבש שני בגדים ביחד:"},
          {"ref": "Shulchan Arukh, Orach Chayim 2:6", "he": "אסור לילך בקומה זקופה: הגה ויכסה כל גופו:"}]


def test_each_passage_keeps_what_the_reader_knows_and_the_document_says_the_rest(tmp_path):
    ingestor = Ingestor(corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200))
    book = "\n".join(json.dumps(s, ensure_ascii=False) for s in SEIFIM).encode()
    ingestor.submit_file(book, "sa.jsonl", {"tier": "canonical", "community": "General"})
    ingestor.submit_file(BOOK.encode(), "kettles.txt", {"community": "Ashkenazi"})
    ingestor.run_pending()
    chunks = [c for _, c, _ in ingestor.store.chunk_rows()]
    assert [(c.ref, c.community, c.era, c.authority_weight, c.tier) for c in chunks if c.doc_id == "sa"] == [
        ("Shulchan Arukh, Orach Chayim 2:5", "Sephardi", "Acharonim", 1.0, "canonical"),  # the reader's, not the document's
        ("Shulchan Arukh, Orach Chayim 2:6", "Sephardi", "Acharonim", 1.0, "canonical"),
        ("Shulchan Arukh, Orach Chayim 2:6, Rema", "Ashkenazi", "Acharonim", 1.0, "canonical")]
    kettles = [c for c in chunks if c.doc_id == "kettles"]
    assert {(c.community, c.era, c.authority_weight, c.tier) for c in kettles} == {("Ashkenazi", None, 0.0, "public")}
    view = ingestor.library.current()  # the view searched carries them too
    assert {c.community for c in view.chunks if c.doc_id == "sa"} == {"Sephardi", "Ashkenazi"}


def test_uploaders_take_turns_so_one_users_jobs_do_not_hold_anothers(tmp_path, backend):  # noqa: F811
    """Issue 49: another editor's small upload waited behind one user's large jobs; now each uploader's next job
    goes in turn, and a user's later jobs wait behind another's first."""
    library = backend.build(CORPUS[:1], FakeEmbedder())
    ingestor = Ingestor(library)
    jobs = [ingestor.submit_file(f"Text {n} of {who}.".encode(), f"{who}-{n}.txt", {"owner": owner})
            for who, owner, n in (("ada", 1, 1), ("ada", 1, 2), ("ada", 1, 3), ("ben", 2, 1))]
    order = []
    while (claimed := ingestor.claim()) is not None:
        order.append(claimed[0].filename)
        ingestor.run(*claimed)
    assert order == ["ada-1.txt", "ben-1.txt", "ada-2.txt", "ada-3.txt"]
    assert all(ingestor.store.job(j.id).status == "done" for j in jobs)


def test_the_small_lane_takes_only_small_uploads_never_a_reindex(tmp_path, backend):  # noqa: F811
    """The small jobs' lane (Ingestor._loop's smaller_than) claims an upload under the bound, and neither a larger
    one nor a re-index, whose size is not counted: those wait for the main lane."""
    library = backend.build(CORPUS[:1], FakeEmbedder())
    ingestor = Ingestor(library)
    done = ingestor.submit_file(b"Old text.", "notes.txt", {})
    ingestor.run(*ingestor.claim())
    assert ingestor.store.job(done.id).status == "done"
    large = ingestor.submit_file(b"x" * 5_000, "large.txt", {})
    reindex = ingestor.submit_reindex("notes")
    small = ingestor.submit_file(b"Tiny.", "tiny.txt", {})
    claimed, lease = ingestor.claim(smaller_than=1_000)
    assert claimed.id == small.id
    ingestor.run(claimed, lease)
    assert ingestor.claim(smaller_than=1_000) is None  # the large upload and the re-index stay queued
    assert {ingestor.store.job(j.id).status for j in (large, reindex)} == {"queued"}
