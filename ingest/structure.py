"""Structure-aware chunking of user documents: structural markers first, then paragraphs, then a sliding window.

A document becomes sections (from the parser's units, or from markers found at the start of lines:
סימן/סעיף/ס"ק, פרק/הלכה, Chapter/Section/§, Lesson, Markdown headings), each with a canonical ref
such as "Shulchan Arukh, Orach Chayim 2:3". A section is never merged with another, so a short seif
stays citable on its own; sizing.py cuts a long one at blank lines, and an over-long paragraph into
overlapping windows, and a piece is never longer than max_chars. Labels and refs are shortened to
MAX_LABEL_CHARS (search/headings.py reads the markers), since each is repeated on every piece of its section. Every Piece is an exact slice of
the input. Does not: parse files (parsers.py does), split sentences linguistically (chunking.py does), or
guess structure from fonts or layout.
"""
from dataclasses import dataclass
from typing import Sequence

from ingest.chunking import MAX_PASSAGE_CHARS
from ingest.records import Unit
from ingest.sizing import Sizes, Tokens, section_spans, trim
from search.headings import COURSE_TITLE, MAX_LABEL_CHARS, Heading, course_title, heading_of, short_label


@dataclass
class Piece:
    """One passage to index: an exact slice text == document[start:end] and where it sits in the work."""

    text: str
    start: int
    end: int
    section_path: list[str]  # human labels, outermost first: ["סימן ב", "סעיף ג"]
    ref: str  # canonical reference: "Shulchan Arukh, Orach Chayim 2:3"
    parent_ref: str | None  # ref of the enclosing section; None at top level
    community: str | None = None  # what the file says of its unit (json_reader.py); None: the document's
    era: str | None = None


@dataclass
class _Section:
    """A span of the document that pieces never cross, with its place in the work."""

    start: int
    end: int
    path: list[str]
    ref: str
    parent_ref: str | None
    depth: int = 0  # 0 for a preamble; nesting level otherwise
    bare: bool = False  # only a heading line, no text of its own
    community: str | None = None  # from the parser's unit
    era: str | None = None


def _stack_ref(work: str, stack: list[Heading]) -> str | None:
    """The ref of the innermost heading of a stack; None for an empty stack."""
    if not stack:
        return None
    inner = stack[-1]
    if inner.family == "markdown":
        return f"{work} § {inner.label}"
    # Markdown headings above numbered markers name parts ("# Orach Chayim" above סימן א),
    # so they join the stem and the numbers restart per part without refs colliding.
    stem = ", ".join([work, *(h.label for h in stack if h.family == "markdown")])
    own = [h for h in stack if h.family == inner.family]
    if inner.family == "hebrew":  # numbers only: "work 2:3"
        return f"{stem} " + ":".join(str(h.number) for h in own)
    return f"{stem}, " + ", ".join(h.label.split(":")[0] for h in own)  # "work, Chapter 3, Section 2"


def _nest(stack: list[Heading], heading: Heading) -> list[Heading]:
    """The stack after heading: it closes its own family's headings at its level or deeper; other families nest."""
    for i, open_heading in enumerate(stack):
        if open_heading.family == heading.family and open_heading.level >= heading.level:
            return [*stack[:i], heading]
    return [*stack, heading]


def _marked_sections(text: str, work: str) -> list[_Section]:
    """Sections between markers at line starts; text before the first marker is a preamble."""
    sections = [_Section(0, len(text), [], work, None)]
    headings: list[Heading | None] = [None]  # the heading opening each section; None for the preamble
    stack: list[Heading] = []
    for start, line in _line_heads(text):
        if not (heading := heading_of(line)):
            continue
        stack = _nest(stack, heading)
        sections[-1].end = start
        labels, ref, parent = [h.label for h in stack], _stack_ref(work, stack), _stack_ref(work, stack[:-1])
        sections.append(_Section(start, len(text), labels, ref, parent, len(stack)))
        headings.append(heading)
    for section, heading in zip(sections, headings):
        body = trim(text, section.start, section.end)
        if heading is None:  # an empty preamble, or one holding only the "Course Title:" line
            section.bare = body[0] == body[1] or bool(COURSE_TITLE.fullmatch(text, *body))
        else:
            section.bare = heading.whole_line and text.find("\n", *body) == -1
    return _absorb_bare(sections)


