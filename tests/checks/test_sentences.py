"""Which sentences can answer at all: from a passage that names at least half of what the question names, and, for
a question asking how many or when, one that holds a number or a date."""
import pytest

from models import Chunk, Hit
from checks.sentences import about, anchors, fits


def hit(title, text):
    return Hit(Chunk(f"{title}#0", title, title, text, 0, len(text)), 1.0, 0.5, 0.8)


@pytest.mark.parametrize("question, title, text, expected", [
    ("How tall is Victoria Falls?", "Angel Falls", "Angel Falls is the world's tallest waterfall, 979 metres high.",
     True),  # half of the names: about it enough here; agreement.py finds the sentence about another waterfall
    ("How tall is Victoria Falls?", "Victoria Falls", "Victoria Falls is a waterfall on the Zambezi.", True),
    ("Who was the Beatles' manager?", "Franz Beckenbauer", "Beckenbauer was a German football manager.", False),
    ("Which pope made the Sagrada Familia in Barcelona a basilica?", "Sagrada Família",
     "The Sagrada Família is a church in Barcelona.", True),  # accents aside, and more than half of the names
    ("Who discovered penicillin?", "Alexander Fleming", "He discovered penicillin in 1928.", True),  # names nothing
])
def test_a_passage_is_about_the_question_when_it_names_most_of_what_the_question_names(question, title, text, expected):
    assert about(anchors(question), hit(title, text)) is expected


@pytest.mark.parametrize("question, sentence, expected", [
    ("How tall is the Eiffel Tower?", "The Eiffel Tower is a lattice tower on the Champ de Mars.", False),
    ("How tall is the Eiffel Tower?", "It is 330 metres tall.", True),
    ("When did the Berlin Wall fall?", "It fell on the ninth of November.", True),
    ("How many moons does Saturn have?", "Saturn has eighty-three moons.", True),
    ("Who wrote War and Peace?", "War and Peace is a novel by Leo Tolstoy.", True),  # asks for no number
])
def test_a_question_asking_how_many_or_when_is_answered_only_by_a_sentence_with_a_number(question, sentence, expected):
    assert fits(question, sentence) is expected


def test_a_giant_passage_gives_no_giant_sentence():
    from models import MAX_PASSAGE_READ, Chunk, Hit
    from checks.sentences import MAX_SENTENCE_CHARS, candidates

    giant = "z" * MAX_PASSAGE_READ  # stored before uploads were cut to size, as retrieval hands it on
    hits = [Hit(Chunk("old#0", "old", "Old upload", giant, 0, len(giant)), 1.0, 0.5, 0.8),
            Hit(Chunk("zebra#0", "zebra", "Zebra", "Zebras are African equines. They have stripes.", 0, 47), 1.0, 0.5, 0.8)]
    found = candidates(hits)
    assert found and all(len(sentence) <= MAX_SENTENCE_CHARS for _, _, sentence in found)
    assert [s for n, _, s in found if n == 2] == ["Zebras are African equines.", "They have stripes."]
