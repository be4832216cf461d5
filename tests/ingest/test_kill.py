"""A process killed at any point of an ingest leaves the library as it was before that document or after it.

A child process ingests a large text file; the test kills it (SIGKILL) after a different delay each
round, then checks the store and the indexes agree and the document is absent or whole, and that the
next start finishes the interrupted job.
"""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import CORPUS, FakeEmbedder
from ingest import corpus
from ingest.jobs import Ingestor
from search import library

CHILD = """
import sys, logging
sys.path[:0] = [{tests!r}, {root!r}]
from conftest import FakeEmbedder
from search import library
from ingest.jobs import Ingestor
ingestor = Ingestor(library.load({folder!r}, FakeEmbedder()))
ingestor.submit_file({book!r}, "big-book.txt", {{}})
print("ready", flush=True)
ingestor.run_pending()
print("finished", flush=True)
"""


def consistent(folder: Path) -> int:
    """Check store and indexes agree; returns the big book's chunk count (0 when absent)."""
    lib = library.load(folder, FakeEmbedder())
    view = lib.view
    stored = list(lib.store.chunk_rows())
    assert [c.id for _, c, _ in stored] == [c.id for c in view.chunks]
    assert view.index.ntotal == view.bm25.n_docs == len(stored)
    np.testing.assert_array_equal(view.labels, [r for r, _, _ in stored])
    doc = lib.store.document("big-book")
    n = sum(1 for _, c, _ in stored if c.doc_id == "big-book")
    assert (doc is None and n == 0) or (doc is not None and doc.chunk_count == n > 0)
    return n


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.4, 0.8, 1.5])
def test_kill_during_ingest_leaves_the_library_whole(tmp_path, delay):
    folder = tmp_path / "lib"
    corpus.build(CORPUS, FakeEmbedder(), folder, 1200, 200)
    book = tmp_path / "big-book.txt"
    book.write_text("\n\n".join(f"Chapter {i}\n\nParagraph {i} about kettles, tea and water. " * 30 for i in range(1, 200)))
    root = Path(__file__).resolve().parents[2]
    script = CHILD.format(tests=str(root / "tests"), root=str(root), folder=str(folder), book=str(book))
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=root)
    assert child.stdout.readline().strip() == b"ready"
    time.sleep(delay)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    before = consistent(folder)  # absent or whole, never half
    Ingestor(library.load(folder, FakeEmbedder())).run_pending()  # the next start resumes the job
    after = consistent(folder)
    assert after > 0 and (before == 0 or before == after)
