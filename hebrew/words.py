"""Words of any script: the plain tokenizer, and the words of a text that carry meaning.

`tokenize` splits text into case-folded words, keeping combining marks (Hebrew vowel points, accents)
inside the word they belong to; the Hebrew analyzer (analyzer.py) takes it unchanged for text without
Hebrew letters, and extends it for Hebrew. `content_words` leaves out English function words, so a
question's words can be matched against a passage's.
Does not: analyse Hebrew words (analyzer.py does) or stem.
"""
import regex

# Letters and digits of every script, keeping combining marks (Hebrew vowel points, accents)
# inside the word they belong to. ASCII-only patterns such as [^a-z0-9] drop Hebrew entirely.
TOKEN_RE = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*")
STOP_WORDS = frozenset(
    "a an and are as at be by did do does for from had has have how i in is it its of on or so than that the "
    "their them then there these they this to was were what when where which who whom whose why will with "
    "would you your about after before can could should tell me explain describe many much".split()
)


def tokenize(text: str) -> list[str]:
    """Split text into case-folded words of any script."""
    return TOKEN_RE.findall(text.casefold())


def content_words(text: str) -> set[str]:
    """The words of text that carry meaning (no stop words)."""
    return {w for w in tokenize(text) if w not in STOP_WORDS}
