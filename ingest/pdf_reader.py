"""Read a PDF's text with PDFium (pypdfium2) in a child process that a hostile file cannot take down the server with.

The child (this file run as a script) caps its own address space and CPU time before it opens the file; the
parent kills it after a wall-clock timeout. A crash, a timeout or running out of memory all become a
RejectedFile. Pages are joined with a blank line, compatibility characters (ligatures, Hebrew presentation
forms) are folded with NFKC, and reversed Hebrew is fixed (hebrew.py) with a warning.
Does not: OCR scanned pages, keep layout (columns, tables) or read forms and annotations.
"""
import json
import logging
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:  # parsers imports this module on use; at run time we import it back the same way
    from ingest.parsers import Limits, Parsed

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 100 * 2**20  # more text than this from one upload is refused rather than shipped to the parent
EXIT_REFUSED = 3  # the child's exit code when it judged the file itself; stdout says why


def read_pdf(path: Path, filename: str, limits: "Limits") -> "Parsed":
    """Extract a PDF's text and metadata in a sandboxed child process; raises RejectedFile on any failure."""
    from ingest.parsers import Parsed, RejectedFile, display_name, fix_reversed_hebrew

    name = display_name(filename)
    command = [sys.executable, str(Path(__file__).resolve()), str(path.resolve()),
               str(limits.pdf_memory_bytes), str(int(limits.pdf_timeout_s) + 1)]
    try:  # run() kills the child when the timeout expires
        done = subprocess.run(command, capture_output=True, timeout=limits.pdf_timeout_s, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise RejectedFile(f"could not read {name} within {limits.pdf_timeout_s:g} s; the PDF may be damaged or "
                           "unusually complex: re-save it (e.g. print it to PDF) or split it") from None
    if done.returncode == EXIT_REFUSED:
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


def _refuse(reason: str) -> NoReturn:
    """Tell the parent that the file itself is at fault, and stop."""
    sys.stdout.write(json.dumps({"refused": reason}))
    sys.exit(EXIT_REFUSED)


def _extract(path: str) -> dict:
    """Every page's text plus the title and author, read with PDFium."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            _refuse("is password-protected; remove the password and upload it again")
        _refuse("could not be opened as a PDF (it may be damaged or cut short); re-save it and upload it again")
    pages, total = [], 0
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
        textpage.close()
        page.close()
        # Drop control characters PDFium uses as markers, and unpaired surrogates from broken font maps.
        text = "".join(ch for ch in text if ch in "\n\t" or ch >= " ").encode("utf-8", "replace").decode()
        total += len(text)
        if total > MAX_TEXT_CHARS:
            _refuse(f"holds more than {MAX_TEXT_CHARS // 2**20} million characters of text; split it")
        pages.append(text)
    metadata = document.get_metadata_dict()
    return {"pages": pages, "title": metadata.get("Title"), "author": metadata.get("Author")}


def main(path: str, memory_bytes: str, cpu_seconds: str) -> None:
    """Child entry point: cap memory and CPU, then print the PDF's text as JSON on stdout."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (int(memory_bytes), int(memory_bytes)))
    # A CPU cap as well as the parent's timeout: it still holds if the parent dies without killing us.
    resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_seconds), int(cpu_seconds) + 1))
    sys.stdout.buffer.write(json.dumps(_extract(path), ensure_ascii=False).encode("utf-8", "replace"))


if __name__ == "__main__":
    main(*sys.argv[1:4])
