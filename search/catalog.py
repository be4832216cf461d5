"""The catalog: what the library holds, work by work, with each work's sections or lessons and their passages.

A section is a passage's first numbered label ("Lesson 2: Brewing", "סימן נ״ה", "Chapter 4"), with the plain
heading that follows it ("דיני קדיש") and the labels above it (the part: "אורח חיים"), or, in a text with no
numbered labels, its first heading. A siman's or a chapter's Hebrew label (סימן, פרק) is written from its number
(the passage's canonical ref's first number, else the label's own) in Hebrew letters, ט״ו not י״ה, so a label
an exporter broke ("סימן undefined״א" for 501) cannot break the catalog or the section filters. A course
script's lessons take their links from the document's metadata (course.py). Both stores read the rows
(catalog_rows); `catalog` shapes them, so both backends give the same catalog.
Does not: read the database, or decide who sees what (the stores' visible_clause does).
"""
import re

from hebrew.numerals import numbered
from search.headings import section_number
from models import DocumentInfo

# An exporter's slip in the shared Shulchan Arukh ("סימן undefinedנ״ד" for simanim from 500): read without it
BROKEN_LABEL = re.compile(r"undefined(?=[\u05d0-\u05ea])")
NUMBERED_WORD = re.compile(r"(סימן|פרק)(?:\s|$)")  # Hebrew labels written from their numbers
REF_NUMBER = re.compile(r" (\d{1,6})(?::\d+)*(?:, [^,\d]+)?(?: \(part \d+\))?$")  # 670 of "... 670:3, Rema"


def section_of(path: list[str], ref: str | None = None) -> tuple[tuple[str, ...], str, int | None, str | None] | None:
    """(the labels above it, label, number, heading) of a passage's section; None when the path is empty.
    The labels above tell sections apart whose numbers restart per part (אורח חיים סימן א, יורה דעה סימן א);
    ref: the passage's canonical ref, whose first number a siman's or chapter's Hebrew label is written from."""
    path = [BROKEN_LABEL.sub("", label) for label in path]
    by_ref = (found := REF_NUMBER.search(ref or "")) and int(found[1])
    for i, label in enumerate(path):
        number = section_number(label)
        if word := NUMBERED_WORD.match(label.strip()):
            number = by_ref or number
            label = numbered(word[1], number) if number is not None else label
        if number is not None:
            after = path[i + 1] if i + 1 < len(path) else None
            heading = after if after is not None and section_number(after) is None else None
            return tuple(path[:i]), label, number, heading
    return ((), path[0], None, None) if path else None


def catalog(documents: list[DocumentInfo], rows) -> list[dict]:
    """One entry a document: its work and metadata, and its sections in document order; rows are
    (doc_id, section path, ref (optional)) of every passage of those documents, in document order."""
    sections: dict[str, dict[tuple, dict]] = {d.id: {} for d in documents}
    for doc_id, path, *ref in rows:
        found = section_of(path, *ref)
        if found is None or doc_id not in sections:
            continue
        within, label, number, heading = found
        entry = sections[doc_id].setdefault((within, label), {"title": label, "number": number, "heading": heading,
                                                              "within": list(within), "link": None, "passages": 0})
        entry["passages"] += 1
    works = []
    for doc in sorted(documents, key=lambda d: ((d.work or d.title).casefold(), d.id)):
        course = doc.metadata.get("course") or {}
        links = {lesson["number"]: lesson["link"] for lesson in course.get("lessons", ())}
        listed = list(sections[doc.id].values())
        for entry in listed:
            entry["link"] = links.get(entry["number"]) if not entry["within"] else None
        works.append({"document_id": doc.id, "work": doc.work or doc.title, "title": doc.title, "author": doc.author,
                      "language": doc.language, "tier": doc.tier, "community": doc.community,
                      "course": bool(course), "link": course.get("link"), "instructor": course.get("instructor"),
                      "passages": doc.chunk_count, "sections": listed})
    return works


def passage_link(document: DocumentInfo | None, path) -> str | None:
    """The link of the lesson a passage is in, when its document is a course script that gives one."""
    lessons = ((document.metadata.get("course") or {}).get("lessons") or ()) if document is not None else ()
    found = section_of(list(path)) if lessons else None
    if found is None or found[0]:
        return None
    return next((lesson["link"] for lesson in lessons if lesson["number"] == found[2]), None)


KIND_WORDS = {"course": "course", "lesson": "course", "lessons": "course", "class": "course"}
NAME_WORDS = re.compile(r"\w{2,}")
FILLER = frozenset({"the", "that", "this", "of", "on", "in", "a", "an", "by", "to", "and", "about", "book", "work"})


def find_works(works: list[dict], name: str) -> list[dict]:
    """The works a loose name ("the MCP course", "shulchan arukh", an author) names, best first: each word of the
    name counts when it is in the work's name, title, author or instructor, or names its kind ("course")."""
    wanted = [w for w in NAME_WORDS.findall(name.casefold()) if w not in FILLER]
    scored = []
    for work in works:
        if work["document_id"] == name.strip():
            return [work]
        text = " ".join(filter(None, (work["work"], work["title"], work["author"], work["instructor"],
                                      work["document_id"]))).casefold()
        found = [w for w in wanted if w in text or KIND_WORDS.get(w) == "course" and work.get("course")]
        named = [w for w in wanted if w not in KIND_WORDS and w in text]
        if wanted and named and len(found) / len(wanted) >= 0.5:
            scored.append((len(found) / len(wanted), work))
    best = max((score for score, _ in scored), default=0)
    return [work for score, work in scored if score == best]


class Languages:
    """The languages a library's texts are written in (the store's languages()), and those it may be asked in (its
    texts' and those of the questions kept beside its passages), read again only when it changed."""

    def __init__(self, store):
        self.store = store
        self.read: tuple[int | None, set[str], set[str]] = (None, set(), set())  # generation, texts', askable

    def _current(self) -> tuple[int | None, set[str], set[str]]:
        generation = self.store.generation()
        if self.read[0] != generation:
            texts = self.store.languages()
            self.read = (generation, texts, texts | self.store.asked_languages())
        return self.read

    def __call__(self) -> set[str]:
        return self._current()[1]

    def askable(self) -> set[str]:
        return self._current()[2]
