"""The records of a parsed file: its text and units, the bounds on reading it, the refusal of a bad one,
and the user's file name made safe to show (display_name) and to read the format from (extension).

Parsing (parsers.py) and the readers (pdf_reader.py, docx_reader.py, html_reader.py, json_reader.py) share them,
so the readers import this module and parsers.py imports the readers, never the reverse.
"""
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from ingest.chunking import MAX_PASSAGE_CHARS

MAX_NAME_CHARS = 80  # a longer file name is shortened in messages and lists, keeping its extension
CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # control characters: never part of a shown or stored name


@dataclass
class Unit:
    """A structural unit the file itself defines (a Sefaria segment, a JSONL record)."""
    path: tuple[int, ...]  # 1-based position, e.g. (2, 3) = chapter/siman 2, segment/seif 3
    start: int  # offsets into Parsed.text
    end: int
    heading: str | None = None  # a record's own title, for JSONL/JSON record lists
    ref: str | None = None  # the unit's canonical reference, when the file gives it ("Shulchan Arukh, Orach Chayim 2:3")
    parent_ref: str | None = None
    labels: tuple[str, ...] = ()  # its place in the work in the text's own words: ("אורח חיים", "סימן ב׳", "סעיף ג")
    community: str | None = None  # whose ruling or custom it records, when the file says ("Ashkenazi": the Rema)
    era: str | None = None  # e.g. "Acharonim"


@dataclass
class Parsed:
    """One file's text and what the file says about itself."""
    text: str  # headings as Markdown "# " lines; paragraphs separated by a blank line
    format: str  # "pdf" | "docx" | "html" | "txt" | "markdown" | "json" | "jsonl"
    title: str | None = None
    author: str | None = None
    language: str | None = None  # "he", "en", ... declared by the file or detected from its letters
    units: list[Unit] | None = None
    section_names: list[str] | None = None  # Sefaria "sectionNames", e.g. ["Siman", "Seif"]
    warnings: list[str] = field(default_factory=list)  # shown to the user
    pages: int | None = None  # PDFs


class RejectedFile(ValueError):
    """The file is refused; the message says why in words a user can act on (it is sent as a 4xx)."""


@dataclass(frozen=True)
class Limits:
    """Bounds on what one upload may cost to read and index."""
    max_bytes: int = 50 * 2**20
    zip_max_entries: int = 2000
    zip_max_uncompressed: int = 200 * 2**20
    zip_max_ratio: float = 100.0
    pdf_timeout_s: float = 120.0
    parse_timeout_s: float = 180.0  # any file's reading, in a child process (ingest/apart.py); a PDF's is within it
    pdf_memory_bytes: int = 1 * 2**30
    max_passage_chars: int = MAX_PASSAGE_CHARS  # text without spaces is cut by characters to this length


def base_name(filename: str) -> str:
    """The user's file name without folders or control characters."""
    return CONTROL.sub("", re.split(r"[\\/]", filename)[-1])


def extension(filename: str) -> str:
    """The file name's extension, lower-cased: ".txt"; "" if it has none."""
    return PurePath(base_name(filename) or "file").suffix.casefold()


def display_name(filename: str) -> str:
    """The user's file name fit for a message: no folders, no control characters, not overly long.

    A long name is cut before its extension, so that still shows: "a-very-long-na….txt".
    """
    name = base_name(filename) or "the file"
    if len(name) <= MAX_NAME_CHARS:
        return name
    suffix = PurePath(name).suffix
    suffix = suffix if len(suffix) <= 10 else ""
    return name[:MAX_NAME_CHARS - 1 - len(suffix)] + "…" + suffix
