"""Citations checked per claim: valid number, verbatim quotes, support by the passage."""
import pytest

from conftest import FakeEmbedder, FakeWriter, make_retriever
from generator import CANNOT_ANSWER, Generator
from verify import Verifier, normalise, split_claims


@pytest.fixture
def hits():
    return make_retriever().search("Who discovered penicillin?", top_k=2)  # [1] fleming, then another


def test_claims_keep_their_markers():
    claims = split_claims("Fleming was Scottish [1]. He found penicillin [1][2]. No source here.")
    assert [c.cited for c in claims] == [[1], [1, 2], []]
    assert claims[1].plain == "He found penicillin."


def test_normalise_ignores_vowel_points_punctuation_and_space():
    assert normalise("בְּרֵאשִׁ֖ית  בָּרָ֣א,") == normalise("בראשית ברא") == "בראשית ברא"
    assert normalise("Penicillin — in 1928!") == "penicillin in 1928"


def test_supported_claims_stay_and_unsupported_ones_go(hits):
    verifier = Verifier(FakeEmbedder(), threshold=0.5)
    text, records, removed = verifier.verify(
        "He discovered penicillin in 1928 [1]. The Moon is made of green cheese [1].", hits)
    assert text == "He discovered penicillin in 1928 [1]."
    assert removed == ["The Moon is made of green cheese."]
    assert [r["supported"] for r in records] == [True, False] and records[0]["support"] > 0.9
    assert records[0]["ref"] == "Alexander Fleming" and records[0]["valid"]


def test_quotes_must_be_verbatim(hits):
    verifier = Verifier(FakeEmbedder(), threshold=0.3)
    _, good, _ = verifier.verify('Fleming "discovered penicillin in 1928" [1].', hits)
    _, bad, removed = verifier.verify('Fleming "invented penicillin in 1928" [1].', hits)
    assert good[0]["quote_verified"] is True and bad[0]["quote_verified"] is False and removed


def test_generator_declines_and_names_the_sources_when_nothing_is_supported(hits):
    writer = FakeWriter("fake", ["The Moon is made of green cheese [1]."])
    answer = Generator({"fake": writer}, "fake", verifier=Verifier(FakeEmbedder(), 0.5)).answer("q?", "factual_lookup", hits)
    assert answer.declined and answer.text.startswith(CANNOT_ANSWER)
    assert "Sources searched: Alexander Fleming" in answer.text and answer.citations == []


def test_generator_reports_checked_citations(hits):
    writer = FakeWriter("fake", ["He discovered penicillin in 1928 [1]."])
    answer = Generator({"fake": writer}, "fake", verifier=Verifier(FakeEmbedder(), 0.5)).answer("q?", "factual_lookup", hits)
    [citation] = answer.citations
    assert citation.valid and citation.support > 0.9 and citation.quote_verified is None and citation.ref
