"""Turn one uploaded file into text plus metadata, or refuse it with a message the user can act on.

Formats: PDF (pdf_reader.py, in a sandboxed subprocess), DOCX (docx_reader.py), HTML (html_reader.py),
JSON/JSONL (json_reader.py) and plain text/Markdown (here). The file's extension must be on the allowlist
and agree with its content (sniff_format), so a renamed .exe is refused before any reader sees it.
Does not: chunk along the document's structure (structure.py), store files or run jobs (jobs.py), or OCR
scanned pages.
"""
import codecs
import io
import logging
import re
from pathlib import Path

from hebrew.script import detect_language
from ingest.docx_reader import check_zip, read_docx
from ingest.html_reader import read_html
from ingest.json_reader import read_json
from ingest.notebook_reader import read_notebook
from ingest.pdf_reader import read_pdf
from ingest.records import Limits, Parsed, RejectedFile, display_name, extension
from ingest.table_reader import read_table

log = logging.getLogger(__name__)

ALLOWED = {".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html", ".txt": "txt", ".md": "markdown",
           ".markdown": "markdown", ".json": "json", ".jsonl": "jsonl", ".ipynb": "ipynb", ".csv": "csv", ".tsv": "tsv"}
ACCEPTED = "send PDF, DOCX, HTML, TXT, Markdown, JSON, a Jupyter notebook, CSV or TSV"
TEXT_FORMATS = {"html", "txt", "markdown", "json", "jsonl", "ipynb", "csv", "tsv"}
HEAD_BYTES = 8192  # how much of a file sniff_format looks at
HTML_TAG = re.compile(r"<(!doctype\s+html|html|head|body|title|meta|p|div|h[1-6]|article|section)[\s>/]", re.I)
BOMS = [(codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")]
MAX_TITLE_CHARS = 300  # a file's own title or author is cut to this (every passage repeats its title)


def _codec(data: bytes) -> str:
    """The codec for an uploaded text: UTF-8 unless a byte-order mark says UTF-16 (the codec drops the mark)."""
    return next((codec for bom, codec in BOMS if data.startswith(bom)), "utf-8")


def decode_text(data: bytes, filename: str, final: bool = True) -> str:
    """Decode an uploaded text file (UTF-8, or UTF-16 with a BOM) and normalise its newlines.

    final=False accepts a character cut off at the end, for sniffing the first bytes of a file.
    """
    try:
        text = codecs.getincrementaldecoder(_codec(data))().decode(data, final=final)
    except UnicodeDecodeError:
        raise RejectedFile(f"{display_name(filename)} is not UTF-8 text; "
                           "save it as UTF-8 and upload it again") from None
    if "\x00" in text:
        raise RejectedFile(f"{display_name(filename)} contains NUL bytes, so it is binary, not text; "
                           f"{ACCEPTED}")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def sniff_format(filename: str, head: bytes) -> str:
    """The format of an upload, checked against its first bytes; raises RejectedFile if they disagree."""
    name, suffix = display_name(filename), extension(filename)
    fmt = ALLOWED.get(suffix)
    if fmt is None:
        kind = f"files of type {suffix}" if suffix else "files without an extension"
        raise RejectedFile(f"{kind} are not accepted; {ACCEPTED}")
    if not head:
        raise RejectedFile(f"{name} is empty")
    if fmt == "pdf" and b"%PDF-" not in head[:1024]:  # readers allow a little junk before the header
        raise RejectedFile(f"{name} is not a PDF (its content does not start with %PDF-)")
    if fmt == "docx" and not head.startswith(b"PK\x03\x04"):
        raise RejectedFile(f"{name} is not a DOCX file (a DOCX is a zip archive, this is not); "
                           "if it is an old .doc file, save it as .docx in Word first")
    if fmt in TEXT_FORMATS:
        text = decode_text(head, filename, final=len(head) < HEAD_BYTES).lstrip()
        if fmt == "html" and not HTML_TAG.search(text):
            raise RejectedFile(f"{name} does not look like HTML (no <html>, <body> or similar tag near its start)")
        if fmt in ("json", "jsonl", "ipynb") and text[:1] not in ("{", "["):
            raise RejectedFile(f"{name} does not look like JSON (it should start with {{ or [)")
    return fmt


def check_upload(data: bytes, filename: str, limits: Limits = Limits()) -> str:
    """The cheap checks an upload passes before it is queued: size, format against content, a DOCX's zip."""
    if len(data) > limits.max_bytes:
        raise RejectedFile(f"{display_name(filename)} is {len(data) / 2**20:.1f} MB; files may be at most "
                           f"{limits.max_bytes / 2**20:.0f} MB, so split it and upload the parts")
    fmt = sniff_format(filename, data[:HEAD_BYTES])
    if fmt == "docx":
        check_zip(io.BytesIO(data), filename, limits)  # a zip bomb is refused here, before it is stored
    return fmt


def read_plain(text: str, fmt: str) -> Parsed:
    """TXT or Markdown: the text as is; the title from a first "Course Title: X" line or a "# " heading."""
    title = None
    if match := re.match(r"\s*Course Title:[ \t]*([^\n]*\S)", text, re.I):  # on the first line that is not blank
        title = match[1]
    elif fmt == "markdown" and (match := re.search(r"^# +(.+?)\s*#*\s*$", text, re.M)):
        title = match[1]
    return Parsed(text, fmt, title=title)


def _language(declared: str | None, text: str) -> str | None:
    """The file's declared language ("en-US" -> "en"), unless its letters are plainly another script."""
    declared = (declared or "").strip().lower().replace("_", "-").split("-")[0] or None
    declared = "he" if declared == "iw" else declared  # the old code for Hebrew
    detected = detect_language(text)
    if declared is None or (detected is not None and (detected == "he") != (declared == "he")):
        return detected  # templates often declare lang="en" on Hebrew pages; the letters do not lie
    return declared


def parse_file(path: Path, filename: str, limits: Limits = Limits()) -> Parsed:
    """Read one uploaded file into text and metadata, or raise RejectedFile.

    Args:
        path: where the file is stored (a name the server made).
        filename: the user's name for it, used only for its extension and in messages.
        limits: size, zip and PDF sandbox bounds.
    """
    name, size = display_name(filename), path.stat().st_size
    if size > limits.max_bytes:
        raise RejectedFile(f"{name} is {size / 2**20:.1f} MB; files may be at most {limits.max_bytes / 2**20:.0f} MB, "
                           "so split it and upload the parts")
    with path.open("rb") as file:
        fmt = sniff_format(filename, file.read(HEAD_BYTES))
    if fmt == "pdf":
        parsed = read_pdf(path, filename, limits)
    elif fmt == "docx":
        parsed = read_docx(path, filename, limits)
    elif fmt == "html":
        parsed = read_html(decode_text(path.read_bytes(), filename))
    elif fmt in ("json", "jsonl"):
        parsed = read_json(decode_text(path.read_bytes(), filename), fmt, filename)
    elif fmt == "ipynb":
        parsed = read_notebook(decode_text(path.read_bytes(), filename), filename)
    elif fmt in ("csv", "tsv"):
        parsed = read_table(decode_text(path.read_bytes(), filename), fmt, filename)
    else:
        parsed = read_plain(decode_text(path.read_bytes(), filename), fmt)
    if not parsed.text.strip():
        hint = " (its pages may be scanned images; run OCR on it first)" if fmt == "pdf" else ""
        raise RejectedFile(f"{name} contains no text{hint}")
    parsed.title = (parsed.title or "").strip()[:MAX_TITLE_CHARS] or None
    parsed.author = (parsed.author or "").strip()[:MAX_TITLE_CHARS] or None
    parsed.language = _language(parsed.language, parsed.text)
    log.info("parsed %s as %s: %d chars", name, fmt, len(parsed.text))
    return parsed
