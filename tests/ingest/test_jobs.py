"""Ingest jobs on a real library: a text without breaks is indexed in bounded passages; a failure leaves no files."""
from pathlib import Path

from builders import BOOK
from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.chunking import MAX_PASSAGE_CHARS
from ingest.jobs import Ingestor


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
