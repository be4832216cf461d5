"""The glossary: questions in English or everyday Hebrew gain the words the texts use."""
import json
import re
from pathlib import Path

import pytest

from hebrew import glossary
from hebrew.analyzer import analyze
from hebrew.normal import POINTS
from search.bm25 import BM25

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
TABLE = "# test table\nhot plate\tכירה\nwater\tמים\ngrace after meals\tברכת המזון\ncook\tבשול/מבשל\nפלטה\tכירה\n"


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "glossary.tsv"
    path.write_text(TABLE, encoding="utf-8")
    return glossary.load(path)


def test_keys_match_whole_phrases_first_and_forgive_endings_and_prefixes(table):
    assert glossary.matches("Cooking water on a hot plate?", table) == [("cook",), ("water",), ("hot", "plate")]
    assert glossary.matches("Is GRACE after meals said?", table) == [("grace", "after", "meals")]
    assert glossary.matches("The plate is hot", table) == []  # the words of a phrase, but not the phrase
    assert glossary.matches("מותר להחזיר סיר לפלטה?", table) == [("פלטה",)]
    assert glossary.matches("cooked, cooks, waters", table) == [("cook",), ("cook",), ("water",)]


def test_an_entry_adds_one_search_word_per_slot_with_its_alternatives_and_their_forms(table):
    words = glossary.query_words("grace after meals", table)
    assert words[:3] == [["grace"], ["after"], ["meals"]]  # the question's own words stay
    assert words[3:] == [["ברכת", "רכת"], ["המזונ", "מזונ"]]  # final letters unified, prefix-less forms added
    assert [slot.word for slot in glossary.slots("grace after meals", table)] == ["ברכת", "המזון"]
    cook = glossary.query_words("how to cook", table)[-1]
    assert cook == ["בשול", "שול", "מבשל", "בשל"]


def test_an_english_question_finds_a_hebrew_passage_only_through_the_glossary(table):
    passages = ["מים שהוחמו מערב שבת מותר להניחם על הכירה", "ישתדל אדם להתפלל בבית הכנסת",
                "יתגבר כארי לעמוד בבוקר", "אסור לבשל בשר בחלב"]
    index = BM25.index([analyze(p) for p in passages])
    question = "May I leave water on the hot plate?"
    assert not index.scores_any(glossary.analyze_query(question)).any()  # no English word is in the text
    scores = index.scores_any(glossary.query_words(question, table))
    assert scores[0] > 0 and not scores[1:].any()


def test_dense_search_gets_only_the_glossary_words_the_library_contains(table):
    hebrew = {"מימ", "כירה", "שבת"}  # a Hebrew library's vocabulary (final letters unified)
    assert glossary.with_text_words("Water on a hot plate?", hebrew, table) == "Water on a hot plate? מים כירה"
    assert glossary.with_text_words("Water on a hot plate?", {"water", "plate"}, table) == "Water on a hot plate?"
    assert glossary.with_text_words("מותר להחזיר לפלטה?", hebrew, table) == "מותר להחזיר לפלטה? כירה"


def test_the_projects_glossary_reads_whole_and_has_no_key_twice():
    lines = [line for line in glossary.GLOSSARY.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    keys = [line.split("\t")[0] for line in lines]
    assert all(len(line.split("\t")) == 2 for line in lines) and len(keys) == len(set(keys))
    table = glossary.load()
    assert len(table) == len(lines) > 300  # every line became an entry: none too long, none without words
    assert sum(all(re.fullmatch(r"[a-z' -]+", w) for w in key) for key in table) > 250  # English
    assert sum(all(re.search("[א-ת]", w) for w in key) for key in table) > 80  # everyday Hebrew


@pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")
def test_every_word_the_glossary_searches_for_is_in_the_shulchan_arukh():
    terms = set(analyze(POINTS.sub("", "\n".join(json.loads(line)["he"] for line in SHARED_SA.open(encoding="utf-8")))))
    missing = [(key, slot) for key, slots in glossary.load().items() for slot in slots if not terms & set(slot.terms)]
    assert not missing, f"slots whose words the Shulchan Arukh never uses: {missing[:10]}"
