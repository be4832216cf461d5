"""Ingest speed: write a book-sized PDF (about 500 words a page) and time reading it, then ingesting it whole.

`flask --app app bench-ingest` prints both: pages per minute for parsing alone (including the start of the
sandboxed PDF worker) and for the full ingest job (parse, chunk, embed with the configured embedder, commit
to the store, update the indexes). With --no-space-mb it instead ingests a text without a space or newline
in a fresh process and reports that process's peak memory, to show such a file costs bounded memory.
Does not: measure DOCX/HTML/JSON (cheaper to read than PDF).
"""
import multiprocessing
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from ingest.parsers import parse_file

WORDS = ("the law of the sabbath requires that a person rest from creative labour and honour the day "
         "with food clothing and study while the sages debated each case at length").split()


def write_pdf(path: Path, pages: int, words_per_page: int = 500) -> None:
    """Write a PDF of `pages` pages of about `words_per_page` words each."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("Benchmark book")
    pdf.set_font("Helvetica", size=9)
    for number in range(pages):
        pdf.add_page()
        words = [WORDS[(number * 7 + i) % len(WORDS)] for i in range(words_per_page)]
        pdf.multi_cell(0, 4, text=f"Page {number + 1}. " + " ".join(words))
    pdf.output(str(path))


def bench_pdf(pages: int = 200) -> dict:
    """Parse a generated `pages`-page PDF; returns {"pages", "seconds", "pages_per_minute"}."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.pdf"
        write_pdf(path, pages)
        start = time.perf_counter()
        parsed = parse_file(path, "bench.pdf")
        seconds = time.perf_counter() - start
    return {"pages": parsed.pages, "seconds": round(seconds, 3), "pages_per_minute": round(parsed.pages / seconds * 60)}


def bench_ingest(embedder, pages: int = 200, target=None) -> dict:
    """Ingest a generated `pages`-page PDF into an empty library (a folder, or target: an empty PgLibrary);
    returns the job's figures."""
    from ingest.jobs import Ingestor
    from search import library

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.pdf"
        write_pdf(path, pages)
        ingestor = Ingestor(target or library.Library.open(Path(folder) / "library", embedder, create=True))
        job = ingestor.submit_file(path, "bench.pdf", {})
        start = time.perf_counter()
        ingestor.run_pending()
        seconds = time.perf_counter() - start
        job = ingestor.store.job(job.id)
    if job.status != "done":
        raise RuntimeError(f"the benchmark ingest failed: {job.error}")
    return {"pages": pages, "chunks": job.total, "seconds": round(seconds, 2),
            "pages_per_minute": round(pages / seconds * 60)}


def bench_book(embedder, path: Path, records: int = 1000) -> dict:
    """Ingest the first `records` records of a JSONL book (the Shulchan Arukh's) into an empty library, then embed
    its passages again in batches of EMBED_BATCH two ways: in book order (as ingest did before) and longest first
    (search.embedding.in_batches, as it does now). Returns the passages per minute of each and of the ingest."""
    from ingest.jobs import EMBED_BATCH, Ingestor
    from search import library
    from search.embedding import in_batches

    with tempfile.TemporaryDirectory() as folder:
        sample = Path(folder) / Path(path).name
        with Path(path).open(encoding="utf-8") as source:
            sample.write_text("".join(line for _, line in zip(range(records), source)), encoding="utf-8")
        ingestor = Ingestor(library.Library.open(Path(folder) / "library", embedder, create=True))
        job = ingestor.submit_file(sample, sample.name, {})
        start = time.perf_counter()
        ingestor.run_pending()
        seconds = time.perf_counter() - start
        if ingestor.store.job(job.id).status != "done":
            raise RuntimeError(f"the benchmark ingest failed: {ingestor.store.job(job.id).error}")
        texts = [chunk.passage_text for chunk in ingestor.library.current().chunks]
    figures = {"records": records, "passages": len(texts), "ingest": _rate(len(texts), seconds)}
    for name, by_length in (("book_order", False), ("by_length", True)):
        start = time.perf_counter()
        in_batches(embedder, texts, EMBED_BATCH, by_length=by_length)
        figures[name] = _rate(len(texts), time.perf_counter() - start)
    return figures


def _rate(passages: int, seconds: float) -> dict:
    return {"seconds": round(seconds, 1), "passages_per_minute": round(passages / seconds * 60)}


def write_no_space(path: Path, megabytes: float) -> None:
    """Write `megabytes` MB of random lower-case letters: no space, no newline."""
    rng, left = np.random.default_rng(0), int(megabytes * 2**20)
    with path.open("wb") as out:
        while left:
            block = min(left, 2**20)
            out.write(rng.integers(ord("a"), ord("z") + 1, block, dtype=np.uint8).tobytes())
            left -= block


def _peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ingest_alone(model: str, path: str, folder: str) -> dict:
    """In a fresh process: load the embedder, ingest one file into an empty library, and measure it."""
    from ingest.jobs import Ingestor
    from search import library
    from search.embedding import Embedder

    embedder = Embedder.load(model)
    loaded = _peak_mb()
    ingestor = Ingestor(library.Library.open(Path(folder), embedder, create=True))
    job = ingestor.submit_file(Path(path), Path(path).name, {})
    start = time.perf_counter()
    ingestor.run_pending()
    seconds, peak = time.perf_counter() - start, _peak_mb()
    job = ingestor.store.job(job.id)
    chunks, longest = ingestor.store.db.execute(
        "SELECT count(*), coalesce(max(length(text)), 0) FROM chunks WHERE doc_id = ?", (job.document_id,)).fetchone()
    return {"status": job.status, "error": job.error, "seconds": round(seconds, 1), "chunks": chunks,
            "max_chunk_chars": longest, "rss_loaded_mb": round(loaded), "peak_rss_mb": round(peak)}


def bench_no_space(model: str, megabytes: float = 49) -> dict:
    """Ingest a generated text of `megabytes` MB without spaces in a fresh process; returns its figures.

    The process is spawned, not forked, so its peak RSS is the embedder plus this one ingest and nothing else.
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "nospace.txt"
        write_no_space(path, megabytes)
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            figures = pool.submit(_ingest_alone, model, str(path), str(Path(folder) / "library")).result()
    if figures["status"] != "done":
        raise RuntimeError(f"the no-space ingest failed: {figures['error']}")
    return {"megabytes": megabytes, **figures}


if __name__ == "__main__":
    print(bench_pdf(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
