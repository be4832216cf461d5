"""A follow-up's pronoun is replaced by what it refers to, not joined to the previous question."""
import pytest

from question.asks import names_of
from question.follow_up import rewrite_offline


def after(previous: str, question: str, answer: str = "") -> str:
    return rewrite_offline([{"question": previous, "standalone_question": previous, "answer": answer}], question)


@pytest.mark.parametrize("previous, question, standalone", [
    ("Who was Albert Einstein?", "And when was he born?", "When was Albert Einstein born?"),
    ("How tall is the Eiffel Tower?", "When was it built?", "When was the Eiffel Tower built?"),
    ("What is photosynthesis?", "Where does it happen?", "Where does photosynthesis happen?"),
    ("Who was Marie Curie?", "What did she discover?", "What did Marie Curie discover?"),
    ("Who was Marie Curie?", "Where was her laboratory?", "Where was Marie Curie's laboratory?"),
    ("מי היה אלברט איינשטיין?", "ומתי הוא נולד?", "מתי אלברט איינשטיין נולד?"),
])
def test_the_pronoun_becomes_what_the_previous_question_was_about(previous, question, standalone):
    assert after(previous, question) == standalone


def test_after_a_question_for_a_person_he_is_the_person_the_answer_names():
    answer = "War and Peace is an epic novel by the Russian author Leo Tolstoy [1]."
    assert after("Who wrote War and Peace?", "When did he die?", answer) == "When did Leo Tolstoy die?"
    fleming = "Sir Alexander Fleming was a Scottish physician and microbiologist [1]. He shared the Nobel Prize [1]."
    assert after("Who discovered penicillin?", "Where was he born?", fleming) == "Where was Sir Alexander Fleming born?"


def test_without_an_antecedent_the_questions_are_joined_as_before():
    assert after("Who discovered penicillin?", "When did he die?", "The sources do not say.") == \
        "Who discovered penicillin? When did he die?"


def test_a_pronoun_of_the_wrong_kind_is_not_replaced():
    assert after("Who was Marie Curie?", "When was it built?") == "Who was Marie Curie? When was it built?"


def test_a_long_run_of_repeated_words_is_no_name_and_costs_nothing_to_read():
    # Schemathesis found it: a session's earlier question of 500 "0"s made every later follow-up take seconds, as the
    # name's pattern tried every way to match its words (now a run of more than eight words is no name).
    shout = "0 " * 500
    assert names_of(shout) == [] and names_of("Who was Leo Tolstoy?") == [["Leo", "Tolstoy"]]
    assert after(shout, "Is it?").endswith("0 0 Is it?")
