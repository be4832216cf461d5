"""Read a Word (.docx) file: body paragraphs and tables in order, "Heading N" styles as Markdown headings.

A DOCX is a zip archive, so before python-docx unpacks anything the archive's own directory is checked:
how many entries, how big they claim to be unpacked, and how hard they are compressed. Python's zipfile
never inflates an entry past its declared size, so those claims bound the work. python-docx parses the XML
without resolving entities.
Does not: read headers, footers, footnotes, comments, text boxes or tracked changes, or old binary .doc files.
"""
import re
import zipfile
import zlib
from pathlib import Path

from ingest.records import Limits, Parsed, RejectedFile, display_name

MAIN_PART = "word/document.xml"
RATIO_CHECK_BYTES = 2**20  # small entries may legitimately compress very well; judge the ratio of larger ones
HEADING_STYLE = re.compile(r"Heading ([1-9])")


def check_zip(path: Path, filename: str, limits: Limits) -> None:
    """Refuse a damaged archive, a zip bomb, or a zip that is not a Word document, before unpacking anything."""
    name = display_name(filename)
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError):  # OSError: a central directory that points past the file's end
        raise RejectedFile(f"{name} is not a valid DOCX (its zip archive is damaged); re-save it in Word") from None
    if len(entries) > limits.zip_max_entries:
        raise RejectedFile(f"{name} holds {len(entries)} files inside; a DOCX may hold at most "
                           f"{limits.zip_max_entries}, so this does not look like a Word document")
    unpacked = sum(entry.file_size for entry in entries)
    packed = sum(entry.compress_size for entry in entries)
    if unpacked > limits.zip_max_uncompressed:
        raise RejectedFile(f"{name} would unpack to {unpacked / 2**20:.0f} MB, more than the "
                           f"{limits.zip_max_uncompressed / 2**20:.0f} MB allowed (a zip bomb?); split the document")
    big = [entry for entry in entries if entry.file_size > RATIO_CHECK_BYTES]
    ratio = max([unpacked / max(packed, 1)] + [entry.file_size / max(entry.compress_size, 1) for entry in big])
    if ratio > limits.zip_max_ratio:
        raise RejectedFile(f"{name} is compressed {ratio:.0f} to 1, more than the {limits.zip_max_ratio:.0f} to 1 "
                           "a real document reaches (a zip bomb?); re-save it in Word")
    if MAIN_PART not in {entry.filename for entry in entries}:
        raise RejectedFile(f"{name} is a zip archive but not a Word document (it has no {MAIN_PART})")


def _block_text(block) -> str:
    """One paragraph as a line (a Markdown heading if styled "Heading N"), or one table as a line per row."""
    from docx.table import Table

    if isinstance(block, Table):
        rows = []
        for row in block.rows:
            cells = [cell.text.strip() for cell in row.cells]
            # Merged cells repeat their text in each grid column; keep it once.
            cells = [c for i, c in enumerate(cells) if c and (i == 0 or c != cells[i - 1])]
            rows.append(" | ".join(cells))
        return "\n".join(row for row in rows if row)
    text = " ".join(block.text.split())
    style = block.style.name if block.style is not None else ""
    level = HEADING_STYLE.fullmatch(style)
    if text and level:
        return "#" * min(int(level[1]), 6) + " " + text
    if text and style == "Title":
        return "# " + text
    return text


def read_docx(path: Path, filename: str, limits: Limits) -> Parsed:
    """Check the archive, then read the document's text and core properties."""
    import docx
    from docx.opc.exceptions import OpcError
    from lxml.etree import XMLSyntaxError

    check_zip(path, filename, limits)
    try:
        document = docx.Document(str(path))
        blocks = [_block_text(block) for block in document.iter_inner_content()]
    except (OpcError, KeyError, ValueError, XMLSyntaxError, zipfile.BadZipFile, zlib.error, EOFError):
        raise RejectedFile(f"{display_name(filename)} could not be read as a Word document (it may be damaged); "
                           "re-save it in Word and upload it again") from None
    core = document.core_properties
    return Parsed("\n\n".join(block for block in blocks if block), "docx",
                  title=core.title, author=core.author, language=core.language)
