"""Searching within sections: the `section` and `part` filters of a query, read and matched against passages.

`section` names sections by number, as the catalog numbers them (search/catalog.py): a siman, a chapter, a
lesson. It is a number (318), a range ("253-254"), or a list of them ([253, "318-320"]). `part` names the part the
sections sit in, as the catalog's `within` gives it ("אורח חיים"), for works whose numbers restart in each part.
A passage matches when its section's number is in one of the ranges and, when a part is given, the part is one
of the labels above its section. A passage with no numbered section matches no section filter.
Does not: narrow documents (the stores' matching_documents does) or search (the views take the chunk keys).
"""
import re

from search.catalog import section_of

MAX_RANGES = 20
MAX_NUMBER = 1_000_000
RANGE = re.compile(r"\s*(\d{1,7})\s*(?:[-–]\s*(\d{1,7})\s*)?")
SECTION_FILTERS = ("section", "part")
EXAMPLE = '318, "253-254" or [253, "318-320"]'


class SectionFilterError(ValueError):
    """A `section` filter that names no sections; its message says what to send."""


def read_sections(value) -> tuple[tuple[int, int], ...]:
    """The ranges (first, last) a `section` filter names; SectionFilterError with a message a client can act on."""
    items = value if isinstance(value, list) else [value]
    if not items or len(items) > MAX_RANGES:
        raise SectionFilterError(f'"filters.section" must be a section number, a range or a list of 1 to {MAX_RANGES} of '
                         f"them, such as {EXAMPLE}.")
    ranges = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            first = last = item
        elif isinstance(item, str) and (match := RANGE.fullmatch(item)):
            first, last = int(match[1]), int(match[2] or match[1])
        else:
            raise SectionFilterError(f'"filters.section" takes section numbers and ranges such as {EXAMPLE}, not {item!r:.40}.')
        if not 0 <= first <= last <= MAX_NUMBER:
            raise SectionFilterError(f'"filters.section": a range runs from a smaller number to a larger one, at most '
                             f"{MAX_NUMBER:,}; {item!r:.40} does not.")
        ranges.append((first, last))
    return tuple(ranges)


def wanted(filters: dict) -> bool:
    """Whether filters narrow the search to sections."""
    return any(filters.get(name) is not None for name in SECTION_FILTERS)


def matches(path: list[str], ranges: tuple[tuple[int, int], ...] | None, part: str | None,
            ref: str | None = None) -> bool:
    """Whether a passage with this section path (and canonical ref) lies in one of the ranges (None: any section)
    and in part."""
    found = section_of(path, ref)
    if found is None:
        return False
    within, _, number, _ = found
    if part is not None and part.strip().casefold() not in {label.casefold() for label in within}:
        return False
    return ranges is None or (number is not None and any(first <= number <= last for first, last in ranges))


def section_keys(rows, filters: dict) -> list[int]:
    """The keys of the passages filters' sections hold, of rows (key, section path, ref (optional))."""
    ranges = read_sections(filters["section"]) if filters.get("section") is not None else None
    part = filters.get("part")
    return [key for key, path, *ref in rows if matches(path, ranges, part, *ref)]
