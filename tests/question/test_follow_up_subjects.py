"""Follow-ups that name a subject or a condition of their own, rewritten into one standalone question (follow_up.py
rules (c) and the condition): the follow-up's words are kept, its openers dropped, the previous question's frame
kept; and no follow-up loses a word, whichever rule applies."""
import pytest

from question.follow_up import FUNCTION_WORDS, norm, rewrite_offline

MEAT_MILK = "How long must one wait between meat and milk?"
MEAT_MILK_HE = "כמה זמן צריך לחכות בין בשר לחלב?"
SHABBAT = "Is it permitted to heat water on Shabbat?"
SHABBAT_HE = "האם מותר לחמם מים בשבת?"
BREAD_HE = "איזו ברכה מברכים על הלחם?"


def after(previous: str, question: str) -> str:
    """The standalone question of question after one turn that asked previous."""
    return rewrite_offline([{"question": previous, "standalone_question": previous, "answer": "[1]"}], question)


@pytest.mark.parametrize("previous, question, standalone", [
    # X relates its subjects its own way and shares them with P's last phrase: it stands for the whole phrase
    (MEAT_MILK_HE, "ומה לגבי חלב אחרי בשר?", "כמה זמן צריך לחכות חלב אחרי בשר?"),
    (MEAT_MILK, "And what about milk after meat?", "How long must one wait milk after meat?"),
    # X is a bare subject: it stands for the object of P's last phrase, whose preposition stays
    (MEAT_MILK, "What about fish and milk?", "How long must one wait between fish and milk?"),
    (MEAT_MILK_HE, "ומה לגבי עוף וגבינה?", "כמה זמן צריך לחכות בין עוף וגבינה?"),
    ("What is the capital of France?", "And Germany?", "What is the capital of Germany?"),
    (BREAD_HE, "ומה לגבי פירות העץ?", "איזו ברכה מברכים על פירות העץ?"),
    ("Is it permitted to heat water in the oven?", "And the microwave?", "Is it permitted to heat water in the microwave?"),
])
def test_a_subject_of_its_own_takes_its_place_in_the_previous_question(previous, question, standalone):
    assert after(previous, question) == standalone


@pytest.mark.parametrize("previous, question, standalone", [
    (SHABBAT_HE, "ואם אין מים חמים?", "האם מותר לחמם מים בשבת אם אין מים חמים?"),
    (SHABBAT_HE, "ומה אם המים כבר חמים?", "האם מותר לחמם מים בשבת אם המים כבר חמים?"),
    (SHABBAT, "And if the water is already hot?", "Is it permitted to heat water on Shabbat if the water is already hot?"),
    (SHABBAT, "What if it is cold?", "Is it permitted to heat water on Shabbat if it is cold?"),  # "it" is no referent
])
def test_a_condition_is_added_to_the_previous_question(previous, question, standalone):
    assert after(previous, question) == standalone


@pytest.mark.parametrize("previous, question", [
    (SHABBAT, "what about cooking?"),  # Shabbat is a day: cooking does not stand for it
    (SHABBAT_HE, "ומה עם בישול?"),
    (MEAT_MILK_HE, "ומה לגבי עוף?"),  # "between" wants two things, and X names one
    ("Who discovered penicillin?", "What about insulin?"),  # P has no phrase for X to stand in
    (SHABBAT, "What if?"),  # a condition with nothing in it
    ("What is the capital of France?", "what about the population?"),  # a name and a common noun are not alike
    ("What was the population of Paris in 2020?", "and London?"),  # a year is a time, not a place for London
    ("What did Einstein say about quantum mechanics?", "and Bohr?"),
])
def test_what_the_rules_cannot_place_is_joined_whole(previous, question):
    assert after(previous, question) == f"{previous} {question}"


@pytest.mark.parametrize("previous, question", [
    (MEAT_MILK_HE, "ומה לגבי חלב אחרי בשר?"), (MEAT_MILK, "and what about milk after meat?"),
    (MEAT_MILK_HE, "ומה לגבי עוף?"), (SHABBAT_HE, "ומה ביום טוב?"), (SHABBAT, "what about cooking?"),
    (BREAD_HE, "ומה לגבי פירות?"), (SHABBAT_HE, "ואם אין מים חמים?"), (SHABBAT, "and on Yom Tov?"),
    ("What is the capital of France?", "and of Germany?"),
])
def test_no_follow_up_loses_a_word(previous, question):
    standalone = {norm(w) for w in after(previous, question).split()}
    kept = {norm(w) for w in question.split()} - FUNCTION_WORDS
    assert kept and kept <= {w for s in standalone for w in (s, s[1:])}  # בשבת holds שבת's place as ביום holds יום
    assert norm(previous.split()[0]) in standalone  # the previous question's frame stays
