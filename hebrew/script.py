"""Script-level text checks: which language a text is in, and undoing Hebrew that a PDF gave back reversed.

Some Hebrew PDFs extract "backwards": PDFium reorders right-to-left runs as if the glyphs were stored in
visual order, so when the file actually stores them in reading order every run comes out reversed. We
saw two shapes (tests/ingest/test_parsers.py builds both as real PDFs):
  - whole lines reversed: letters within words AND the order of the words ("רחשה ררועמ אוה");
  - words reversed in place: each word's letters reversed, words in the right order ("רבגתי יראכ").
Detection: final letters (ך ם ן ף ץ) belong at the end of a word and their plain forms (כ מ נ פ צ) do not,
so finals at the start and plain forms at the end of words are evidence of reversal. Which shape it is
comes from sentence punctuation: a line that opens with "." or ":" is a reversed line; when no line
says so, each word is fixed in place.
Does not: detect languages beyond "he" vs "en" (Latin script is taken as English), or repair PDFs whose
reversal mixes both shapes on one page.
"""
import re

from hebrew.normal import FINAL_LETTERS, PLAIN_LETTERS

HEBREW_LETTER = re.compile(r"[\u05D0-\u05EA]")
LATIN_LETTER = re.compile(r"[A-Za-z\u00C0-\u024F]")
HEBREW_WORD = re.compile(r"[\u05D0-\u05EA\u0591-\u05C7\u05F3\u05F4]+")  # letters, niqqud, geresh, gershayim
# A reversed line keeps its numbers and Latin phrases readable (PDFium orders them left to right), so they
# move as one piece; every other character is reversed on its own and brackets are mirrored.
PIECE = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:[ '\-][A-Za-z\u00C0-\u024F]+)*|\d+(?:[.,:/\-]\d+)*|.", re.S)
MIRROR = str.maketrans("()[]{}<>", ")(][}{><")
LEADING_PUNCT = re.compile(r"^\s*[.:,;!?]+[\u05D0-\u05EA]", re.M)  # ".רחשה" opening a line
TRAILING_PUNCT = re.compile(r"\s[.:,;!?]+[\u05D0-\u05EA\u0591-\u05C7]+\s*$", re.M)  # "... .וארוב" closing it
SAMPLE_CHARS = 20_000  # language is decided on up to 10 slices of this size, spread over the text


def detect_language(text: str) -> str | None:
    """'he' if most letters are Hebrew, 'en' if most are Latin, else None (no letters, or another script)."""
    step = max(len(text) // 10, SAMPLE_CHARS)
    sample = "".join(text[i:i + SAMPLE_CHARS] for i in range(0, len(text), step))
    hebrew = len(HEBREW_LETTER.findall(sample))
    latin = len(LATIN_LETTER.findall(sample))
    other = sum(ch.isalpha() for ch in sample) - hebrew - latin
    if hebrew > max(latin, other):
        return "he"
    if latin > max(hebrew, other):
        return "en"
    return None


def _reversal_evidence(text: str) -> tuple[int, int]:
    """(words that look reversed, words that look right), judged by where final and plain letter forms sit."""
    reversed_, upright = 0, 0
    for word in HEBREW_WORD.findall(text):
        letters = HEBREW_LETTER.findall(word)
        if len(letters) < 2:  # a lone letter is a number or an abbreviation, not evidence
            continue
        first, last = letters[0], letters[-1]
        reversed_ += (first in FINAL_LETTERS) + (last in PLAIN_LETTERS)
        upright += (last in FINAL_LETTERS) + (first in PLAIN_LETTERS)
    return reversed_, upright


def looks_reversed(text: str) -> bool:
    """Whether the Hebrew in text reads backwards: reversal evidence clearly outweighs the normal kind."""
    reversed_, upright = _reversal_evidence(text)
    return reversed_ >= 2 and reversed_ >= 4 * upright


def _reverse(run: str) -> str:
    """Reverse a run of text piece by piece (see PIECE), mirroring brackets."""
    return "".join(reversed(PIECE.findall(run))).translate(MIRROR)


def _fix_line(line: str) -> str:
    """Reverse a whole line if it is mostly Hebrew; Latin-led lines keep their order."""
    if len(HEBREW_LETTER.findall(line)) <= len(LATIN_LETTER.findall(line)):
        return _fix_words(line)
    body = line.strip()
    if not body:
        return line
    start = line.index(body)
    return line[:start] + _reverse(body) + line[start + len(body):]


def _fix_words(text: str) -> str:
    """Reverse each whitespace-delimited token that holds a Hebrew letter, in place."""
    return re.sub(r"\S+", lambda m: _reverse(m[0]) if HEBREW_LETTER.search(m[0]) else m[0], text)


def fix_reversed_hebrew(text: str) -> tuple[str, bool]:
    """Undo reversed Hebrew if text shows it; returns (text, whether it was changed).

    The result has the same length as the input. Niqqud comes back to its letter because the fix is the exact
    inverse of the character reversal PDFium does. Lines or words without Hebrew letters are left alone.
    """
    if not looks_reversed(text):
        return text, False
    whole_lines = len(LEADING_PUNCT.findall(text)) > len(TRAILING_PUNCT.findall(text))
    if whole_lines:
        return "".join(_fix_line(line) for line in text.splitlines(keepends=True)), True
    return _fix_words(text), True