def _line_heads(text: str):
    """(offset, line) for every line; a line longer than a heading can be is cut short and ends in "…",
    so markers are still found at its start without copying it whole."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end == -1 else end
        yield start, text[start:end] if end - start <= MAX_LABEL_CHARS else text[start:start + MAX_LABEL_CHARS] + "…"
        start = end + 1


def _absorb_bare(sections: list[_Section]) -> list[_Section]:
    """Fold a heading-only section into its first child ("סימן א" above "סעיף א"), so no piece is a bare title."""
    kept: list[_Section] = []
    pending: int | None = None
    for section, following in zip(sections, [*sections[1:], None]):
        if section.bare and following is not None and following.depth > section.depth:
            pending = section.start if pending is None else pending
            continue
        if pending is not None:
            section.start, pending = pending, None
        kept.append(section)
    return kept


def _unit_sections(text: str, work: str, units: Sequence[Unit], names: list[str] | None) -> list[_Section]:
    """One section per parser unit; stray text between units becomes a section of the work itself."""
    sections, covered, names = [], 0, names or []
    for unit in sorted(units, key=lambda u: u.start):
        if text[covered : unit.start].strip():
            sections.append(_Section(covered, unit.start, [], work, None))
        heading, path = unit.heading, [int(n) for n in unit.path]
        if unit.ref:  # the file names its own units: keep its references
            labels, ref, parent = [short_label(label) for label in unit.labels], short_label(unit.ref), unit.parent_ref
            parent = parent and short_label(parent)
        elif heading:
            heading = short_label(heading)
            labels, ref, parent = [heading], f"{work} § {heading}", None
        else:
            labels = [f"{names[i]} {n}" if i < len(names) else str(n) for i, n in enumerate(path)]
            ref = f"{work} " + ":".join(map(str, path))
            parent = f"{work} " + ":".join(map(str, path[:-1])) if len(path) > 1 else None
        sections.append(_Section(unit.start, unit.end, labels, ref, parent, len(path), community=unit.community,
                                 era=unit.era))
        covered = max(covered, unit.end)
    if text[covered:].strip():
        sections.append(_Section(covered, len(text), [], work, None))
    return sections


def split(text: str, work: str | None, units: Sequence[Unit] | None = None, section_names: list[str] | None = None,
          *, target: tuple[int, int] = (300, 600), max_tokens: int = 800, min_tokens: int = 50, overlap: int = 50,
          max_chars: int = MAX_PASSAGE_CHARS) -> list[Piece]:
    """Cut a document into citable pieces: structural markers first, then paragraphs, then a sliding window.

    Args:
        text: the parsed document text.
        work: the work's title, the stem of every ref; if empty, a "Course Title:" line, else "Untitled".
        units: the parser's sections (Sefaria JSON, JSONL records); markers are looked for only without them.
        section_names: Sefaria names for the levels of a unit's path, e.g. ["Siman", "Seif"].
        target, max_tokens, min_tokens, overlap: piece sizes in tokens (see Sizes).
        max_chars: no piece is longer; longer text (without spaces, say) is cut by characters.
    Returns:
        Pieces in document order; each text == text[start:end], together covering all non-space text.
    """
    sizes = Sizes(target, max_tokens, min_tokens, overlap, max_chars)
    work = short_label(work or course_title(text) or "Untitled")
    sections = _unit_sections(text, work, units, section_names) if units else _marked_sections(text, work)
    tokens, pieces = Tokens(text), []
    for section in sections:
        spans = section_spans(text, tokens, *trim(text, section.start, section.end), sizes)
        for n, (start, end) in enumerate(spans, 1):
            # pieces outside any section are told apart by a part number; a section's pieces all cite the section
            ref = f"{section.ref} (part {n})" if not section.path and len(spans) > 1 else section.ref
            pieces.append(Piece(text[start:end], start, end, list(section.path), ref, section.parent_ref,
                                section.community, section.era))
    return pieces
