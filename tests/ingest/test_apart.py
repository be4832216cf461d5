"""Every upload is read on a clock in a child process (issue 49): one built to be slow fails its job with a message
naming the limit, and the next job runs."""
import time

import pytest
from docx import Document as Docx

from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.apart import IN_PROCESS_BYTES, parse_apart
from ingest.jobs import Ingestor
from ingest.records import Limits, RejectedFile


@pytest.fixture(scope="module")
def slow_docx(tmp_path_factory):
    """A DOCX of many short paragraphs, well within every size limit, slow to read."""
    path = tmp_path_factory.mktemp("slow") / "slow.docx"
    document = Docx()
    for n in range(20_000):
        document.add_paragraph(f"Paragraph {n} of a file built to be slow to read.")
    document.save(path)
    assert path.stat().st_size > IN_PROCESS_BYTES
    return path


def test_a_file_slower_than_the_limit_is_stopped_with_a_message_naming_it(slow_docx):
    path = slow_docx
    started = time.perf_counter()
    with pytest.raises(RejectedFile, match=r"slow.docx took longer than 0.5 s to read, the limit for any file"):
        parse_apart(path, "slow.docx", Limits(parse_timeout_s=0.5))
    assert time.perf_counter() - started < 10  # stopped, not waited for
    assert "Paragraph 19999" in parse_apart(path, "slow.docx").text  # within the limit: read whole, in the child


def test_a_refusal_judged_in_the_child_comes_back_as_it_was(tmp_path):
    path = tmp_path / "deep.ipynb"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RejectedFile, match="nests its JSON too deeply"):
        parse_apart(path, "deep.ipynb")


def test_the_job_behind_a_stopped_one_runs(tmp_path, slow_docx):
    library = corpus.build(CORPUS[:1], FakeEmbedder(), tmp_path / "lib", 1200, 200)
    ingestor = Ingestor(library, Limits(parse_timeout_s=0.5))
    slow = ingestor.submit_file(slow_docx, "slow.docx", {})
    small = ingestor.submit_file(b"Kettles boil water for tea.", "kettles.txt", {})
    ingestor.run_pending()
    assert ingestor.store.job(slow.id).status == "failed" and "0.5 s" in ingestor.store.job(slow.id).error
    assert ingestor.store.job(small.id).status == "done"


def test_a_small_upload_finishes_in_seconds_while_a_large_one_is_read(tmp_path, slow_docx, monkeypatch):
    """Issue 49: another editor's tiny upload waited 17 minutes behind a slow one; the small lane runs it beside."""
    import ingest.jobs

    monkeypatch.setattr(ingest.jobs, "SMALL_JOB_BYTES", 64 * 1024)  # the slow DOCX is large by this measure
    library = corpus.build(CORPUS[:1], FakeEmbedder(), tmp_path / "lib", 1200, 200)
    ingestor = Ingestor(library, Limits(parse_timeout_s=60))
    slow = ingestor.submit_file(slow_docx, "slow.docx", {"owner": 1})
    ingestor.start()
    try:
        deadline = time.monotonic() + 30
        while ingestor.store.job(slow.id).status != "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        small = ingestor.submit_file(b"Kettles boil water for tea.", "kettles.txt", {"owner": 2})
        started = time.perf_counter()
        while ingestor.store.job(small.id).status != "done" and time.perf_counter() - started < 30:
            time.sleep(0.05)
        took = time.perf_counter() - started
        assert ingestor.store.job(small.id).status == "done" and took < 10, took
        assert ingestor.store.job(slow.id).status == "running"  # the large one is still being read
    finally:
        assert ingestor.stop(90)
