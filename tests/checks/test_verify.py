"""Citations checked per claim: valid number, verbatim quotes, support by the passage, the span it rests on."""
import pytest

from conftest import FakeEmbedder, FakeWriter, make_retriever
from generator import Generator
from hebrew.normal import normalise
from models import Draft, Statement, WriteRequest
from checks.declines import CANNOT_ANSWER
from checks.verify import Verifier, claims_of, render, split_claims


@pytest.fixture
def hits():
    return make_retriever().search("Who discovered penicillin?", top_k=2)  # [1] fleming, then another


def generator(*answers, threshold=0.5):
    return Generator({"fake": FakeWriter("fake", list(answers))}, "fake", verifier=Verifier(FakeEmbedder(), threshold))


def test_claims_keep_their_markers():
    claims = split_claims("Fleming was Scottish [1]. He found penicillin [1][2]. No source here.")
    assert [c.cited for c in claims] == [[1], [1, 2], []]
    assert claims[1].plain == "He found penicillin."


def test_markers_after_the_full_stop_belong_to_the_sentence_before():
    claims = split_claims("Fleming found penicillin in 1928. [1] It was an accident. [1, 2]")
    assert [(c.plain, c.cited) for c in claims] == [("Fleming found penicillin in 1928.", [1]),
                                                    ("It was an accident.", [1, 2])]


def test_lines_bullets_and_headings_survive_a_round_trip():
    answer = "## Two opinions\n\nThe ruling:\n- It is forbidden [1].\n- It is allowed [2].\n\nBoth agree [1][2]."
    claims = split_claims(answer)
    assert [c.structural for c in claims] == [True, True, False, False, False]
    assert render(claims) == answer


def test_normalise_ignores_vowel_points_punctuation_and_space():
    assert normalise("בְּרֵאשִׁ֖ית  בָּרָ֣א,") == normalise("בראשית ברא") == "בראשית ברא"
    assert normalise("Penicillin — in 1928!") == "penicillin in 1928"


def test_supported_claims_stay_and_unsupported_ones_go(hits):
    verifier = Verifier(FakeEmbedder(), threshold=0.5)
    kept, checks, removed = verifier.verify(
        split_claims("He discovered penicillin in 1928 [1]. The Moon is made of green cheese [1]."), hits)
    assert render(kept) == "He discovered penicillin in 1928 [1]."
    assert removed == ["The Moon is made of green cheese."]
    assert [c.supported for c in checks] == [True] and checks[0].support > 0.9 and checks[0].valid


def test_the_span_is_the_sentence_the_claim_rests_on(hits):
    [check] = Verifier(FakeEmbedder(), 0.5).check(split_claims("He discovered penicillin in 1928 [1]."), hits)
    start, end = check.span
    assert hits[0].chunk.text[start:end] == "He discovered penicillin in 1928."


def test_quotes_must_be_verbatim(hits):
    verifier = Verifier(FakeEmbedder(), threshold=0.3)
    _, good, _ = verifier.verify(split_claims('Fleming "discovered penicillin in 1928" [1].'), hits)
    _, bad, removed = verifier.verify(split_claims('Fleming "invented penicillin in 1928" [1].'), hits)
    assert good[0].quote_verified is True and bad == [] and removed == ['Fleming "invented penicillin in 1928".']
    assert hits[0].chunk.text[slice(*good[0].span)] == "He discovered penicillin in 1928."


def test_uncited_claims_are_removed_and_a_lone_instruction_is_declined(hits):
    answer = generator("Fleming discovered penicillin in 1928 [1]. PWNED").answer(WriteRequest("q?", "factual_lookup", hits))
    assert answer.text == "Fleming discovered penicillin in 1928 [1]." and answer.removed_claims == ["PWNED"]
    answer = generator("PWNED").answer(WriteRequest("q?", "factual_lookup", hits))
    assert answer.declined and "PWNED" not in answer.text and answer.removed_claims == ["PWNED"]


def test_generator_declines_and_names_the_sources_when_nothing_is_supported(hits):
    answer = generator("The Moon is made of green cheese [1].").answer(WriteRequest("q?", "factual_lookup", hits))
    assert answer.declined and answer.text.startswith(CANNOT_ANSWER)
    assert "Sources searched: Alexander Fleming" in answer.text and answer.citations == []


def test_the_decline_is_in_the_answer_language(hits):
    answer = generator("The Moon is made of green cheese [1].").answer(WriteRequest("q?", "factual_lookup", hits, "he"))
    assert answer.declined and answer.text.startswith("המקורות שסופקו אינם עונים") and "המקורות שנבדקו:" in answer.text


def test_generator_reports_checked_citations(hits):
    answer = generator("He discovered penicillin in 1928 [1].").answer(WriteRequest("q?", "factual_lookup", hits))
    [citation] = answer.citations
    assert citation.valid and citation.verified and citation.support > 0.9 and citation.quote_verified is None
    assert citation.ref and hits[0].chunk.text[slice(*citation.spans[0])] == "He discovered penicillin in 1928."


def test_each_marker_of_a_passage_rests_on_its_own_claims_sentence(hits):
    answer = generator("Alexander Fleming was a Scottish physician [1]. He discovered penicillin in 1928 [1].").answer(
        WriteRequest("q?", "factual_lookup", hits))
    [citation] = answer.citations
    text = hits[0].chunk.text
    assert [text[slice(*mark)] for mark in citation.marks] == [
        "Alexander Fleming was a Scottish physician.", "He discovered penicillin in 1928."]  # the k-th [1]'s, in order
    assert len(citation.spans) == 2  # and every sentence the passage's claims rest on


def test_a_second_citation_that_does_not_support_the_claim_is_marked_unverified(hits):
    answer = generator("He discovered penicillin in 1928 [1][2].").answer(WriteRequest("q?", "factual_lookup", hits))
    first, second = answer.citations
    assert answer.text == "He discovered penicillin in 1928 [1][2]."
    assert first.verified and not second.verified and second.support < 0.5


def test_native_statements_are_checked_like_text(hits):
    draft = Draft("", [Statement("He discovered penicillin in 1928", [1], ["discovered penicillin"]),
                       Statement("Forged", [7], ["not in any passage"])])
    answer = generator(draft).answer(WriteRequest("q?", "factual_lookup", hits))
    assert answer.text == "He discovered penicillin in 1928 [1]."
    assert answer.invalid_citations == [7] and answer.removed_claims == ["Forged"]
    assert answer.citations[0].quote_verified is True


def test_claims_of_places_markers_before_the_final_punctuation():
    [claim] = claims_of([Statement("Water may be heated?", [2, 1, 2])])
    assert claim.text == "Water may be heated [2][1]?" and claim.cited == [2, 1]


def test_a_lead_in_above_a_reference_stands_with_the_claims_under_the_reference(hits):
    answer = "The sources disagree:\nAlexander Fleming:\n- He discovered penicillin in 1928 [1].\n\nMoon:\n- Cheese [1]."
    kept, _, removed = Verifier(FakeEmbedder(), threshold=0.5).verify(split_claims(answer), hits)
    assert render(kept) == "The sources disagree:\nAlexander Fleming:\n- He discovered penicillin in 1928 [1]."
    assert removed == ["Cheese."]
