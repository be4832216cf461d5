"""The offline answerer: cited sentences taken verbatim from the passages, or an honest decline."""
import re

import pytest

from conftest import FakeEmbedder, make_retriever
from generator import Generator
from models import Chunk, Hit, WriteRequest
from writers.offline import SENTENCES_PER_TYPE, ExtractiveWriter
from checks.declines import CANNOT_ANSWER
from checks.sentences import cite


def test_cite_puts_the_marker_before_the_final_punctuation():
    assert cite("He discovered penicillin in 1928.", 2) == "He discovered penicillin in 1928 [2]."
    assert cite("Is it so?", 1) == "Is it so [1]?"
    assert cite("No stop", 3) == "No stop [3]."


def sentences_with_numbers(answer):
    return re.findall(r"(.+?) \[(\d+)\][.!?;:]", answer)


@pytest.mark.parametrize("embedder", ["fake", "real"])
def test_answer_is_cited_sentences_of_the_passages(embedder, real_embedder):
    embedder = real_embedder if embedder == "real" else FakeEmbedder()
    retriever = make_retriever(embedder=embedder)
    hits = retriever.search("Who discovered penicillin?", top_k=3)
    answer = ExtractiveWriter(embedder).write(WriteRequest("Who discovered penicillin?", "factual_lookup", hits)).text
    assert "penicillin in 1928" in answer
    parts = sentences_with_numbers(answer)
    assert 1 <= len(parts) <= SENTENCES_PER_TYPE["factual_lookup"]
    for body, n in parts:
        assert body.strip() in hits[int(n) - 1].chunk.text  # verbatim, from the passage it cites


def test_real_embedder_declines_when_the_passages_are_off_topic(real_embedder):
    retriever = make_retriever(embedder=real_embedder)
    question = "What is the boiling point of liquid nitrogen?"
    hits = retriever.search(question, top_k=3)
    assert ExtractiveWriter(real_embedder).write(WriteRequest(question, "factual_lookup", hits)).text == CANNOT_ANSWER


def test_decline_thresholds_are_the_embedders_own_unless_given():
    from search.embedders import EMBEDDERS, UNCALIBRATED

    class E5Named(FakeEmbedder):
        name = "intfloat/multilingual-e5-small"

    assert (ExtractiveWriter(FakeEmbedder()).min_similarity, ExtractiveWriter(FakeEmbedder()).min_score) == UNCALIBRATED.decline
    assert (ExtractiveWriter(E5Named()).min_similarity, ExtractiveWriter(E5Named()).min_score) == EMBEDDERS[E5Named.name].decline
    question, hits = "Who discovered penicillin?", make_retriever().search("Who discovered penicillin?", top_k=3)
    assert "[1]" in ExtractiveWriter(FakeEmbedder()).write(WriteRequest(question, "factual_lookup", hits)).text
    strict = ExtractiveWriter(FakeEmbedder(), thresholds=(0.99, 0.99))  # no sentence is that close: decline
    assert strict.write(WriteRequest(question, "factual_lookup", hits)).text == CANNOT_ANSWER


def test_full_answer_through_the_generator_resolves_every_citation(real_embedder):
    retriever = make_retriever(embedder=real_embedder)
    hits = retriever.search("When was Rome founded?", top_k=4)
    answer = Generator({"offline": ExtractiveWriter(real_embedder)}, "offline").answer(
        WriteRequest("When was Rome founded?", "factual_lookup", hits)
    )
    assert "753 BC" in answer.text and not answer.declined and answer.invalid_citations == []
    assert {c.passage_id for c in answer.citations} == {"rome#0"}


def test_declines_when_the_question_names_what_no_passage_mentions():
    retriever = make_retriever()
    writer = ExtractiveWriter(FakeEmbedder())
    for question in ["Who discovered penicillin in 2031?", "Who is the CEO of Evidenz?"]:
        assert writer.write(WriteRequest(question, "factual_lookup", retriever.search(question, top_k=4))).text == CANNOT_ANSWER
    question = "Who discovered penicillin in 1928?"  # the same question, with a year the passage has
    assert "[1]" in writer.write(WriteRequest(question, "factual_lookup", retriever.search(question, top_k=4))).text


