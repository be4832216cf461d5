"""Ingest speed: write a book-sized PDF (about 500 words a page) and time reading it, then ingesting it whole.

`flask --app app bench-ingest` prints both: pages per minute for parsing alone (including the start of the
sandboxed PDF worker) and for the full ingest job (parse, chunk, embed with the configured embedder, commit
to the store, update the indexes). Does not: measure DOCX/HTML/JSON (cheaper to read than PDF).
"""
import sys
import tempfile
import time
from pathlib import Path

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


def bench_ingest(embedder, pages: int = 200) -> dict:
    """Ingest a generated `pages`-page PDF into an empty library; returns the job's figures."""
    from ingest.jobs import Ingestor
    from search import library

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.pdf"
        write_pdf(path, pages)
        ingestor = Ingestor(library.Library.open(Path(folder) / "library", embedder, create=True))
        job = ingestor.submit_file(path, "bench.pdf", {})
        start = time.perf_counter()
        ingestor.run_pending()
        seconds = time.perf_counter() - start
        job = ingestor.store.job(job.id)
    if job.status != "done":
        raise RuntimeError(f"the benchmark ingest failed: {job.error}")
    return {"pages": pages, "chunks": job.total, "seconds": round(seconds, 2),
            "pages_per_minute": round(pages / seconds * 60)}


if __name__ == "__main__":
    print(bench_pdf(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
