"""Questions in the user's words, searched in the text's: English and everyday Hebrew mapped to rabbinic Hebrew.

A layperson asks about a "פלטה" or a "hot plate"; the Shulchan Arukh says כירה. data/glossary.tsv, which the
project keeps, maps a word or phrase of up to MAX_PHRASE words (English, or modern Hebrew) to the words the
texts use: slots separated by spaces, each slot's alternatives by "/" ("ברכת המזון", "כירה/תנור").
query_words() is analyzer.analyze_query plus one search word per slot of every glossary entry the question
contains, its alternatives scored by the best one a passage has (search/bm25.py's scores_any), so an English
question finds words in a Hebrew library at all; with_text_words() gives dense search the question with
those of the words that the library contains. Matching is forgiving where users are: English words also
match without -s, -es, -ed or -ing; Hebrew words also without one or two prefix letters (בפלטה → פלטה).
Only questions are expanded; the index is not, so editing the glossary needs no rebuild.
data/glossary-learned.tsv, when present, is the same format learned from our lay questions (`flask --app app
learn-glossary`, training/learn_glossary.py); its words are added to BM25's query words only, after the
hand-written ones (dense search reads the hand-written lines alone).
Does not: translate whole sentences, or choose between senses of a word (all alternatives count). English
questions over English texts gain nothing: such a library has none of the Hebrew words.
"""
import csv
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from hebrew.analyzer import HEBREW, TOKEN, analyze_query, folded, strip_prefixes, word_forms
from hebrew.normal import TO_PLAIN

GLOSSARY = Path(__file__).resolve().parents[1] / "data" / "glossary.tsv"
LEARNED = GLOSSARY.with_name("glossary-learned.tsv")
MAX_PHRASE = 3  # words in the longest key


def _tokens(text: str) -> list[str]:
    """The words of text, normalised as the analyzer does (case, points, quotes; final letters unified)."""
    return [m[0].translate(TO_PLAIN).replace("'", "").replace('"', "") for m in TOKEN.finditer(folded(text))]


class Slot(NamedTuple):
    """One word the texts use: how the glossary spells its first alternative, and the search terms of them all."""

    word: str
    terms: tuple[str, ...]


@lru_cache(maxsize=4)
def load(path: Path = GLOSSARY) -> dict[tuple[str, ...], tuple[Slot, ...]]:
    """Key words -> the slots of their entry, each with its alternatives' terms (and their prefix-less forms)."""
    table = {}
    with open(path, encoding="utf-8") as rows:
        for row in csv.reader(rows, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row or row[0].startswith("#") or len(row) < 2:
                continue
            key = tuple(_tokens(row[0]))
            slots = tuple(Slot(slot.split("/")[0], tuple(dict.fromkeys(
                form for alternative in slot.split("/") for word in _tokens(alternative) for form in word_forms(word)[0])))
                for slot in row[1].split())
            if key and len(key) <= MAX_PHRASE and all(slot.terms for slot in slots):
                table[key] = slots
    return table


@lru_cache(maxsize=4)
def learned(path: Path) -> dict[tuple[str, ...], tuple[Slot, ...]]:
    """The learned table at path, looked for once per process (a server restarts to read a new one); {} without."""
    return load(path) if path.exists() else {}


def forms(token: str) -> list[str]:
    """The ways a question's word may be written in the glossary: itself, then without an ending or prefix."""
    if HEBREW.search(token):
        return [token, *strip_prefixes(token)]
    found = [token]
    for ending, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e")):
        stem = token[: -len(ending)] + replacement if token.endswith(ending) and len(token) > len(ending) + 2 else ""
        if stem:
            found.append(stem)
            if replacement == "" and ending in ("ing", "ed") and len(stem) > 3 and stem[-1] == stem[-2]:
                found.append(stem[:-1])  # cutting -> cut, stopped -> stop
    return found


def matches(text: str, table: dict | None = None) -> list[tuple[str, ...]]:
    """The glossary keys text contains, longest first at each word, each word used once."""
    table = load() if table is None else table
    tokens = _tokens(text)
    found, at = [], 0
    while at < len(tokens):
        for size in range(min(MAX_PHRASE, len(tokens) - at), 0, -1):
            head, rest = tokens[at], tuple(tokens[at + 1: at + size])
            key = next((k for form in forms(head) if (k := (form, *rest)) in table), None)
            if key:
                found.append(key)
                at += size
                break
        else:
            at += 1
    return found


def slots(query: str, table: dict | None = None) -> list[Slot]:
    """The words the texts use for the glossary entries the question contains, in order."""
    table = load() if table is None else table
    return [slot for key in matches(query, table) for slot in table[key]]


def query_words(query: str, table: dict | None = None) -> list[list[str]]:
    """The query's search words (analyzer.analyze_query), then one word per slot of each glossary entry it contains,
    then (with the default table) of each learned entry."""
    extra = slots(query, learned(LEARNED)) if table is None else []
    return analyze_query(query) + [list(slot.terms) for slot in [*slots(query, table), *extra]]


def with_text_words(query: str, vocabulary, table: dict | None = None) -> str:
    """The question followed by the glossary's words for it that the texts searched contain (for dense search):
    an English question over a Hebrew library gains its Hebrew words, one over an English library nothing."""
    found_slots = slots(query, table)
    terms = {term for slot in found_slots for term in slot.terms}
    # a library in a database answers for all the terms at once (postgres/vocabulary.Vocabulary.known)
    known = vocabulary.known(terms) if hasattr(vocabulary, "known") else {t for t in terms if t in vocabulary}
    found = [slot.word for slot in found_slots if known.intersection(slot.terms)]
    return " ".join([query, *dict.fromkeys(found)])
