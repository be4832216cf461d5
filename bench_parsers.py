"""Time PDF parsing: write a book-sized PDF with fpdf2, read it with parse_file, report pages per minute.

Run `python bench_parsers.py [pages]`, or call bench_pdf() from benchmark.py. The figure includes starting
the sandboxed PDF worker process. Does not: measure DOCX/HTML/JSON (they are far cheaper) or chunking.
"""
import sys
import tempfile
import time
from pathlib import Path

from parsers import parse_file

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


if __name__ == "__main__":
    print(bench_pdf(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
