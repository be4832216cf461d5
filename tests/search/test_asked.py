"""The questions written beside passages (search/asked.py, ingest/questions.py): a passage is found by the words
people ask it in, never shown as them, and only the documents they were written for carry them."""
import json

import pytest
from builders import GLOSS, OTHER, RULINGS, SEIF, ruled_entry
from conftest import FakeEmbedder

from ingest.questions import QuestionsError, attach, read_questions
from retrieval import RetrievalConfig, Retriever
from search import english
from search.library import Library

QUESTIONS = [
    {"id": "q1", "ref": OTHER, "language": "en", "text": "Can I leave my kettle beside the stove?"},
    {"id": "q2", "ref": GLOSS, "language": "en", "text": "Is a toasted sandwich allowed in a hot plate tray?"},
    {"id": "q3", "ref": OTHER, "language": "he", "text": "מותר לשים קומקום ליד הכיריים?"},
    {"id": "q4", "ref": "Shulchan Arukh, Orach Chayim 999:1", "language": "en", "text": "A ref no passage has?"},
]


def write(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def library(tmp_path):
    lib = Library.open(tmp_path / "lib", FakeEmbedder(), create=True)
    lib.replace_documents([ruled_entry(tier="canonical")])
    return lib


def search(lib, query, weight=0.5):
    return Retriever(lib, FakeEmbedder(), config=RetrievalConfig(asked_weight=weight)).search(query, top_k=3)


def test_a_passage_is_found_by_the_words_its_questions_use(library, tmp_path):
    assert search(library, "kettle stove")[0].chunk.ref != OTHER  # no word of the passage is asked
    counts = attach(library, write(tmp_path / "q.jsonl", QUESTIONS))
    assert counts == {"questions": 4, "documents": 1, "added": 3, "unplaced": 1}
    hits = search(library, "kettle stove")
    assert hits[0].chunk.ref == OTHER
    assert hits[0].chunk.text == RULINGS[2][3]  # the passage's own text is shown, never a question
    assert search(library, "קומקום ליד הכיריים")[0].chunk.ref == OTHER  # the Hebrew one, by the Hebrew analyzer
    assert search(library, "toasted sandwiches")[0].chunk.ref == GLOSS  # the gloss's own question, stemmed


def test_a_hit_keeps_its_passages_own_score_as_without_questions(library, tmp_path):
    """The decision reads search's scores for seifim too (checks/decision.py): a passage's own score must not move
    when questions are written beside it, though its hybrid score rises by their share."""
    before = {h.chunk.ref: h for h in search(library, "kettle stove bread")}
    assert all(h.own_score == h.hybrid_score for h in before.values())
    attach(library, write(tmp_path / "q.jsonl", QUESTIONS))
    after = {h.chunk.ref: h for h in search(library, "kettle stove bread")}
    assert after[OTHER].hybrid_score > before[OTHER].hybrid_score  # its question's share
    for ref in before.keys() & after.keys():
        assert after[ref].own_score == pytest.approx(before[ref].hybrid_score)


def test_weight_zero_searches_as_without_questions(library, tmp_path):
    before = [h.chunk.ref for h in search(library, "kettle stove bread", weight=0)]
    attach(library, write(tmp_path / "q.jsonl", QUESTIONS))
    assert [h.chunk.ref for h in search(library, "kettle stove bread", weight=0)] == before


def test_questions_are_kept_with_the_library_and_survive_its_edits(library, tmp_path):
    attach(library, write(tmp_path / "q.jsonl", QUESTIONS))
    assert attach(library, tmp_path / "q.jsonl")["added"] == 0  # the same questions again add nothing
    library.replace_documents([ruled_entry("other", [(f"Other {SEIF}", None, None, "An unrelated passage.")])])
    assert search(library, "kettle stove")[0].chunk.ref == OTHER
    reopened = Library.open(library.folder, FakeEmbedder())
    assert len(reopened.current().asked) == 3
    assert search(reopened, "kettle stove")[0].chunk.ref == OTHER
    reopened.delete_document("sa")  # the questions go with their document
    assert reopened.current().asked is None


def test_an_upload_reusing_a_books_refs_does_not_borrow_its_questions(tmp_path):
    lib = Library.open(tmp_path / "lib", FakeEmbedder(), create=True)
    lib.replace_documents([ruled_entry("mine", tier=None)])
    assert attach(lib, write(tmp_path / "q.jsonl", QUESTIONS))["documents"] == 0  # not canonical: not vouched for
    assert lib.current().asked is None
    assert attach(lib, tmp_path / "q.jsonl", document="mine")["added"] == 3  # named by whoever runs the command
    with pytest.raises(QuestionsError, match="holds none of the refs"):
        attach(lib, tmp_path / "q.jsonl", document="nobody")


@pytest.mark.parametrize("line, message", [
    ("not json", "is not JSON"),
    ('{"ref": "x", "text": "y"}', "needs the strings ref, language and text"),
    ('{"ref": "x", "language": "fr", "text": "y"}', "write one of he, en"),
])
def test_a_bad_questions_file_names_its_line(tmp_path, line, message):
    path = tmp_path / "q.jsonl"
    path.write_text('{"ref": "a", "language": "en", "text": "fine?"}\n' + line + "\n")
    with pytest.raises(QuestionsError, match=message) as raised:
        read_questions(path)
    assert ":2" in str(raised.value)


def test_the_english_analyzer_folds_endings_and_leaves_function_words_out():
    assert english.analyze("Can I eat cheese after eating meat on the hot plates?") == [
        "eat", "cheese", "after", "eat", "meat", "hot", "plate"]
    assert [english.stem(w) for w in ("candles", "cities", "sitting", "passed", "glass", "dishes", "boxes")] == [
        "candle", "city", "sit", "pass", "glass", "dish", "box"]


def test_postgresql_searches_the_questions_and_import_library_carries_them(library, tmp_path, pg_db):
    """The same questions in PostgreSQL: moved in with the library, found the same way, hidden with their document."""
    from postgres.library import PgLibrary
    from postgres.moving_in import import_library
    from search.view import Scope

    attach(library, write(tmp_path / "q.jsonl", QUESTIONS))
    moved = PgLibrary.open(pg_db, FakeEmbedder())
    assert import_library(library.folder, moved)["questions"] == 3
    hits = search(moved, "kettle stove")
    assert hits[0].chunk.ref == OTHER and hits[0].chunk.text == RULINGS[2][3]
    assert search(moved, "toasted sandwiches")[0].chunk.ref == GLOSS
    hidden = Retriever(moved, FakeEmbedder(), config=RetrievalConfig(asked_weight=0.5)).search(
        "kettle stove", top_k=3, hidden=frozenset({"sa"}))
    assert hidden == []  # the only document is hidden: its questions reach nothing
    found = moved.current().candidates([["kettle"]], None, 10, Scope(excluded=frozenset({"sa"})), "kettle stove")
    assert found.asked is not None and not found.asked.bm25.any()


def test_a_seif_that_is_all_gloss_keeps_its_questions_on_the_gloss(tmp_path):
    lib = Library.open(tmp_path / "lib", FakeEmbedder(), create=True)
    lib.replace_documents([ruled_entry(rulings=RULINGS[1:], tier="canonical")])  # 318:5 is read as its gloss alone
    asked = [{"ref": SEIF, "language": "en", "text": "May I put a sandwich in a hot plate tray?"}]
    assert attach(lib, write(tmp_path / "q.jsonl", asked))["added"] == 1
    assert search(lib, "sandwich tray")[0].chunk.ref == GLOSS
