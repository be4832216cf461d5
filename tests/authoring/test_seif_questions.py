"""The lay questions beside every seif: gathered from the writers' lines, checked by script, kept apart from the lay
questions' test split; and the shipped file passes its own checks against ../shared's Shulchan Arukh."""
import json
from pathlib import Path

import pytest

from authoring import seif_questions

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
SHIPPED = Path(__file__).resolve().parents[2] / "data" / "seif-questions" / "questions.jsonl"
SEIF = {"ref": "Shulchan Arukh, Orach Chayim 318:1", "he": "המבשל בשבת במזיד אסור לו לעולם הגה ויש אומרים שמותר לאחרים"}
OTHER = {"ref": "Shulchan Arukh, Orach Chayim 318:2", "he": "מים שהוחמו בשבת אסורים ברחיצה"}


def lines(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_gather_names_each_question_by_its_passage_and_the_gloss_by_its_own_ref(tmp_path):
    out = lines(tmp_path / "sa-1.jsonl", [{"ref": "OC 318:1", "he": "מותר לאכול תבשיל שבושל בשבת?",
                                           "en": "Can I eat food cooked on Shabbat?", "gloss_he": "ואחרים מותר?",
                                           "gloss_en": "And may others eat it afterwards?"}])
    rows = seif_questions.gather([out])
    assert [(r["ref"], r["language"], r["of"]) for r in rows] == [
        ("Shulchan Arukh, Orach Chayim 318:1", "he", "seif"), ("Shulchan Arukh, Orach Chayim 318:1", "en", "seif"),
        ("Shulchan Arukh, Orach Chayim 318:1, Rema", "he", "gloss"),
        ("Shulchan Arukh, Orach Chayim 318:1, Rema", "en", "gloss")]
    assert len({r["id"] for r in rows}) == 4


def test_problems_finds_copies_repeats_unknown_refs_and_missing_questions(tmp_path):
    corpus = lines(tmp_path / "sa.jsonl", [SEIF, OTHER])
    rows = [
        {"id": "a", "ref": SEIF["ref"], "language": "he", "text": "מותר לאכול תבשיל שבושל בשבת?", "of": "seif"},
        {"id": "b", "ref": SEIF["ref"], "language": "en", "text": "Can I eat food cooked on Shabbat?", "of": "seif"},
        {"id": "c", "ref": SEIF["ref"] + ", Rema", "language": "he", "text": "ויש אומרים שמותר לאחרים?", "of": "gloss"},
        {"id": "d", "ref": OTHER["ref"], "language": "he", "text": "מותר לאכול תבשיל שבושל בשבת?", "of": "seif"},
        {"id": "e", "ref": "Shulchan Arukh, Orach Chayim 999:1", "language": "en", "text": "Nothing?", "of": "seif"},
    ]
    found = seif_questions.problems(rows, corpus)
    assert "c: copies 4 words in a row from its seif" in found
    assert "d: repeats a" in found
    assert any(p.startswith("e: ") and "no passage" in p for p in found)
    assert f"{SEIF['ref']}, Rema: no en question for the gloss" in found
    assert f"{OTHER['ref']}: no en question" in found
    assert not any(p.startswith(("a:", "b:")) for p in found)


def test_a_question_repeating_a_lay_test_question_is_dropped(tmp_path):
    lay = tmp_path / "lay"
    (lay / "qrels").mkdir(parents=True)
    lines(lay / "queries.jsonl", [{"_id": "t1", "text": "מותר לחמם מים על הפלטה בשבת?", "metadata": {"language": "he"}},
                                  {"_id": "r1", "text": "מה מברכים על תפוח?", "metadata": {"language": "he"}}])
    (lay / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nt1\tx\t1\n")
    rows = [{"id": "near", "language": "he", "text": "מותר לחמם מים על הפלטה בשבת?"},
            {"id": "apart", "language": "he", "text": "מה מברכים על תפוח?"},  # a train question: not the test's
            {"id": "english", "language": "en", "text": "May I heat water on Shabbat?"}]
    closeness = seif_questions.near_test(rows, lay)
    assert closeness["near"] == (1.0, "t1") and closeness["apart"][0] < seif_questions.NEAR
    assert [r["id"] for r in seif_questions.drop_near(rows, closeness)] == ["apart", "english"]


@pytest.mark.skipif(not SHARED_SA.exists(), reason="needs ../shared/data/shulchan-arukh (the seifim the questions name)")
def test_the_shipped_questions_cover_every_seif_and_break_no_rule():
    rows = [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]
    assert seif_questions.problems(rows, SHARED_SA) == []
    assert len(rows) >= 2 * 13_396
