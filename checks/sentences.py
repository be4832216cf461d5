"""The sentences of passages as an extractive writer reads them: prose without headings, split into sentences,
each a candidate once; the names and numbers a question asks about; a sentence cited before its full stop.

Uploaded books keep headings and the line breaks of the page: a heading is not part of the sentence after it,
and a wrapped line is.
Which sentences can answer at all: one whose passage names at least half of what the question names (about), and,
for a question that asks for a number or a date, one that holds one (fits).
Does not: score sentences (writers/offline.py and judge.py do).
"""
import re
import unicodedata

import regex

from hebrew.words import STOP_WORDS, tokenize
from search import headings
from checks.splitting import whole_sentences, whole_spans
from models import Hit

HEADING_WORDS = 10  # a first line this short without closing punctuation is a heading ("Chapter 3: Varroa Mites")
CLOSING = re.compile(r"[.!?:;׃\"'”)\]]\s*$")

MAX_SENTENCE_CHARS = 2_000  # a "sentence" longer than this is a run of text without breaks, not an answer


def is_heading(line: str, first_of_several: bool) -> bool:
    """Whether a line of a passage is a heading rather than prose: a marker search/headings.py knows, or a short
    first line without closing punctuation (a PDF's "The Hive" above its text)."""
    if headings.is_heading(line):
        return True
    return first_of_several and len(line.split()) <= HEADING_WORDS and not CLOSING.search(line)


def prose(text: str) -> list[str]:
    """The paragraphs of a passage without their heading lines, each paragraph's lines joined.

    Uploaded books keep headings and the line breaks of the page; a heading is not part of the sentence
    after it, and a wrapped line is.
    """
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        lines = [line for i, line in enumerate(lines) if not is_heading(line, i == 0 and len(lines) > 1)]
        if lines:
            paragraphs.append(" ".join(lines))
    return paragraphs


def anchors(question: str) -> set[str]:
    """Names and numbers of the question: capitalised words after the first, and words with digits."""
    words = regex.findall(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*", question)
    named = {w for w in words[1:] if w[0].isupper()} | {w for w in words if any(c.isdigit() for c in w)}
    return {w.casefold() for w in named} - STOP_WORDS


def all_named(question: str, hits: list[Hit]) -> bool:
    """Whether the passages mention every name and number the question does (accents aside); when one is in no
    passage (Evidenz, 2030), the passages cannot answer."""
    mentioned = {plain(w) for hit in hits for w in tokenize(hit.chunk.passage_text)}
    return {plain(w) for w in anchors(question)} <= mentioned


ASKS_A_NUMBER = regex.compile(r"^\s*(?:how (?:many|much|tall|high|long|deep|far|fast|old|big|large|heavy|wide|often)|"
                              r"(?:in )?what year|when)\b", regex.I)
NUMBER_WORDS = regex.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|"
                             r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|"
                             r"half|twice|once|january|february|march|april|may|june|july|august|september|october|"
                             r"november|december|century|centuries|decade)\b", regex.I)


def fits(question: str, sentence: str) -> bool:
    """Whether the sentence can be an answer of the kind the question asks for: an English question that asks how
    many, how tall, when ... is answered by a sentence with a number or a date in it."""
    return not ASKS_A_NUMBER.search(question) or bool(NUMBER_WORDS.search(sentence))


def about(named: set[str], hit: Hit) -> bool:
    """Whether the passage (under its heading) mentions at least half of the names and numbers of the question
    (anchors, accents aside): a passage that names little of the question does not answer it. (Whether a sentence is
    about another waterfall, bridge or composer is agreement.py's to tell.)"""
    if not named:
        return True
    said = {plain(w) for w in tokenize(f"{hit.chunk.heading} {hit.chunk.passage_text}")}
    return 2 * len({plain(w) for w in named} & said) >= len(named)


def plain(word: str) -> str:
    """word without accents ("família" -> "familia")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def cite(sentence: str, n: int) -> str:
    """The sentence with [n] placed before its final punctuation."""
    body, punct = re.match(r"(.*?)([.!?;:]*)$", sentence.strip(), re.S).groups()
    return f"{body} [{n}]{punct or '.'}"


def forms(chunk) -> list[str]:
    """The texts a passage's sentences are embedded as: each candidate under the passage's heading (what the offline
    writer scores) and each sentence as the citation check reads it (search/sentence_vectors.py keeps them)."""
    scored = [scored_text(chunk.heading, s) for _, _, s in candidates([Hit(chunk, 0.0, 0.0, 0.0)])]
    return scored + [chunk.text[a:b] for a, b in checked_spans(chunk.text)]


def scored_text(heading: str, sentence: str) -> str:
    """A candidate sentence as the offline writer's cheap score embeds it: under its passage's heading, so "His
    discovery in 1928..." is known to be Fleming's."""
    return f"{heading}: {sentence}"


def checked_spans(text: str) -> list[tuple[int, int]]:
    """The sentences of a passage as the citation check reads them (checks/verify.py): their character ranges, or
    the whole passage when it has none."""
    return whole_spans(text) or [(0, len(text))]


def candidates(hits: list[Hit]) -> list[tuple[int, int, str]]:
    """(passage number, position, sentence) for every distinct sentence of the passages.

    A "sentence" longer than MAX_SENTENCE_CHARS is none: a passage stored before uploads were cut to size can
    hold up to models.MAX_PASSAGE_READ characters (what retrieval hands on) without a break.
    """
    seen, out = set(), []
    for n, hit in enumerate(hits, start=1):
        paragraphs = prose(hit.chunk.text)
        for pos, sentence in enumerate(s for paragraph in paragraphs for s in whole_sentences(paragraph)):
            if len(sentence) > MAX_SENTENCE_CHARS:
                continue
            key = " ".join(tokenize(sentence))
            if key and key not in seen:  # overlapping chunks repeat sentences
                seen.add(key)
                out.append((n, pos, sentence.strip()))
    return out
