"""Calculation questions offline: the operation and operands read from the question, each figure found in a sentence
that states it, and the arithmetic line checked (right, and made only of cited or asked figures)."""
import pytest

from checks.arithmetic import holds, is_arithmetic
from writers.calculation import calculate, numbers, plan

SENTENCES = [
    (1, 0, "Ancient Rome was a civilisation that began as a city on the Tiber. By tradition, Rome was founded in 753 BC."),
    (2, 0, "The Berlin Wall was a guarded barrier that divided Berlin from 1961 to 1989."),
    (2, 1, "It fell on 9 November 1989, opening the border between East and West Germany."),
    (3, 0, "Edison held 1,093 US patents in his name."),
    (4, 0, "Alfred Nobel held 355 different patents."),
]
HEADINGS = {1: "Ancient Rome", 2: "Berlin Wall", 3: "Thomas Edison", 4: "Alfred Nobel"}


@pytest.mark.parametrize("question, expected", [
    ("How many years passed between 1492 and 1776?", ("years", "1492", "1776")),
    ("How many years passed between the founding of Rome and the fall of the Berlin Wall?",
     ("years", "the founding of Rome", "the fall of the Berlin Wall")),
    ("How many more patents did Edison hold than Nobel?", ("difference", "Edison", "Nobel")),
    ("What is the difference between 10 and 4?", ("difference", "10", "4")),
    ("How many years after the Erie Canal was finished did the Brooklyn Bridge open?",
     ("years", "the Erie Canal was finished", "the Brooklyn Bridge open")),
    ("What is the difference between a virus and a bacterium?", None),  # not a calculation
    ("Who discovered penicillin?", None),
])
def test_the_question_names_the_operation_and_its_operands(question, expected):
    assert plan(question) == expected


def test_years_bc_count_backwards_and_thousands_separators_are_read():
    assert [v for v, _ in numbers("founded in 753 BC and fell in 1989")] == [-753.0, 1989.0]
    assert [v for v, _ in numbers("held 1,093 patents")] == [1093.0]
    for written in ("753 BCE", "753 B.C.E.", "753 B.C.", "753 bc", "753 לפנה״ס"):
        assert [v for v, _ in numbers(f"founded in {written} by Romulus")] == [-753.0], written


def test_a_scale_word_is_part_of_the_figure():
    assert [v for v, _ in numbers("Tokyo has 14 million people and Osaka 2,750,000")] == [14e6, 2.75e6]
    figures, line = calculate("How many more people does Tokyo have than Osaka?",
                              [(1, 0, "Tokyo has 14 million people."), (2, 0, "Osaka has 2,750,000 people.")],
                              {1: "Tokyo", 2: "Osaka"})
    assert line == "14,000,000 − 2,750,000 = 11,250,000." and holds(line, "14 million 2,750,000")


def test_the_figure_is_the_one_after_the_event_not_an_earlier_one():
    sentences = [(1, 0, "Constantinople, founded in 330, fell to the Ottomans in 1453."),
                 (2, 0, "The Western Roman Empire fell in 476.")]
    figures, line = calculate("How many years passed between the fall of the Western Roman Empire and the fall of "
                              "Constantinople?", sentences, {1: "Constantinople", 2: "Western Roman Empire"})
    assert [f.value for f in figures] == [476.0, 1453.0] and line == "1453 − 476 = 977 years."


def test_figures_are_found_in_the_sentences_that_state_them_and_computed():
    figures, line = calculate("How many years passed between the founding of Rome and the fall of the Berlin Wall?",
                              SENTENCES, HEADINGS)
    assert [f.value for f in figures] == [-753.0, 1989.0] and [f.source[0] for f in figures] == [1, 2]
    assert line == "1989 − (−753) − 1 = 2,741 years."  # no year 0 between 1 BC and AD 1
    assert holds(line, " ".join(s for _, _, s in SENTENCES))
    figures, line = calculate("How many more patents did Edison hold than Nobel?", SENTENCES, HEADINGS)
    assert line == "1,093 − 355 = 738." and holds(line, "1,093 patents 355 patents")


