"""The judge's lessons: the unseen third by title hash, repeats dropped with the test split kept, the checks, and
the pairs training reads from them."""
import hashlib
import json
from pathlib import Path

from authoring import lessons
from training.judge_lessons import lay_test_seif, lesson_pairs

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "judge-lessons"


def lines(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def titled(remainder: int) -> str:
    """A title whose SHA-256 is remainder modulo 3."""
    n = 0
    while int(hashlib.sha256(f"Lead {n}".encode()).hexdigest(), 16) % 3 != remainder:
        n += 1
    return f"Lead {n}"


def test_gather_splits_by_title_and_links_each_twin_to_its_question(tmp_path):
    seen, unseen = titled(0), titled(1)
    share = lines(tmp_path / "share.jsonl", [
        {"id": "s", "title": seen, "sentences": {"0": "The Mariana Trench is in the Pacific.", "1": "It is 10,994 m deep."}},
        {"id": "u", "title": unseen, "sentences": {"0": "Jupiter is the largest planet.", "1": "It orbits the Sun."}}])
    out = lines(tmp_path / "out.jsonl", [
        {"id": "s", "q": "How deep is the Mariana Trench?", "s": 1, "type": "how-far"},
        {"id": "s", "q": "How deep is the Puerto Rico Trench?", "s": None, "type": "how-far", "twin": "subject"},
        {"id": "u", "q": "What is the largest planet?", "s": 0, "type": "what"},
        {"id": "u", "q": "What is the second largest planet?", "s": None, "type": "what", "twin": "ordinal"}])
    rows = lessons.gather([(share, out)], "en", "wiki")
    assert [r["split"] for r in rows] == ["train", "train", "test", "test"]
    assert rows[1]["twin_of"] == rows[0]["id"] and rows[0]["sentences"] == ["It is 10,994 m deep."]
    passages = {"s": ["The Mariana Trench is in the Pacific.", "It is 10,994 m deep."],
                "u": ["Jupiter is the largest planet.", "It orbits the Sun."]}
    assert lessons.problems(rows, passages) == []
    pairs = lesson_pairs(rows, passages)
    assert {(p.question, p.text, p.label) for p in pairs} == {
        ("How deep is the Mariana Trench?", f"{seen}: It is 10,994 m deep.", 1.0),
        ("How deep is the Mariana Trench?", f"{seen}: The Mariana Trench is in the Pacific.", 0.0),
        ("How deep is the Puerto Rico Trench?", f"{seen}: It is 10,994 m deep.", 0.0),
        ("How deep is the Puerto Rico Trench?", f"{seen}: The Mariana Trench is in the Pacific.", 0.0)}  # no test


def test_repeats_are_dropped_keeping_the_test_splits_and_problems_are_named():
    rows = [
        {"id": "a", "language": "en", "question": "Who wrote Hamlet?", "split": "train"},
        {"id": "b", "language": "en", "question": "who wrote hamlet", "split": "test"},
        {"id": "c", "language": "he", "question": "Who wrote Hamlet?", "split": "train"}]
    assert [r["id"] for r in lessons.without_repeats(rows)] == ["b", "c"]
    bad = [{"id": "x", "language": "en", "set": "wiki", "passage": "p", "title": titled(1), "question": "Why?",
            "answer": [5], "sentences": ["Not it."], "type": "why", "twin": None, "twin_of": None, "split": "train"},
           {"id": "y", "language": "en", "set": "wiki", "passage": "p", "title": titled(0), "question": "Why not?",
            "answer": [], "sentences": [], "type": "why", "twin": None, "twin_of": None, "split": "train"}]
    found = lessons.problems(bad, {"p": ["One sentence."]})
    assert "x: an answering sentence is not one of p's" in found
    assert any(p.startswith("x:") and "unseen third" in p for p in found)
    assert any(p.startswith("y:") and "must be a twin" in p for p in found)


def test_the_lay_test_seifim_are_never_lessons():
    assert lay_test_seif("Shulchan Arukh, Orach Chayim 242:1")  # a seif the lay test split was written from
    assert lay_test_seif("Shulchan Arukh, Orach Chayim 242:1, Rema")  # and its gloss
    assert not lay_test_seif("Shulchan Arukh, Orach Chayim 249:2")


def test_the_shipped_lessons_train_on_no_lead_of_the_unseen_third():
    rows = [json.loads(line) for line in (SHIPPED / "en.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 8_000
    assert all(r["split"] == ("test" if lessons.unseen(r["title"]) else "train") for r in rows)
    assert len({lessons.normal(r["question"]) for r in rows}) == len(rows)
    he = (SHIPPED / "he.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["split"] == "train" for line in he)


def test_later_hebrew_writers_follow_the_first_so_its_lessons_keep_their_ids(tmp_path):
    from authoring.commands import hebrew_shares

    for name in ("heq-share.jsonl", "heq-share-10.jsonl", "heq-share-2.jsonl"):
        (tmp_path / name).write_text("")
    assert [(s.name, o.name) for s, o in hebrew_shares(tmp_path)] == [
        ("heq-share.jsonl", "heq.jsonl"), ("heq-share-2.jsonl", "heq-2.jsonl"), ("heq-share-10.jsonl", "heq-10.jsonl")]


def test_numbered_writers_are_read_in_the_order_of_their_number_and_the_test_share_apart(tmp_path):
    from authoring.commands import numbered_shares

    for name in ("en-share-10.jsonl", "en-share-2.jsonl", "en-test-share.jsonl"):
        (tmp_path / name).write_text("")
    assert [(s.name, o.name) for s, o in numbered_shares(tmp_path, "en")] == [
        ("en-share-2.jsonl", "en-2.jsonl"), ("en-share-10.jsonl", "en-10.jsonl")]
