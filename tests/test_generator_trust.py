"""The Generator holds every writer to the same standard: a decline keeps what the sources do say (checked), a model
answer none of whose claims answers the question becomes that decline, a computation is kept only when right, and
an answer to a question of religious law loses rulings in the writer's own voice and ends with the rabbi line (a decline
does not); a decline with nothing the sources do say names the nearest passages, cited."""
import dataclasses

import numpy as np
import pytest

from conftest import FakeEmbedder, FakeWriter
from generator import Generator
from models import Draft, WriteRequest
from question.halacha import rabbi_line
from standin import make_hits
from checks.declines import CANNOT_ANSWER, DECLINE, NEAREST, found_text
from checks.verify import Verifier


class KeywordJudge:
    """A judge that says a text answers when it holds the keyword."""

    threshold = 0.5

    def __init__(self, keyword):
        self.keyword = keyword

    def score(self, question, texts):
        return np.array([0.9 if self.keyword in t else 0.1 for t in texts])


def generator(answer, judge=None):
    return Generator({"offline": FakeWriter("offline", [answer])}, "offline", verifier=Verifier(FakeEmbedder(), 0.3),
                     judge=judge)


def request(question="Who discovered penicillin?", halachic=False):
    return WriteRequest(question, "factual_lookup", make_hits(), halachic=halachic)


def test_a_decline_keeps_what_the_sources_do_say_and_drops_what_they_do_not():
    draft = Draft(f"{CANNOT_ANSWER} {found_text('en')} Alexander Fleming was a Scottish physician [1]. "
                  "Penguins fly to the moon [2].", declined=True)
    answer = generator(draft).answer(request())
    assert answer.declined and answer.text == f"{CANNOT_ANSWER} {found_text('en')} Alexander Fleming was a Scottish physician [1]."
    assert [c.n for c in answer.citations] == [1] and answer.removed_claims == ["Penguins fly to the moon."]


def test_a_decline_with_nothing_supported_names_the_nearest_passages_cited():
    answer = generator(Draft(f"{CANNOT_ANSWER} {found_text('en')} Penguins fly [2].", declined=True)).answer(request())
    assert answer.declined and answer.removed_claims == ["Penguins fly."] and found_text("en") not in answer.text
    assert answer.text == (f"{CANNOT_ANSWER} {NEAREST['en']} Alexander Fleming [1]; Geography 1:2 [2]; "
                           "Ancient Rome [3].")  # each passage by its ref, else its title
    assert [(c.n, c.passage_id) for c in answer.citations] == [(1, "fleming#0"), (2, "everest#0"), (3, "rome#0")]
    hebrew = generator(Draft(CANNOT_ANSWER, declined=True)).answer(dataclasses.replace(request(), language="he"))
    assert hebrew.text.startswith(f"{DECLINE['he']} {NEAREST['he']} Alexander Fleming [1]")


def test_a_model_answer_that_misses_the_question_becomes_the_honest_decline():
    missing = generator("Mount Everest is Earth's highest mountain above sea level [2].", KeywordJudge("penicillin"))
    answer = missing.answer(request())
    assert answer.declined and answer.text.startswith(CANNOT_ANSWER) and "[2]" in answer.text and answer.answerability == 0.0
    answering = generator("Alexander Fleming discovered penicillin in 1928 [1].", KeywordJudge("penicillin"))
    answer = answering.answer(request())
    assert not answer.declined and answer.answerability == 0.9


@pytest.mark.parametrize("line, kept", [("2026 − 1928 = 98 years.", True), ("2026 − 1928 = 99 years.", False)])
def test_a_computation_stands_only_when_it_is_right(line, kept):
    answer = generator(f"He discovered penicillin in 1928 [1].\n{line}").answer(request("How many years since 2026?"))
    assert (line in answer.text) is kept and not answer.declined


def test_a_religious_law_answer_teaches_the_sources_and_ends_with_the_rabbi_line():
    answer = generator("You may climb Everest on Shabbat [2]. Mount Everest is Earth's highest mountain above sea "
                       "level [2].").answer(request("May I climb Everest on Shabbat?", halachic=True))
    assert "You may" not in answer.text and "You may climb Everest on Shabbat." in answer.removed_claims
    assert answer.text.endswith(rabbi_line("en")) and "highest mountain" in answer.text
    declined = generator(CANNOT_ANSWER).answer(request("May I?", halachic=True))
    assert declined.declined and rabbi_line("en") not in declined.text  # a decline rules on nothing


def test_the_offline_writers_quoted_sentences_are_the_sources_voice_and_stay():
    hits = make_hits()
    hits[0] = dataclasses.replace(hits[0], chunk=dataclasses.replace(
        hits[0].chunk, text="One must wash the hands three times in the morning."))
    asked = WriteRequest("Must I wash my hands in the morning?", "factual_lookup", hits, halachic=True)
    quoted = generator(Draft("One must wash the hands three times in the morning [1].", quoted=True)).answer(asked)
    assert "One must wash the hands" in quoted.text and not quoted.removed_claims
    written = generator("One must wash the hands three times in the morning [1].").answer(asked)
    assert written.removed_claims == ["One must wash the hands three times in the morning."]


def test_a_checked_computation_answers_a_calculation_without_the_judge():
    answer = generator("He discovered penicillin in 1928 [1].\n2026 − 1928 = 98 years.", KeywordJudge("never")).answer(
        request("How many years since 2026?"))
    assert not answer.declined and "= 98 years" in answer.text


def test_a_decline_keeps_the_judges_probability():
    draft = Draft("Penguins fly to the moon [2].", answerability=0.2)
    answer = generator(draft).answer(request())
    assert answer.declined and answer.answerability == 0.2


@pytest.mark.parametrize("claim, declined", [
    ("He discovered penicillin in 1928 [1].", True),  # its passage is about Fleming, not Everest
    ("Mount Everest is Earth's highest mountain above sea level [2].", True),  # how tall: no number
    ("Mount Everest is 8,849 metres high [2].", False),
])
def test_a_model_claim_counts_as_answering_only_as_an_offline_sentence_would(claim, declined):
    hits = make_hits()
    hits[1] = dataclasses.replace(hits[1], chunk=dataclasses.replace(
        hits[1].chunk, text="Mount Everest is Earth's highest mountain above sea level. It is 8,849 metres high."))
    asked = WriteRequest("How tall is Mount Everest?", "factual_lookup", hits)
    assert generator(claim, KeywordJudge("")).answer(asked).declined is declined
