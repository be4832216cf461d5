"""Hebrew and Aramaic analysis for BM25: the terms a text is indexed under, and the words a query searches for.

Each token is analysed by the script it is written in, so mixed Hebrew/English text works; a text with no
Hebrew-script character at all (an English chunk or query) takes the plain path of words.tokenize unchanged.
A Hebrew-script word (Aramaic goes the same way):
  1. loses its vowel points and cantillation; maqaf, paseq and sof pasuq separate words;
  2. has geresh/gershayim and every quote style unified to ' and ", so שו״ע, שו"ע and שו''ע are one word;
  3. is indexed under its letters, final forms unified (ך→כ ם→מ ן→נ ף→פ ץ→צ) and quotes dropped;
  4. and under its forms without one or two leading prefix letters (ו ה ב כ ל מ ש, and the pairs of
     PREFIX_PAIRS), as long as STEM_MIN letters remain: והבית is indexed as והבית, הבית and בית;
  5. and, when it is an abbreviation of data/hebrew_abbreviations.tsv (also behind prefixes: בשו"ע), under the
     words it stands for, analysed as if written out, so שו"ע and "שולחן ערוך" share their terms.
A query is the same analysis grouped by word: each word is a list of alternative forms, scored by the best
one a passage has (search/bm25.py's scores_any), so a prefix does not count a word twice. Hebrew question words
(מה, איזה, באיזו ...) are left out of queries: they say what kind of answer is wanted, not where it is.
BM25 nDCG@10 on heq-dev: 0.895 with words.tokenize; 0.898 with steps 1-3; 0.932 with prefix forms counted as
extra query terms; 0.950 counting each word by its best form; 0.958 without question words.
Does not: strip suffixes (forms without ים ות ה ת ו י moved heq-dev by less than 0.003 either way), look words
up in a lexicon, reconcile full and defective spelling (תפילה/תפלה; a form without inner ו/י cost heq-dev 0.003),
strip the Aramaic ד prefix, or guess abbreviations the dictionary lacks (their letters still match).
"""
import csv
import hashlib
from functools import lru_cache
from pathlib import Path

import regex

from hebrew.normal import TO_PLAIN, without_points
from hebrew.words import tokenize

# Raise when the analysis changes; with the dictionary's digest it names the analysis a library's BM25 was built
# with, and a library built with another one rebuilds its BM25 from the stored chunk texts (search/library.py).
VERSION = "he-1"
ABBREVIATIONS = Path(__file__).resolve().parents[1] / "data" / "hebrew_abbreviations.tsv"

PREFIXES = frozenset("והבכלמש")
# Two-letter prefix sequences (ו/ש/כ/מ/ל before the article or a preposition). Every pair of prefix letters
# scored lower on heq-dev (0.956 against 0.958), and one letter only 0.955.
PREFIX_PAIRS = frozenset({"וה", "וב", "וכ", "ול", "ומ", "וש", "שה", "שב", "שכ", "של", "שמ", "כש", "מה", "מש", "לכ"})
STEM_MIN = 2  # letters a word keeps after its prefix letters go (בחג → חג); 3 scored the same on heq-dev
QUESTION_WORDS = frozenset(
    "מה מי מיהו מיהי מהו מהי מהמ מהנ מתי איפה היכנ איכ כיצד למה מדוע האמ כמה איזה איזו אילו אלו".split())  # finals unified

HEBREW_BLOCK = "\u0590-\u05FF\uFB1D-\uFB4F"
LETTERS = "\u05D0-\u05EA"
HEBREW = regex.compile(f"[{HEBREW_BLOCK}]")
QUOTES = str.maketrans({"\u05F3": "'", "\u2018": "'", "\u2019": "'", "\u201B": "'", "\u2032": "'", "`": "'",
                        "\u00B4": "'", "\u05F4": '"', "\u201C": '"', "\u201D": '"', "\u201E": '"', "\u201F": '"',
                        "\u2033": '"'})
