"""Calculation questions answered offline: find each figure in the passages, cite it, and show the arithmetic.

A question asks for the years between two events or dates, the difference between two figures, their sum or
their ratio (PATTERNS). Each operand is a figure the question gives itself ("1492") or one a passage states:
the sentence with a number that shares the most of the operand's words (at least half), whose number nearest
those words is taken; a year "BC" counts backwards. The answer cites each figure's sentence and ends with the
computation on a line of its own ("1776 − 1492 = 284 years."), which the citation check verifies
(checks/verify.py: the arithmetic holds and every figure in it was cited or asked). When a figure is in no passage,
the answer says which one is missing instead of guessing.
Does not: convert units, do more than one operation, or read figures written as words ("eleven").
"""
import re
from dataclasses import dataclass

import regex

from checks.arithmetic import numbers
from hebrew.words import content_words

PATTERNS = [  # (operation, pattern with groups a and b); first match wins
    ("years", r"how many years (?:passed |elapsed |went by |were there |are there |lie |lay )?between (?P<a>.+?) and (?P<b>.+?)\??$"),
    ("years", r"how (?:long|many years) (?:after|before) (?P<a>.+) (?:was|were|did|is|does) (?P<b>.+?)\??$"),
    ("years", r"כמה שנים (?:עברו |חלפו )?בין (?P<a>.+?) (?:ל|לבין )(?P<b>.+?)\??$"),
    ("difference", r"how many more (?:\w+ )?(?:did|does|do|has|had|have|is|was|are|were) (?P<a>.+?) (?:\w+ )?than (?P<b>.+?)\??$"),
    ("difference", r"how much (?:more|less|larger|bigger|higher|taller|longer|older|heavier|greater|smaller|lower|shorter|younger|deeper|farther|further) (?:is|was|are|were) (?P<a>.+?) than (?P<b>.+?)\??$"),
    ("difference", r"what is the difference between (?P<a>[^?]*\d[^?]*?) and (?P<b>[^?]*\d[^?]*?)\??$"),  # of figures
    ("ratio", r"how many times (?:\w+ )?(?:is|was|are|were) (?P<a>.+?) than (?P<b>.+?)\??$"),
    ("sum", r"what (?:is|are|was|were) the (?:total|sum|combined \w+) of (?P<a>.+?) and (?P<b>.+?)\??$"),
]
NEAR = 60  # characters: a figure stated for an event stands this close to the event's words ("fell ... in 1453")
YEAR = (100, 2100)  # a year in the common era is taken from 100 on (a day of the month is smaller); BC from 1
IRREGULAR = {"fall": "fell", "begin": "began", "win": "won", "build": "built", "write": "wrote", "sink": "sank",
             "rise": "rose", "lose": "lost", "fight": "fought", "becom": "became", "find": "found", "die": "died",
             "birth": "born", "death": "died"}  # by the first five letters of the word


@dataclass(frozen=True)
class Figure:
    """One operand: its words, its value, and the sentence (passage number, text) it comes from, if any."""

    words: str
    value: float | None
    source: tuple[int, str] | None = None  # None: given by the question itself


def plan(question: str) -> tuple[str, str, str] | None:
    """(operation, operand a, operand b) when the question asks for a calculation this module knows, else None."""
    text = " ".join(question.strip().split())
    for operation, pattern in PATTERNS:
        match = re.match(pattern, text, re.I)
        if match:
            return operation, match["a"].strip(" ,"), match["b"].strip(" ,")
    return None


def counted(question: str) -> str:
    """What a "how many more ..." question counts ("patents"), else ""."""
    match = re.match(r"how many more (\w+) (?:did|does|do|has|had|have|is|was|are|were)\b", question.strip(), re.I)
    return match[1] if match else ""


def stems(text: str) -> set[str]:
    """The content words of text, each cut to its first five letters, so that "founding" meets "founded"."""
    return {w[:5] for w in content_words(text)}


