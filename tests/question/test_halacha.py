"""Questions of religious law: told by their evidence and words; rulings in the writer's own voice recognised."""
import pytest

from models import Chunk, Hit
from question.halacha import is_halachic, rabbi_line, rules


def hit(ref):
    return Hit(Chunk(ref or "x", "d", "t", "text", 0, 4, (), ref), 1.0, 0.5, 0.5)


SA = "Shulchan Arukh, Orach Chayim 318:1"


@pytest.mark.parametrize("question, refs, expected", [
    ("האם מותר לחמם מים בשבת?", [SA, SA, None], True),  # most passages are halacha
    ("Is it permitted to cook on Shabbat?", [SA, None, None], True),  # one is, and the question asks the law
    ("Who wrote this seif?", [SA, None, None], False),
    ("Who discovered penicillin?", [None, None], False),
])
def test_a_question_is_halachic_by_its_evidence_and_words(question, refs, expected):
    assert is_halachic(question, [hit(r) for r in refs]) is expected


@pytest.mark.parametrize("claim, ruling", [
    ("You may heat water before Shabbat [1].", True),
    ("One must not cook on Shabbat.", True),
    ("מותר לך לחמם מים [1].", True),
    ("The Shulchan Arukh rules that cooking on Shabbat is forbidden [1].", False),
    ('The Rema writes: "you may rely on this in a time of need" [2].', False),  # the source's voice, quoted
    ("The Shulchan Arukh rules that one may not cook on Shabbat [1].", False),  # attributed to its source
    ("According to the Rema, one may rely on this in a time of need [2].", False),
    ("לדעת הרמ\"א מותר לך לסמוך על זה [2].", False),
    ("You must hold the cup in the right hand [1].", True),  # "hold" is the act, not a source's ruling
])
def test_rulings_in_the_writers_own_voice_are_recognised(claim, ruling):
    assert rules(claim) is ruling


def test_the_closing_line_is_in_the_answers_language():
    assert "rabbi" in rabbi_line("en") and "לרב" in rabbi_line("he") and rabbi_line("fr") == rabbi_line("en")