def test_pronoun_sentence_brings_its_subject():
    from models import Document

    docs = [Document("curie", "Marie Curie", "Marie Curie was a physicist. She won the Nobel Prize in Physics in 1903.")]
    embedder = FakeEmbedder()
    hits = make_retriever(docs, embedder).search("Nobel Prize Physics 1903", top_k=1)
    answer = ExtractiveWriter(embedder).write(WriteRequest("Nobel Prize Physics 1903", "factual_lookup", hits)).text
    assert answer == "Marie Curie was a physicist [1]. She won the Nobel Prize in Physics in 1903 [1]."


def test_headings_of_uploaded_books_are_not_quoted_as_prose():
    from checks.sentences import prose

    assert prose("Chapter 3: Varroa Mites\nThe varroa mite is a pest\nof honey bees. Treat in winter.") == [
        "The varroa mite is a pest of honey bees. Treat in winter."]
    assert prose("# Baking\n\nBake the loaf at 250 degrees.") == ["Bake the loaf at 250 degrees."]
    assert prose("Lesson 2: Brewing\n\nGreen tea wants cool water.") == ["Green tea wants cool water."]
    assert prose("Fleming was a physician. He discovered penicillin") == ["Fleming was a physician. He discovered penicillin"]
    assert prose("סעיף א. יתגבר כארי לעמוד בבוקר") == ["סעיף א. יתגבר כארי לעמוד בבוקר"]


def test_disagreeing_units_are_presented_each_under_its_own_reference():
    from models import Chunk, Hit
    from checks.verify import Verifier

    ruling = Chunk("sa-87-3", "sa", "Yoreh De'ah 87", "Fish may be eaten with milk.", 0, 28,
                   ref="Shulchan Arukh, Yoreh De'ah 87:3", parent_ref="Shulchan Arukh, Yoreh De'ah 87")
    gloss = Chunk("sa-87-3-rema", "sa", "Yoreh De'ah 87", "The custom is that fish is not eaten with milk.", 28, 75,
                  ref="Shulchan Arukh, Yoreh De'ah 87:3, Rema", parent_ref="Shulchan Arukh, Yoreh De'ah 87")
    hits = [Hit(ruling, 1.0, 0.9, 0.9), Hit(gloss, 0.9, 0.8, 0.8)]
    request = WriteRequest("May fish be eaten with milk?", "factual_lookup", hits)
    answer = Generator({"offline": ExtractiveWriter(FakeEmbedder())}, "offline",
                       verifier=Verifier(FakeEmbedder(), 0.5)).answer(request)
    assert answer.text == ("Shulchan Arukh, Yoreh De'ah 87:3:\n- Fish may be eaten with milk [1].\n\n"
                           "Shulchan Arukh, Yoreh De'ah 87:3, Rema:\n- The custom is that fish is not eaten with milk [2].")
    assert [c.n for c in answer.citations] == [1, 2] and all(c.verified for c in answer.citations)
    hebrew = ExtractiveWriter(FakeEmbedder()).write(WriteRequest("May fish be eaten with milk?", "factual_lookup", hits, "he"))
    assert hebrew.text.startswith('שו"ע יו"ד פ"ז:ג:\n- Fish') and '\n\nשו"ע יו"ד פ"ז:ג רמ"א:\n- The custom' in hebrew.text


def test_the_offline_writer_streams_its_sentences_then_the_draft():
    retriever = make_retriever()
    hits = retriever.search("Who discovered penicillin?", top_k=2)
    pieces = list(ExtractiveWriter(FakeEmbedder()).stream(WriteRequest("Who discovered penicillin?", "factual_lookup", hits)))
    *texts, draft = pieces
    assert len(texts) >= 1 and "".join(texts) == draft.text and "[1]" in draft.text


def test_the_offline_decline_is_in_the_answer_language():
    hits = make_retriever().search("Who is the CEO of Evidenz?", top_k=2)
    draft = ExtractiveWriter(FakeEmbedder()).write(WriteRequest("Who is the CEO of Evidenz?", "factual_lookup", hits, "he"))
    assert draft.text == "המקורות שסופקו אינם עונים על שאלה זו."


def test_a_name_asked_without_its_accents_is_still_found_in_the_passages():
    text = "The Sagrada Família is a church in Barcelona. Pope Benedict XVI proclaimed it a basilica in 2010."
    hits = [Hit(Chunk("s#0", "s", "Sagrada Família", text, 0, len(text)), 1.0, 0.5, 0.8)]
    draft = ExtractiveWriter(FakeEmbedder()).write(WriteRequest("Which pope made the Sagrada Familia a basilica?",
                                                                "factual_lookup", hits))
    assert not draft.declined and "Benedict" in draft.text