def figure(words: str, operation: str, sentences: list[tuple[int, int, str]], headings: dict[int, str],
           other: str = "", unit: str = "") -> Figure:
    """The operand's figure: from its own words, else from the sentence of the passages that best states it.

    The operand's words that its passage's heading holds name the subject ("Berlin Wall"), the others the event
    ("fall"): a sentence scores 3 for each event word it holds and 1 for each subject word it or its heading holds,
    and must hold an event word (or, with none, a subject word) and half of all the words with its heading. The
    other operand's words (other) keep a sentence that names both from giving its one number to both (owned). A
    "how many more patents" figure is the number next to "patents" in a sentence that has the word (unit).
    """
    own = numbers(words)
    if own:
        return Figure(words, own[0][0])
    wanted = stems(words) - {"year"}
    wanted |= {IRREGULAR[w][:5] for w in wanted if w in IRREGULAR}
    names = {w[:5].casefold() for w in regex.findall(r"\b\p{Lu}\p{L}+", words)}  # every name must be there
    theirs = stems(other) - stems(words)  # the other operand's own words ("Constantinople" against "Rome")
    found = []
    for n, _, sentence in sentences:
        values = [(v, at) for v, at in numbers(sentence)
                  if operation != "years" or (v < 0 and abs(v) <= YEAR[1]) or YEAR[0] <= v <= YEAR[1]]
        said, subject = wanted & stems(sentence), wanted & stems(headings.get(n, ""))
        event = said - subject
        score = 3 * len(event) + len(subject | (said & subject))
        enough = ((event or (said and not (wanted - subject))) and len(said | subject) * 2 >= len(wanted)
                  and names <= said | subject)
        counts = not unit or bool(stems(unit) & stems(sentence))  # "1,093 patents", not "in 1901"
        if values and enough and counts:
            found.append((score, n, sentence, values, said, event))
    for _, n, sentence, values, said, event in sorted(found, key=lambda f: -f[0]):
        value = owned(sentence, values, stems(unit) or event or said, said - stems(other), theirs)
        if value is not None:
            return Figure(words, value, (n, sentence))
    return Figure(words, None)


def owned(sentence: str, values: list[tuple[float, int]], anchors: set[str], own: set[str], theirs: set[str]) -> float | None:
    """The number of sentence that states this operand's figure: the nearest after its event's word ("fell to the
    Ottomans in 1453"), else the nearest; None when that number is nearer the other operand's own words than to
    this one's, each word at its first mention (one sentence naming both events gives each its own number, never one
    number to both)."""
    folded = sentence.casefold()
    where = lambda words: [m.start() for w in words if (m := re.search(rf"\b{re.escape(w)}", folded))]  # noqa: E731
    places = where(anchors) or [0]
    after = [v for v in values if v[1] > min(places)]
    value, at = min(after or values, key=lambda v: min(abs(v[1] - p) for p in places))
    if min(abs(at - p) for p in places) > NEAR:
        return None  # the sentence names the event but states no figure for it ("from 98 to 1590, ... the fall")
    mine, other = where(own) or places, where(theirs)
    if other and min(abs(at - p) for p in other) < min(abs(at - p) for p in mine):
        return None
    return value


def show(value: float, year: bool = False, exact: bool = True) -> str:
    """A figure as the arithmetic line shows it: whole numbers without a decimal point, thousands separated
    (but not in a year), a minus sign for a negative (a year BC); a figure of the passages with all its digits,
    a computed result (exact=False) to three significant digits or two decimals."""
    text = (f"{abs(value):.0f}" if year else f"{abs(value):,.0f}" if value == int(value)
            else f"{abs(value):,.15g}" if exact else f"{abs(value):,.2f}" if abs(value) >= 10 else f"{abs(value):.3g}")
    return f"−{text}" if value < 0 else text


def arithmetic(operation: str, a: float, b: float) -> str:
    """The computation as one line ending in its result, e.g. "1776 − 1492 = 284 years."."""
    if operation == "years":
        later, earlier = max(a, b), min(a, b)
        gap = later - earlier - (1 if earlier < 0 < later else 0)  # no year 0 between 1 BC and AD 1
        skip = " − 1" if earlier < 0 < later else ""
        earlier_shown = f"({show(earlier, True)})" if earlier < 0 else show(earlier, True)
        return f"{show(later, True)} − {earlier_shown}{skip} = {show(gap, exact=False)} years."
    if operation == "difference":
        return f"{show(max(a, b))} − {show(min(a, b))} = {show(abs(a - b), exact=False)}."
    if operation == "sum":
        return f"{show(a)} + {show(b)} = {show(a + b, exact=False)}."
    return f"{show(a)} ÷ {show(b)} = {show(a / b, exact=False)}." if b else ""


def calculate(question: str, sentences: list[tuple[int, int, str]],
              headings: dict[int, str] | None = None) -> tuple[list[Figure], str] | None:
    """(the figures, the arithmetic line, "" when a figure is missing) for a calculation question, else None.

    sentences: (passage number, position, sentence) each; headings: each passage number's heading.
    """
    asked = plan(question)
    if asked is None:
        return None
    operation, a, b = asked
    unit = counted(question)
    figures = [figure(a, operation, sentences, headings or {}, b, unit),
               figure(b, operation, sentences, headings or {}, a, unit)]
    if any(f.value is None for f in figures):
        return figures, ""
    return figures, arithmetic(operation, figures[0].value, figures[1].value)
