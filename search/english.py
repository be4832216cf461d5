"""A plain English analyzer: case-folded words without function words, each cut to a light stem.

What BM25 reads of the English questions written beside a passage (search/asked.py), and of an English question
searched against them: "Can I eat cheese after eating meat?" -> eat, cheese, after, eat, meat. The stem only folds
the endings a question and its paraphrase differ by (plates/plate, eating/eat, cooked/cook, candles/candle), so two
words meet when a reader would say they are the same word; it is no Porter stemmer, and it never touches Hebrew.
Does not: analyse Hebrew (hebrew/analyzer.py does), or index passages (their BM25 keeps the analyzer they had).
"""
from hebrew.words import tokenize

VERSION = "en-1"
# Function words a question is made of; "after", "before", "without" and the like stay, as a ruling turns on them
STOP_WORDS = frozenset(
    "a an and are as at be been by can could did do does for from had has have how i if in is it its me my of on "
    "one or our should so than that the their them then there these they this to us was we were what when where "
    "which who whom whose why will with would you your am any there's it's i'm".split())
SUFFIXES = ("ing", "ies", "ied", "es", "ed", "s")


def stem(word: str) -> str:
    """A word without one inflectional ending, when enough of it is left: eating -> eat, candles -> candle."""
    if not word.isascii() or len(word) <= 4:
        return word
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[:-len(suffix)]
            if suffix in ("ies", "ied"):
                return root + "y"
            if suffix == "es" and not root.endswith(("s", "x", "z", "ch", "sh")):
                return root + "e"  # "plates" -> "plate", "boxes" -> "box"
            if suffix == "s" and root.endswith(("s", "u", "i")):
                return word  # "glass", "bus", "tefillin's" forms keep their letters
            if suffix in ("ing", "ed") and len(root) > 2 and root[-1] == root[-2] and root[-1] not in "lsz":
                return root[:-1]  # "sitting" -> "sit"
            return root
    return word


def analyze(text: str) -> list[str]:
    """The BM25 terms of English text."""
    return [stem(word) for word in tokenize(text) if word not in STOP_WORDS]


def analyze_query(text: str) -> list[list[str]]:
    """A query's terms in the shape BM25.scores_any reads: each word with its one form."""
    return [[term] for term in analyze(text)]