# A Hebrew word may hold quotes between letters (שו"ע, ג'ירפה) and end in a geresh (וכו', ר'). Any other word
# is letters, digits and marks of another script, as words.TOKEN_RE finds them.
TOKEN = regex.compile(
    rf"(?P<he>[{LETTERS}](?:[{LETTERS}]|['\"](?=[{LETTERS}]))*'?)"
    rf"|(?:(?![{HEBREW_BLOCK}])[\p{{L}}\p{{N}}])(?:(?![{HEBREW_BLOCK}])[\p{{L}}\p{{N}}\p{{M}}])*"
)


def folded(text: str) -> str:
    """Case-folded text without Hebrew points or accents, with unified quotes and word separators as spaces."""
    return without_points(text.casefold()).translate(QUOTES).replace("''", '"')


def strip_prefixes(word: str) -> list[str]:
    """The word without one, then two, leading prefix letters, where at least STEM_MIN letters remain."""
    forms = []
    if word[0] in PREFIXES and len(word) - 1 >= STEM_MIN:
        forms.append(word[1:])
        if word[:2] in PREFIX_PAIRS and len(word) - 2 >= STEM_MIN:
            forms.append(word[2:])
    return forms


@lru_cache(maxsize=4)
def load_abbreviations(path: Path = ABBREVIATIONS) -> dict[str, tuple[str, ...]]:
    """Normalised abbreviation -> the words it stands for, from a two-column TSV (lines starting with # are notes)."""
    table = {}
    with open(path, encoding="utf-8") as rows:
        for row in csv.reader(rows, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row and not row[0].startswith("#") and len(row) >= 2:
                table[folded(row[0].strip()).translate(TO_PLAIN)] = tuple(m[0] for m in TOKEN.finditer(folded(row[1])))
    return table


@lru_cache(maxsize=1)
def version() -> str:
    """The analysis a BM25 index is built with: VERSION and the digest of the abbreviation dictionary."""
    return f"{VERSION}+{hashlib.sha256(ABBREVIATIONS.read_bytes()).hexdigest()[:12]}"


def expand(word: str, table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The words an abbreviation stands for (also behind prefix letters: ובשו"ע), or () if it is none."""
    if "'" not in word and '"' not in word:
        return ()
    for form in (word, *strip_prefixes(word)):
        if form in table:
            return table[form]
    return ()


@lru_cache(maxsize=500_000)
def word_forms(word: str) -> tuple[tuple[str, ...], ...]:
    """A normalised Hebrew-script word as the words it searches for: (its letters, its prefix-less forms), and one
    such tuple for each word of its expansion when it is an abbreviation. Cached: texts repeat their words."""
    word = word.translate(TO_PLAIN)
    letters = word.replace("'", "").replace('"', "")
    words = [(letters, *strip_prefixes(letters))]
    for full in expand(word, load_abbreviations()):
        words.extend(word_forms(full))
    return tuple(words)


def _words(text: str, query: bool = False) -> list[tuple[str, ...]]:
    """Every word of a text containing Hebrew, each as its alternative forms (a query's without question words)."""
    words = []
    for match in TOKEN.finditer(folded(text)):
        if not match["he"]:
            words.append((match[0],))
        elif not (query and is_question_word(match["he"].translate(TO_PLAIN))):
            words.extend(word_forms(match["he"]))
    return words


def analyze(text: str) -> list[str]:
    """The BM25 terms of a text: words.tokenize's words, Hebrew ones analysed as the module says."""
    if not HEBREW.search(text):
        return tokenize(text)
    return [form for forms in _words(text) for form in forms]


def is_question_word(word: str) -> bool:
    """Whether a Hebrew word, or it without one prefix letter (באיזו, וכמה), is a question word of 3+ letters."""
    return word in QUESTION_WORDS or (word[0] in PREFIXES and len(word) > 3 and word[1:] in QUESTION_WORDS)


def analyze_query(text: str) -> list[list[str]]:
    """The words of a query, each a list of alternative terms (search/bm25.py's scores_any), question words left out."""
    if not HEBREW.search(text):
        return [[token] for token in tokenize(text)]
    return [list(forms) for forms in _words(text, query=True)]
