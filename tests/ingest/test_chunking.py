"""Sentence-aware chunking: whole sentences, size limit, sentence overlap, exact offsets."""
from checks.splitting import split_sentences
from ingest.chunking import chunk_spans


def test_sentences_respect_abbreviations():
    text = "Dr. Smith arrived in Washington D.C. on Jan. 5. He met Mr. Jones. It was 3.5 p.m. there."
    assert split_sentences(text) == ["Dr. Smith arrived in Washington D.C. on Jan. 5.", "He met Mr. Jones.", "It was 3.5 p.m. there."]


def test_short_text_is_one_chunk():
    text = "One sentence. Another one."
    assert chunk_spans(text) == [(0, len(text))]


def test_chunks_are_whole_sentences_within_limit_and_overlap():
    sentences = [f"Sentence number {i} says something about topic {i % 7} in plain words." for i in range(60)]
    text = " ".join(sentences)
    spans = chunk_spans(text, max_chars=300, overlap=100)
    assert len(spans) > 5
    for start, end in spans:
        piece = text[start:end]
        assert len(piece) <= 300
        assert piece.startswith("Sentence number") and piece.endswith(".")
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        assert s2 < e1, "consecutive chunks share a sentence"
        assert e1 - s2 <= 100
        assert s2 > s1
    assert spans[0][0] == 0 and spans[-1][1] == len(text)


def test_overlong_sentence_is_windowed_at_spaces():
    text = " ".join(f"word{i}" for i in range(600))  # one "sentence" of about 4,000 characters
    spans = chunk_spans(text, max_chars=1200, overlap=200)
    assert len(spans) >= 4
    assert all(e - s <= 1200 for s, e in spans)
    for s, e in spans:
        assert text[s:e] == text[s:e].strip() and not text[s:e].startswith("ord")  # starts on a word
    covered = set()
    for s, e in spans:
        covered.update(range(s, e))
    assert covered >= {i for i, ch in enumerate(text) if ch != " "}


def test_empty_text_has_no_chunks():
    assert chunk_spans("") == []
    assert chunk_spans("   \n ") == []
