"""A question that names a section of a work ("lesson 2 of the tea course", "what does siman 318 say", "in that
course's lesson 3"), read without a model into the filters of its search.

The section is a lesson, siman, chapter or section number (digits, or a Hebrew numeral after סימן/פרק/שיעור). The
work is the one the question names, matched loosely against the catalog (search/catalog.py find_works); when it says
"that course" or "this book", or names none, it is the work the conversation's last turns named, the latest first.
Only works that have a section of that number count; when none has one, or the question names a work (or points
at one) that none of them is, the question is searched whole.
A section with no work found is searched in every work. A reader's own filters are never overridden.
Does not: search (the pipeline does) or know the catalog (the caller gives it).
"""
import re

from hebrew.numerals import hebrew_numeral
from search.catalog import FILLER, NAME_WORDS, find_works

SECTION = re.compile(r"\b(?:lesson|siman|chapter|section|unit)\s+(\d{1,5})\b", re.I)
HEBREW_SECTION = re.compile(r"(?:^|\s)(?:ב|ו|של\s+)?(?:סימן|פרק|שיעור)\s+([\u05d0-\u05ea\"'׳״]{1,6}|\d{1,5})(?=\s|[?.!,]|$)")
WORK_AFTER = re.compile(r"\b(?:of|in|from)\s+(?:the\s+)?(?P<work>[^?.!,]+?)(?:\s+(?:say|says|teach|teaches|about)\b|[?.!,]|$)",
                        re.I)
POINTING = re.compile(r"\b(?:that|this|the same)\s+(?:course|book|work|class)\b|(?:הקורס|הספר)\s+(?:ההוא|הזה)", re.I)


def name_words(work: dict) -> set[str]:
    """The words of a work's name and title that can name it in passing ("the kettles course")."""
    return {w for w in NAME_WORDS.findall(f"{work['work']} {work['title']}".casefold()) if w not in FILLER}


def section_asked(question: str) -> int | None:
    """The section number a question names, if any."""
    if match := SECTION.search(question):
        return int(match[1])
    if match := HEBREW_SECTION.search(question):
        value = match[1]
        return int(value) if value.isdigit() else hebrew_numeral(value)
    return None


def scope_of(question: str, turns: list[dict], works: list[dict]) -> dict | None:
    """The filters of the section a question names, with its work when one is found; None when it names none."""
    number = section_asked(question)
    if number is None:
        return None
    works = [w for w in works if any(s["number"] == number for s in w["sections"])]  # only works that have it
    if not works:
        return None  # no work has such a section: the question is searched whole
    named, pointing = [], bool(POINTING.search(question))
    if not pointing and (match := WORK_AFTER.search(SECTION.sub(" ", question))):
        named = find_works(works, match["work"])
        if not named:
            return None  # it names a work the library has no such section of: searched whole
    for turn in reversed(turns):  # "that course": the latest turn that names a work
        if named:
            break
        said = set(NAME_WORDS.findall(f"{turn.get('question') or ''} {turn.get('answer') or ''}".casefold()))
        named = [w for w in works if said & name_words(w)]
    if pointing and not named:
        return None  # "that course", and no turn named one
    scope = {"section": number}
    if named:
        scope["document_ids"] = [w["document_id"] for w in named]
    return scope
