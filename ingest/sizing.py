"""Cut one section of a document into pieces of a target size: paragraphs first, then overlapping windows.

Paragraphs (blank-line separated) are packed greedily up to the target size; a short one joins its
neighbour; a paragraph longer than the maximum is cut into windows that overlap and end at a sentence
end where one is near. Sizes count tokens, here whitespace-separated words, and a piece is also at most
max_chars long: a window still longer (text without spaces, very long words) is cut by characters.
Returns offsets only, so every piece stays an exact slice of the text. Does not: look for headings or
sections (structure.py does) or cut across the bounds it is given.
"""
import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass

from ingest.chunking import MAX_PASSAGE_CHARS, OVERLAP_CHARS, cut_long

_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")  # paragraphs are separated by blank lines
_SENTENCE_END = tuple(".?!:׃")  # ׃ is the Hebrew sof pasuq; ":" also ends a seif in printed Halakha
_CLOSERS = "\"')”’״"


@dataclass(frozen=True)
class Sizes:
    """Piece sizes, in tokens: whitespace-separated words (cheap, language-neutral, close to model tokens)."""

    target: tuple[int, int] = (300, 600)  # aim for pieces in this range
    max_tokens: int = 800  # a paragraph longer than this is windowed
    min_tokens: int = 50  # a shorter paragraph joins its neighbour in the same section
    overlap: int = 50  # tokens shared by consecutive windows of one paragraph
    max_chars: int = MAX_PASSAGE_CHARS  # no piece is longer, whatever its word count
    overlap_chars: int = OVERLAP_CHARS  # shared by consecutive pieces cut by characters


class Tokens:
    """The whitespace-separated words of a text, as offsets in compact arrays (a 50 MB text has millions)."""

    def __init__(self, text: str):
        self.text, self.starts, self.ends = text, array("q"), array("q")
        for match in re.finditer(r"\S+", text):
            self.starts.append(match.start())
            self.ends.append(match.end())

    def word(self, i: int) -> str:
        """The i-th word."""
        return self.text[self.starts[i]:self.ends[i]]

    def index(self, offset: int) -> int:
        """Index of the first token starting at or after offset."""
        return bisect_left(self.starts, offset)

    def count(self, start: int, end: int) -> int:
        """Number of tokens starting inside [start, end)."""
        return self.index(end) - self.index(start)


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Move offsets inward past whitespace, leaving the string untouched."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _windows(text: str, tokens: Tokens, start: int, end: int, sizes: Sizes) -> list[tuple[int, int]]:
    """Overlapping windows over one over-long paragraph: by words, after a sentence end where one is near,
    then by characters where a window is still longer than max_chars."""
    low, high = sizes.target
    i, last, spans = tokens.index(start), tokens.index(end), []
    while last - i > sizes.max_tokens:
        cut = i + high
        for j in range(i + high, i + low, -1):  # the latest sentence end in the target range
            if tokens.word(j - 1).rstrip(_CLOSERS).endswith(_SENTENCE_END):
                cut = j
                break
        spans.append((tokens.starts[i], tokens.ends[cut - 1]))
        i = max(cut - sizes.overlap, i + 1)
    spans.append((tokens.starts[i], tokens.ends[last - 1]))
    pieces = []
    for span in spans:
        fits = span[1] - span[0] <= sizes.max_chars
        windows = [span] if fits else cut_long(*span, text, sizes.max_chars, sizes.overlap_chars)
        pieces.extend(piece for piece in (trim(text, *window) for window in windows) if piece[0] < piece[1])
    return pieces


def section_spans(text: str, tokens: Tokens, start: int, end: int, sizes: Sizes) -> list[tuple[int, int]]:
    """Cut one section into spans: paragraphs packed greedily to the target size, long paragraphs windowed."""
    blocks, cursor = [], start
    for gap in [*_BLANK_LINE.finditer(text, start, end), None]:
        para = trim(text, cursor, gap.start() if gap else end)
        cursor = gap.end() if gap else end
        if para[0] < para[1]:
            fits = tokens.count(*para) <= sizes.max_tokens and para[1] - para[0] <= sizes.max_chars
            blocks.extend([para] if fits else _windows(text, tokens, *para, sizes))
    spans: list[tuple[int, int]] = []
    for block in blocks:
        if spans and block[1] - spans[-1][0] <= sizes.max_chars:
            current, joined = tokens.count(*spans[-1]), tokens.count(spans[-1][0], block[1])
            small = current < sizes.target[0] or tokens.count(*block) < sizes.min_tokens
            if joined <= sizes.target[1] or (small and joined <= sizes.max_tokens):
                spans[-1] = (spans[-1][0], block[1])
                continue
        spans.append(block)
    if len(spans) > 1 and tokens.count(*spans[-1]) < sizes.min_tokens:
        joined = (spans[-2][0], spans[-1][1])
        if tokens.count(*joined) <= sizes.max_tokens and joined[1] - joined[0] <= sizes.max_chars:
            spans[-2:] = [joined]  # a short tail joins the piece before it
    return spans
