"""Structure-aware chunking of user documents: structural markers first, then paragraphs, then a sliding window.

A document becomes sections (from the parser's units, or from markers found at the start of lines:
סימן/סעיף/ס"ק, פרק/הלכה, Chapter/Section/§, Lesson, Markdown headings), each with a canonical ref
such as "Shulchan Arukh, Orach Chayim 2:3". A section is never merged with another, so a short seif
stays citable on its own; sizing.py cuts a long one at blank lines, and an over-long paragraph into
overlapping windows, and a piece is never longer than max_chars. Labels and refs are shortened to
_MAX_LABEL_CHARS, since each is repeated on every piece of its section. Every Piece is an exact slice of
the input. Does not: parse files (parsers.py does), split sentences linguistically (chunking.py does), or
guess structure from fonts or layout.
"""
import re
from dataclasses import dataclass
from typing import Sequence

from hebrew.numerals import hebrew_numeral
from ingest.chunking import MAX_PASSAGE_CHARS
from ingest.records import Unit
from ingest.sizing import Sizes, Tokens, section_spans, trim


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


def _number(token: str) -> int | None:
    """Digits, Roman numerals I..XL, or a Hebrew numeral as an int."""
    token = token.strip(".:)")
    if token.isdigit():
        return int(token)
    if re.fullmatch(r"(XL|X{0,3})(IX|IV|V?I{0,3})", token) and token:
        roman = {"I": 1, "V": 5, "X": 10}
        values = [roman[ch] for ch in token]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return hebrew_numeral(token)


# --- markers ----------------------------------------------------------------------------------

_HEBREW_LEVELS = {"סימן": 1, "פרק": 1, "סעיף": 2, "הלכה": 2, 'ס"ק': 3, "ס״ק": 3}
_ENGLISH_LEVELS = {"Chapter": 1, "Lesson": 1, "Section": 2, "§": 2}
_HEBREW = re.compile(r'[ \t]*(סימן|סעיף|הלכה|פרק|ס["״]ק)[ \t]+([\u05d0-\u05ea׳״\'"]+|\d+)(?=[\s.:),]|$)')
_ENGLISH = re.compile(r"[ \t]*(Chapter|CHAPTER|Section|SECTION|Lesson|LESSON|§)[ \t]*(\d+|[IVXL]+)[ \t]*(?:[.:)\u2013\u2014-][ \t]*(.*))?")
_MARKDOWN = re.compile(r"[ \t]*(#{1,6})[ \t]+(.+?)[ \t#]*")
_COURSE_TITLE = re.compile(r"[ \t]*Course Title:[ \t]*(.+?)[ \t]*", re.IGNORECASE)
_MAX_HEADING_CHARS = 120  # a longer line starting "Chapter 3." is prose, not a heading
_MAX_LABEL_CHARS = 300  # a longer Markdown "# " line is prose; a file's longer labels and refs are shortened


@dataclass
class _Heading:
    """A marker found at the start of a line."""

    family: str  # "hebrew", "english" or "markdown": decides the form of the ref
    level: int  # within a family: סימן/פרק, Chapter/Lesson and # are 1; סעיף/הלכה, Section and ## are 2; ...
    label: str  # "סעיף ג", "Lesson 2: Prayer", "Getting started"
    number: int | None = None
    whole_line: bool = True  # the line is only a heading; False for "סעיף א. text..." on one line


def course_title(text: str) -> str | None:
    """X from a first line "Course Title: X", else None."""
    first = re.match(r"\s*", text).end()  # the first line that is not blank, read in place
    end = text.find("\n", first)
    match = _COURSE_TITLE.fullmatch(text, first, len(text) if end == -1 else end)
    return _short(match.group(1)) if match else None


def section_number(label: str) -> int | None:
    """The number of a section's label: 2 for "Lesson 2: Brewing", "סימן ב" or "Siman 2"; None for a plain heading."""
    heading = _heading(label)
    if heading is not None and heading.number is not None:
        return heading.number
    match = _NAMED_NUMBER.fullmatch(label.strip())
    return int(match[1]) if match else None


_NAMED_NUMBER = re.compile(r"[A-Za-z]{2,20}[ \t]+(\d{1,6})")  # Sefaria's names: "Siman 2", "Seif 3", "Daf 4"


def _short(label: str) -> str:
    """A label or ref cut to _MAX_LABEL_CHARS."""
    return label if len(label) <= _MAX_LABEL_CHARS else label[:_MAX_LABEL_CHARS - 3] + "..."


def is_heading(line: str) -> bool:
    """Whether a line is only a structural marker or heading ("Lesson 2: Brewing", "# Baking", "סימן ב")."""
    heading = _heading(line)
    return heading is not None and heading.whole_line


def _heading(line: str) -> _Heading | None:
    """The marker a line starts with, if any."""
    if len(line) <= _MAX_LABEL_CHARS and (match := _MARKDOWN.fullmatch(line)):
        return _Heading("markdown", len(match.group(1)), match.group(2))
    if (match := _HEBREW.match(line)) and (number := _number(match.group(2))) is not None:
        label, rest = f"{match.group(1)} {match.group(2)}", line[match.end() :].strip(" \t.:),")
        return _Heading("hebrew", _HEBREW_LEVELS[match.group(1)], label, number, whole_line=not rest)
    if len(line) <= _MAX_HEADING_CHARS and (match := _ENGLISH.fullmatch(line)):
        kind, number, title = match.group(1).capitalize(), _number(match.group(2)), (match.group(3) or "").strip()
        if number is not None:
            return _Heading("english", _ENGLISH_LEVELS[kind], f"{kind} {number}" + (f": {title}" if title else ""), number)
    return None


def _stack_ref(work: str, stack: list[_Heading]) -> str | None:
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


def _nest(stack: list[_Heading], heading: _Heading) -> list[_Heading]:
    """The stack after heading: it closes its own family's headings at its level or deeper; other families nest."""
    for i, open_heading in enumerate(stack):
        if open_heading.family == heading.family and open_heading.level >= heading.level:
            return [*stack[:i], heading]
    return [*stack, heading]


def _marked_sections(text: str, work: str) -> list[_Section]:
    """Sections between markers at line starts; text before the first marker is a preamble."""
    sections = [_Section(0, len(text), [], work, None)]
    headings: list[_Heading | None] = [None]  # the heading opening each section; None for the preamble
    stack: list[_Heading] = []
    for start, line in _line_heads(text):
        if not (heading := _heading(line)):
            continue
        stack = _nest(stack, heading)
        sections[-1].end = start
        labels, ref, parent = [h.label for h in stack], _stack_ref(work, stack), _stack_ref(work, stack[:-1])
        sections.append(_Section(start, len(text), labels, ref, parent, len(stack)))
        headings.append(heading)
    for section, heading in zip(sections, headings):
        body = trim(text, section.start, section.end)
        if heading is None:  # an empty preamble, or one holding only the "Course Title:" line
            section.bare = body[0] == body[1] or bool(_COURSE_TITLE.fullmatch(text, *body))
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
        yield start, text[start:end] if end - start <= _MAX_LABEL_CHARS else text[start:start + _MAX_LABEL_CHARS] + "…"
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
            labels, ref, parent = [_short(label) for label in unit.labels], _short(unit.ref), unit.parent_ref
            parent = parent and _short(parent)
        elif heading:
            heading = _short(heading)
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
    work = _short(work or course_title(text) or "Untitled")
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
