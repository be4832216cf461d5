"""Read a PDF's text with PDFium (pypdfium2) in a child process that a hostile file cannot take down the server with.

The child (pdf_worker.py, run as a script) caps its own address space and CPU time before it opens the file; the
parent kills it after a wall-clock timeout. A crash, a timeout or running out of memory all become a
RejectedFile. Pages are joined with a blank line, compatibility characters (ligatures, Hebrew presentation
forms) are folded with NFKC, and reversed Hebrew is fixed (hebrew/script.py) with a warning.
Does not: OCR scanned pages, keep layout (columns, tables) or read forms and annotations.
"""
import json
import logging
import subprocess
import sys
import unicodedata
from pathlib import Path

from hebrew.script import fix_reversed_hebrew
from ingest import pdf_worker
from ingest.records import Limits, Parsed, RejectedFile, display_name

log = logging.getLogger(__name__)


def read_pdf(path: Path, filename: str, limits: Limits) -> Parsed:
    """Extract a PDF's text and metadata in a sandboxed child process; raises RejectedFile on any failure."""
    name = display_name(filename)
    command = [sys.executable, str(Path(pdf_worker.__file__).resolve()), str(path.resolve()),
               str(limits.pdf_memory_bytes), str(int(limits.pdf_timeout_s) + 1)]
    try:  # run() kills the child when the timeout expires
        done = subprocess.run(command, capture_output=True, timeout=limits.pdf_timeout_s, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RejectedFile(f"could not read {name} within {limits.pdf_timeout_s:g} s; the PDF may be damaged or "
                           "unusually complex: re-save it (e.g. print it to PDF) or split it") from None
    if done.returncode == pdf_worker.EXIT_REFUSED:
        reason = json.loads(done.stdout)["refused"]
        raise RejectedFile(f"{name} {reason}")
    if done.returncode != 0:
        log.warning("PDF worker for %s exited with %s: %s", name, done.returncode, done.stderr[-2000:])
        raise RejectedFile(f"could not read {name}: the PDF reader stopped (the file may be damaged, or need more "
                           f"than {limits.pdf_memory_bytes / 2**20:.0f} MB of memory); re-save it and try again")
    result = json.loads(done.stdout)
    pages = [unicodedata.normalize("NFKC", page) for page in result["pages"]]
    warnings = []
    blank = sum(not page.strip() for page in pages)
    if 0 < blank < len(pages):
        warnings.append(f"{blank} of {len(pages)} pages have no text (scanned images?) and were skipped")
    text, fixed = fix_reversed_hebrew("\n\n".join(page.strip() for page in pages if page.strip()))
    if fixed:
        warnings.append("Hebrew words were reversed in this PDF; fixed")
    return Parsed(text, "pdf", title=result["title"], author=result["author"], warnings=warnings, pages=len(pages))
