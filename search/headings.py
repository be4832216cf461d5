"""The structural markers a line of a text starts with: סימן/סעיף/ס"ק, פרק/הלכה, Chapter/Section/§, Lesson and
Markdown headings, with their level and number.

A book is cut into sections at them when it is read (ingest/structure.py); at query time the catalog numbers its
sections by them (search/catalog.py) and the offline writer passes over heading lines (checks/sentences.py).
Does not: cut a text into sections or pieces (ingest/structure.py does).
"""
import re
from dataclasses import dataclass

from hebrew.numerals import hebrew_numeral


def marker_number(token: str) -> int | None:
    """Digits, Roman numerals I..XL, or a Hebrew numeral as an int."""
    token = token.strip(".:)")
    if token.isdigit():
        return int(token)
    if re.fullmatch(r"(XL|X{0,3})(IX|IV|V?I{0,3})", token) and token:
        roman = {"I": 1, "V": 5, "X": 10}
        values = [roman[ch] for ch in token]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return hebrew_numeral(token)


HEBREW_LEVELS = {"סימן": 1, "פרק": 1, "סעיף": 2, "הלכה": 2, 'ס"ק': 3, "ס״ק": 3}
ENGLISH_LEVELS = {"Chapter": 1, "Lesson": 1, "Section": 2, "§": 2}
HEBREW_MARKER = re.compile(r'[ \t]*(סימן|סעיף|הלכה|פרק|ס["״]ק)[ \t]+([\u05d0-\u05ea׳״\'"]+|\d+)(?=[\s.:),]|$)')
ENGLISH_MARKER = re.compile(r"[ \t]*(Chapter|CHAPTER|Section|SECTION|Lesson|LESSON|§)[ \t]*(\d+|[IVXL]+)[ \t]*(?:[.:)\u2013\u2014-][ \t]*(.*))?")
MARKDOWN_MARKER = re.compile(r"[ \t]*(#{1,6})[ \t]+(.+?)[ \t#]*")
COURSE_TITLE = re.compile(r"[ \t]*Course Title:[ \t]*(.+?)[ \t]*", re.IGNORECASE)
MAX_HEADING_CHARS = 120  # a longer line starting "Chapter 3." is prose, not a heading
MAX_LABEL_CHARS = 300  # a longer Markdown "# " line is prose; a file's longer labels and refs are shortened


@dataclass
class Heading:
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
    match = COURSE_TITLE.fullmatch(text, first, len(text) if end == -1 else end)
    return short_label(match.group(1)) if match else None


def section_number(label: str) -> int | None:
    """The number of a section's label: 2 for "Lesson 2: Brewing", "סימן ב" or "Siman 2"; None for a plain heading."""
    heading = heading_of(label)
    if heading is not None and heading.number is not None:
        return heading.number
    match = NAMED_NUMBER.fullmatch(label.strip())
    return int(match[1]) if match else None


NAMED_NUMBER = re.compile(r"[A-Za-z]{2,20}[ \t]+(\d{1,6})")  # Sefaria's names: "Siman 2", "Seif 3", "Daf 4"


def short_label(label: str) -> str:
    """A label or ref cut to MAX_LABEL_CHARS."""
    return label if len(label) <= MAX_LABEL_CHARS else label[:MAX_LABEL_CHARS - 3] + "..."


def is_heading(line: str) -> bool:
    """Whether a line is only a structural marker or heading ("Lesson 2: Brewing", "# Baking", "סימן ב")."""
    heading = heading_of(line)
    return heading is not None and heading.whole_line


def heading_of(line: str) -> Heading | None:
    """The marker a line starts with, if any."""
    if len(line) <= MAX_LABEL_CHARS and (match := MARKDOWN_MARKER.fullmatch(line)):
        return Heading("markdown", len(match.group(1)), match.group(2))
    if (match := HEBREW_MARKER.match(line)) and (number := marker_number(match.group(2))) is not None:
        label, rest = f"{match.group(1)} {match.group(2)}", line[match.end() :].strip(" \t.:),")
        return Heading("hebrew", HEBREW_LEVELS[match.group(1)], label, number, whole_line=not rest)
    if len(line) <= MAX_HEADING_CHARS and (match := ENGLISH_MARKER.fullmatch(line)):
        kind, number, title = match.group(1).capitalize(), marker_number(match.group(2)), (match.group(3) or "").strip()
        if number is not None:
            return Heading("english", ENGLISH_LEVELS[kind], f"{kind} {number}" + (f": {title}" if title else ""), number)
    return None
