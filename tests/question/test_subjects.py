"""Questions that name two subjects, in English and Hebrew, split into a search each (question/subjects.py), and the
offline answer that keeps each subject's evidence apart (pipeline.py, writers/offline.py)."""
import re

import pytest

from conftest import make_pipeline
from question.subjects import subjects
from writers.offline import ExtractiveWriter


@pytest.mark.parametrize("question, labels, queries", [
    ("Compare the laws of Shabbat and Yom Tov", ["Shabbat", "Yom Tov"], ["laws of Shabbat", "laws of Yom Tov"]),
    ("compare Rome with Greece?", ["Rome", "Greece"], ["Rome", "Greece"]),
    ("What is the difference between a virus and a bacterium?", ["a virus", "a bacterium"],
     ["a virus", "a bacterium"]),
    ("What do the Shulchan Arukh and the Rema say about cooking on Shabbat?", ["the Shulchan Arukh", "the Rema"],
     ["the Shulchan Arukh cooking on Shabbat", "the Rema cooking on Shabbat"]),
    ("מה ההבדל בין שבת ליום טוב?", ["שבת", "יום טוב"], ["שבת", "יום טוב"]),
    ('מה אומרים השולחן ערוך והרמ"א על בישול בשבת?', ["השולחן ערוך", 'הרמ"א'],
     ["השולחן ערוך בישול בשבת", 'הרמ"א בישול בשבת']),
])
def test_a_question_naming_two_subjects_gives_a_search_for_each(question, labels, queries):
    found = subjects(question)
    assert [s.label for s in found] == labels and [s.query for s in found] == queries


@pytest.mark.parametrize("question", ["Who discovered penicillin?", "What is the difference between tea and tea?",
                                      "How do Rome and Carthage differ", "Compare " + "x" * 300 + " and y",
                                      "מי גילה את הפניצילין?"])
def test_any_other_question_is_searched_whole(question):
    assert subjects(question) == []


def test_say_about_asks_what_each_says_of_the_topic():
    first, second = subjects("What do Rashi and the Rambam say about prayer?")
    assert first.about == second.about == "prayer" and second.question == "What does the Rambam say about prayer?"


def test_the_offline_answer_keeps_each_subjects_evidence_apart():
    pipeline = make_pipeline()
    pipeline.generator.writers["offline"] = ExtractiveWriter(pipeline.retriever.embedder)
    result = pipeline.ask("Compare Alexander Fleming and Mount Everest", provider="offline")
    searches = result.evidence.searches
    assert [s["query"] for s in searches] == ["Alexander Fleming", "Mount Everest"]
    ids = {n: h.chunk.doc_id for n, h in enumerate(result.evidence.hits, start=1)}
    assert ids[searches[0]["results"][0]] == "fleming" and ids[searches[1]["results"][0]] == "everest"
    answer = result.answer.text
    assert answer.startswith("Alexander Fleming:\n") and not result.answer.declined
    first, second = answer.split("Mount Everest:\n")
    assert {ids[c.n] for c in result.answer.citations} == {"fleming", "everest"}
    cited_first = {int(n) for n in re.findall(r"\[(\d+)\]", first)}
    cited_second = {int(n) for n in re.findall(r"\[(\d+)\]", second)}
    assert {ids[n] for n in cited_first} == {"fleming"} and {ids[n] for n in cited_second} == {"everest"}
