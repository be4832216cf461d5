"""Sentence-aware chunking: documents become passages of whole sentences, overlapping a little.

Sentences come from the splitter the checks use (checks/splitting.py: Punkt). Text without spaces is cut by characters
(cut_long), so no passage of any document is longer than MAX_PASSAGE_CHARS. Does not: follow document
structure (headings, simanim); that is the library manager's job.
"""
from checks.splitting import sentence_spans

MAX_CHARS = 1200  # design default: a passage is at most this long
OVERLAP_CHARS = 200  # design default: text shared by consecutive passages of a document
# uploads are sized in words (sizing.py), so their passages run longer than MAX_CHARS: up to this many times it
PASSAGE_TIMES = 4


def max_passage_chars(max_chars: int = MAX_CHARS) -> int:
    """The longest passage an upload may have, for a chunk size of max_chars."""
    return PASSAGE_TIMES * max_chars


MAX_PASSAGE_CHARS = max_passage_chars()


def cut_long(start: int, end: int, text: str, max_chars: int, overlap: int) -> list[tuple[int, int]]:
    """Cut one over-long span into windows of at most max_chars that end at a space where possible.

    Windows overlap by up to overlap chars, starting on a word; text without spaces is cut by characters.
    """
    pieces = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + max_chars // 2, start + max_chars)
        cut = cut if cut > start else start + max_chars
        pieces.append((start, cut))
        space = text.find(" ", cut - overlap, cut)  # begin the next window on a word
        start = max(space + 1 if space != -1 else cut, start + 1)
    pieces.append((start, end))
    return pieces


def chunk_spans(text: str, max_chars: int = MAX_CHARS, overlap: int = OVERLAP_CHARS) -> list[tuple[int, int]]:
    """Spans of passages of whole sentences, each at most max_chars, sharing up to overlap chars.

    The overlap is made of the previous passage's last whole sentences, so no passage starts
    mid-sentence (except inside a single sentence longer than max_chars).
    """
    sentences = []
    for start, end in sentence_spans(text):
        sentences.extend(cut_long(start, end, text, max_chars, overlap))
    chunks: list[tuple[int, int]] = []
    current: list[tuple[int, int]] = []
    for sentence in sentences:
        if current and sentence[1] - current[0][0] > max_chars:
            chunks.append((current[0][0], current[-1][1]))
            carried = []
            for prev in reversed(current):
                if current[-1][1] - prev[0] > overlap:
                    break
                carried.insert(0, prev)
            # keep the carried sentences only if the new one still fits after them
            current = carried if carried and sentence[1] - carried[0][0] <= max_chars else []
        current.append(sentence)
    if current:
        chunks.append((current[0][0], current[-1][1]))
    return chunks