def test_a_figure_no_passage_gives_is_named_instead_of_guessed():
    figures, line = calculate("How many years passed between the founding of Carthage and the fall of the Berlin Wall?",
                              SENTENCES)
    assert line == "" and [f.words for f in figures if f.value is None] == ["the founding of Carthage"]


@pytest.mark.parametrize("line, given, ok", [
    ("1776 − 1492 = 284 years.", "between 1492 and 1776", True),
    ("1776 − 1492 = 285 years.", "between 1492 and 1776", False),  # wrong arithmetic
    ("1776 − 1490 = 286 years.", "between 1492 and 1776", False),  # a figure nobody gave
    ("10 ÷ 4 = 2.5.", "10 and 4", True),
    ("5 ÷ 2 = 2.", "5 and 2", False),  # rounded away: not the result
    ("2 ÷ 3 = 1.", "2 and 3", False),
    ("2 ÷ 3 = 0.667.", "2 and 3", True),
    ("3.125 × 2 = 6.25.", "3.125 and 2", True),
    ("1776 × 0.2 = 355.2.", "1776", False),  # a factor nobody gave
    (" + ".join(["1"] * 400) + " = 400.", "1", False),  # too long to be a computation of figures
])
def test_an_arithmetic_line_holds_only_when_right_and_sourced(line, given, ok):
    assert is_arithmetic(line) and holds(line, given) is ok


def test_prose_with_numbers_is_not_arithmetic():
    assert not is_arithmetic("It fell in 1989 [1].") and not is_arithmetic("= 3")


def test_a_sentence_naming_both_events_gives_its_number_to_the_nearer_one_only():
    both = (1, 0, "Having survived the fall of the Western Roman Empire in the 5th century AD, it endured until the "
                  "fall of Constantinople to the Ottoman Empire in 1453.")
    question = "How many years passed between the fall of the Western Roman Empire and the fall of Constantinople?"
    figures, line = calculate(question, [both], {1: "Byzantine Empire"})
    assert [f.value for f in figures] == [None, 1453.0] and line == ""
    figures, line = calculate(question, [both, (2, 0, "The Western Roman Empire fell in 476.")],
                              {1: "Byzantine Empire", 2: "Fall of the Western Roman Empire"})
    assert line == "1453 − 476 = 977 years." and [f.source[0] for f in figures] == [2, 1]


def test_a_sentence_that_names_the_event_without_its_figure_gives_none():
    gibbon = (1, 0, "The six volumes cover, from 98 to 1590, the peak of the Roman Empire, the history of early "
                    "Christianity and its emergence as the Roman state religion, the fall of the Western Roman Empire.")
    figures, line = calculate("How many years passed between the fall of the Western Roman Empire and the fall of "
                              "Constantinople?", [gibbon, (2, 0, "Constantinople fell to the Ottomans in 1453.")],
                              {1: "The History of the Decline and Fall of the Roman Empire", 2: "Constantinople"})
    assert figures[0].value is None and line == ""


def test_a_count_is_the_number_of_the_thing_counted_not_any_number_near_the_name():
    sentences = [(1, 0, "Edison registered 1,093 patents in the United States."),
                 (2, 0, "The prizes were first awarded in 1901, marking the fifth anniversary of Alfred Nobel's death.")]
    question = "How many more patents did Thomas Edison register than Alfred Nobel held?"
    figures, line = calculate(question, sentences, {1: "Thomas Edison", 2: "Nobel Prize"})
    assert figures[1].value is None and line == ""
    figures, line = calculate(question, [*sentences, (3, 0, "Alfred Nobel held 355 different patents.")],
                              {1: "Thomas Edison", 2: "Nobel Prize", 3: "Alfred Nobel"})
    assert line == "1,093 − 355 = 738."
