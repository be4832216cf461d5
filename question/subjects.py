"""A question that names two subjects, split into one search per subject, without a model.

"Compare the laws of X and Y", "What is the difference between X and Y?", "What do the Shulchan Arukh and the Rema
say about Z?" and their Hebrew forms (מה ההבדל בין X ל-Y, מה אומרים A ו-B על Z) each give two Subjects: a label (X,
Y) and what to search for it ("the laws of X"; for "A say about Z", Z within the work A names when the library
has one, else "A Z"). Any other question gives none, and is searched whole.
search_each runs the searches with the search it is given, resolving a subject's work through the catalog it is
given (search/catalog.py). Does not: search by itself.
"""
import re
from dataclasses import dataclass

from models import Hit
from search.catalog import find_works

SUBJECT_MIN = 3  # passages searched for each subject of a two-subject question
END = r"\s*[?.!؟]*\s*$"
_A_B = r"(?P<a>.+?)\s+(?:and|with|to|vs\.?|versus)\s+(?P<b>.+?)"
COMPARE = re.compile(r"^(?:please\s+)?(?:compare|contrast)\s+(?P<head>(?:the\s+)?\w+(?:\s+\w+)?\s+(?:of|in|for)\s+)?"
                     + _A_B + END, re.I)
DIFFERENCE = re.compile(r"^(?:what|how)\s*(?:'s|is|are|do|does)?\s+(?:the\s+)?(?:main\s+)?"
                        r"(?:differences?|different)\s+(?:between|in)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)" + END, re.I)
SAY_ABOUT = re.compile(r"^(?:what|how)\s+do(?:es)?\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?:say|rule|hold|teach|write|think)"
                       r"\s+(?:about|on|regarding|concerning|of)\s+(?P<z>.+?)" + END, re.I)
HE_DIFFERENCE = re.compile(r"^(?:מה|מהו|מהם)\s+(?:ה)?(?:הבדל|הבדלים|ההבדל|ההבדלים)\s+(?:בין\s+)(?P<a>.+?)\s+"
                           r"(?:לבין\s+|ל[-־]?)(?P<b>\S.*?)" + END)
HE_SAY_ABOUT = re.compile(r"^מה\s+(?:אומרים|פוסקים|כותבים|סוברים)\s+(?P<a>.+?)\s+ו[-־]?(?P<b>\S.+?)\s+"
                          r"(?:על|לגבי|בעניין|בענין|בדין|בדיני)\s+(?P<z>.+?)" + END)
MAX_SUBJECT_CHARS = 200


@dataclass(frozen=True)
class Subject:
    """One subject of a question: its name, what to search, and the work it names when the search is within one."""

    label: str
    query: str
    about: str | None = None  # "A say about Z": Z, searched within A's work when the library has it
    hebrew: bool = False

    @property
    def question(self) -> str:
        """The subject as a question of its own, for choosing the sentences that answer it."""
        if self.about:
            return (f"מה אומר {self.label} על {self.about}?" if self.hebrew
                    else f"What does {self.label} say about {self.about}?")
        return f"מה {self.query}?" if self.hebrew else f"What is {self.query}?"


def subjects(question: str) -> list[Subject]:
    """The two subjects a comparative question names, or [] for any other question."""
    text = " ".join(question.split())
    for pattern, hebrew in ((SAY_ABOUT, False), (HE_SAY_ABOUT, True)):
        if match := pattern.match(text):
            a, b, z = clean(match["a"]), clean(match["b"]), clean(match["z"])
            return pair(Subject(a, f"{a} {z}", z, hebrew), Subject(b, f"{b} {z}", z, hebrew))
    if match := COMPARE.match(text):
        head = re.sub(r"^the\s+", "", match["head"] or "", flags=re.I)
        a, b = clean(match["a"]), clean(match["b"])
        return pair(Subject(a, f"{head}{a}".strip()), Subject(b, f"{head}{b}".strip()))
    for pattern, hebrew in ((DIFFERENCE, False), (HE_DIFFERENCE, True)):
        if match := pattern.match(text):
            a, b = clean(match["a"]), clean(match["b"])
            return pair(Subject(a, a, hebrew=hebrew), Subject(b, b, hebrew=hebrew))
    return []


def clean(name: str) -> str:
    """A subject's name without the punctuation around it."""
    return name.strip(" ,;:\"'“”()")


def pair(a: Subject, b: Subject) -> list[Subject]:
    """Both subjects, or [] when either is empty, over-long, or they are the same."""
    if not (a.label and b.label) or a.label.casefold() == b.label.casefold():
        return []
    if max(len(a.query), len(b.query)) > MAX_SUBJECT_CHARS:
        return []
    return [a, b]


def apart(parts: list[tuple[str, str, list[int]]]) -> tuple:
    """Each subject's (label, question, passage numbers), a passage both searches found kept only with the one that
    ranked it higher (the first on a tie), so each subject is answered from its own evidence."""
    rank = [{n: i for i, n in enumerate(numbers)} for *_, numbers in parts]
    kept = []
    for p, (label, question, numbers) in enumerate(parts):
        mine = [n for n in numbers if all(rank[p][n] < other.get(n, len(numbers) + 1) or (
            rank[p][n] == other.get(n) and p < q) for q, other in enumerate(rank) if q != p)]
        kept.append((label, question, tuple(mine)))
    return tuple(kept)


def search_each(split: list, search, top_k: int, works) -> tuple[list[Hit], list[tuple]]:
    """A search for each subject of a question (question/subjects.py), within the work it names when the catalog
    (works()) has one; the hits of all, each passage once, and (query, filters, chunk ids, subject) of each."""
    hits, found, seen = [], [], set()
    for subject in split:
        query, more = subject.query, None
        if subject.about:
            named = find_works(works(), subject.label)
            if named:
                query, more = subject.about, {"document_ids": [w["document_id"] for w in named]}
        mine = search(query, max(SUBJECT_MIN, top_k // 2 + 1), more)
        shown = {"work": named[0]["work"]} if more else {}
        found.append((query, shown, [h.chunk.id for h in mine], subject))
        hits += [h for h in mine if h.chunk.id not in seen]
        seen |= {h.chunk.id for h in mine}
    return hits, found
