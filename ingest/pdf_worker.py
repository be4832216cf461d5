"""The sandboxed child that reads a PDF with PDFium, run as a script by pdf_reader.py.

It caps its own address space and CPU time before it opens the file, and prints the pages' text, title and
author as JSON on stdout; a file it judges bad exits with EXIT_REFUSED and says why. It imports nothing of
Evidenz, so it runs with only the standard library and pypdfium2 on its path.
"""
import json
import sys
from typing import NoReturn

MAX_TEXT_CHARS = 100 * 2**20  # more text than this from one upload is refused rather than shipped to the parent
EXIT_REFUSED = 3  # the child's exit code when it judged the file itself; stdout says why


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
