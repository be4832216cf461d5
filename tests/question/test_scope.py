"""A question that names a section of a work, read into its search's filters without a model (question/scope.py)."""
import pytest

from question.scope import scope_of, section_asked

WORKS = [
    {"document_id": "tea", "work": "Kettles and Tea", "title": "Kettles and Tea", "author": "Miriam Cohen",
     "instructor": "Miriam Cohen", "course": True, "sections": [{"number": 1}, {"number": 2}]},
    {"document_id": "sa", "work": "Shulchan Arukh", "title": "Shulchan Arukh", "author": None, "instructor": None,
     "course": False, "sections": [{"number": 2}, {"number": 318}]},
]
TURNS = [{"question": "Who teaches the kettles course?", "answer": "Miriam Cohen teaches it [1]."}]


@pytest.mark.parametrize("question, number", [
    ("What does lesson 2 of the tea course say?", 2), ("Siman 318: cooking on Shabbat", 318),
    ("מה כתוב בסימן שיח?", 318), ("מה נאמר בפרק 3?", 3), ("Who discovered penicillin?", None),
    ("What happened in 1928?", None)])
def test_the_section_a_question_names(question, number):
    assert section_asked(question) == number


def test_a_named_work_a_pointing_phrase_or_none():
    assert scope_of("What does lesson 2 of the tea course say?", [], WORKS) == {"section": 2, "document_ids": ["tea"]}
    assert scope_of("And lesson 2 of that course?", TURNS, WORKS) == {"section": 2, "document_ids": ["tea"]}
    assert scope_of("What does siman 318 say about cooking?", TURNS, WORKS) == {"section": 318}  # tea has no 318
    assert scope_of("What is in lesson 9?", TURNS, WORKS) is None  # no work has one: searched whole
    assert scope_of("Who discovered penicillin?", TURNS, WORKS) is None


def test_a_named_work_without_such_a_section_searches_the_question_whole():
    assert scope_of("What happened in chapter 2 of the French Revolution?", [], WORKS) is None
    assert scope_of("What does lesson 2 of that course say?", [], WORKS) is None  # no turn named a course
