"""The pointed development set (data/eval/pointed-tanakh, measuring/pointed_set.py): its builder, the shipped files,
and, with the real multilingual-e5-small, dense search over pointed verses as good as over the same verses unpointed."""
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from measuring.pointed_set import KINDS, english_by_hebrew_verse, printed, questions, write_set
from hebrew.normal import POINTS, without_points

SET = Path(__file__).resolve().parents[2] / "data" / "eval" / "pointed-tanakh"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def as_the_package_writes(verse: str) -> str:
    """A printed verse in the package's layout: maqaf and sof pasuq spaced, a morpheme slash after each ו of a word."""
    verse = verse.replace("\u05BE", " \u05BE ").replace("\u05C3", " \u05C3")
    return " ".join(w[:2] + "/" + w[2:] if w.startswith("וְ") else w for w in verse.split())


def test_the_builder_writes_verses_as_printed_and_asks_each_kind(tmp_path):
    verses = read_jsonl(SET / "corpus.jsonl")[:400]
    db = tmp_path / "hebrew.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE verses (id INTEGER PRIMARY KEY, book TEXT, book_code TEXT, chapter INTEGER, "
                     "verse INTEGER, reference TEXT, hebrew TEXT, hebrew_norm TEXT, english TEXT)")
        for n, v in enumerate(verses):
            chapter, verse = map(int, v["_id"].rsplit(" ", 1)[1].split(":"))
            conn.execute("INSERT INTO verses VALUES (?, 'Exodus', 'Exod', ?, ?, ?, ?, '', ?)",
                         (n + 1, chapter, verse, v["_id"], as_the_package_writes(v["text"]), f"English of {v['_id']}"))
    counts = write_set(db, tmp_path / "set", seed=3, per_kind=20)
    assert counts == {"verses": 400, "pointed": 400, "questions": 60, "fragment": 20, "loose": 20, "english": 20}
    assert [r["text"] for r in read_jsonl(tmp_path / "set" / "corpus.jsonl")] == [v["text"] for v in verses]
    asked = read_jsonl(tmp_path / "set" / "queries.jsonl")
    assert len({q["metadata"]["verse"] for q in asked}) == 60  # each verse asked once
    by_id = {v["_id"]: without_points(v["text"]) for v in verses}
    for q in asked:
        gold = " ".join(by_id[q["metadata"]["verse"]].split())
        if q["metadata"]["kind"] == "fragment":
            assert q["text"] in gold and sum(q["text"] in " ".join(t.split()) for t in by_id.values()) == 1
        elif q["metadata"]["kind"] == "loose":
            assert not POINTS.search(q["text"]) and len(set(q["text"].split()) - set(gold.split())) <= 1
    qrels = (tmp_path / "set" / "qrels" / "english.tsv").read_text().splitlines()
    assert qrels[0] == "query-id\tcorpus-id\tscore" and len(qrels) == 21


def test_english_verses_are_filed_under_the_hebrew_verse_they_translate():
    rows = [("Genesis", 31, 54, "Genesis 31:54", "x", "And Jacob offered a sacrifice in the mountain."),
            ("Genesis", 31, 55, "Genesis 31:55", "", "(32-1) And early in the morning Laban rose up."),
            ("Genesis", 32, 1, "Genesis 32:1", "x", "(32-2) And Jacob went on his way."),
            ("Psalms", 3, 1, "Psalms 3:1", "x", "(3-1) A Psalm of David. (3-2) LORD, how many are mine adversaries!")]
    assert english_by_hebrew_verse(rows) == {
        "Genesis 31:54": "And Jacob offered a sacrifice in the mountain.",
        "Genesis 32:1": "And early in the morning Laban rose up.", "Genesis 32:2": "And Jacob went on his way.",
        "Psalms 3:1": "A Psalm of David.", "Psalms 3:2": "LORD, how many are mine adversaries!"}


def test_printed_joins_what_the_package_spaces():
    assert printed("וְ/הָ/אָ֗רֶץ עַל ־ פְּנֵ֣י תְה֑וֹם ׃") == "וְהָאָ֗רֶץ עַל־פְּנֵ֣י תְה֑וֹם׃"


def test_the_shipped_set_is_pointed_and_asked_without_points():
    corpus, asked = read_jsonl(SET / "corpus.jsonl"), read_jsonl(SET / "queries.jsonl")
    ids = {d["_id"] for d in corpus}
    assert sum(without_points(d["text"]) != d["text"] for d in corpus) / len(corpus) > 0.99
    assert all(not POINTS.search(q["text"]) for q in asked)
    assert [sum(q["metadata"]["kind"] == k for q in asked) for k in KINDS] == [150, 150, 150]
    rows = [line.split("\t") for line in (SET / "qrels" / "test.tsv").read_text().splitlines()[1:]]
    assert len(rows) == 450 and all(doc in ids for _, doc, _ in rows)
    unpointed = read_jsonl(SET / "corpus-unpointed.jsonl")
    assert [d["text"] for d in unpointed] == [" ".join(without_points(d["text"]).split()) for d in corpus]


def test_questions_skip_verses_whose_words_stand_elsewhere():
    verses = [{"id": f"v{n}", "text": "אחד שנים שלשה ארבעה חמשה ששה שבעה שמונה תשעה עשרה", "english": "x"}
              for n in range(3)]
    assert questions(verses, per_kind=5) == []  # the same verse three times: no question finds one of them


@pytest.fixture(scope="module")
def e5():
    from search import e5
    from search.embedding import Embedder

    return Embedder.load(e5.MODEL_ID)


def test_dense_search_reads_pointed_verses_as_well_as_unpointed_ones(e5):
    corpus = read_jsonl(SET / "corpus.jsonl")
    plain = {d["_id"]: d["text"] for d in read_jsonl(SET / "corpus-unpointed.jsonl")}
    asked = [q for q in read_jsonl(SET / "queries.jsonl") if q["metadata"]["kind"] != "english"][:40]
    golds = {q["metadata"]["verse"] for q in asked}
    at = {d["_id"]: n for n, d in enumerate(corpus)}
    keep = sorted({m for g in golds for m in range(at[g] - 2, at[g] + 3) if 0 <= m < len(corpus)})
    ids = [corpus[m]["_id"] for m in keep]
    pointed = [f"{corpus[m]['title']}\n{corpus[m]['text']}" for m in keep]
    unpointed = [f"{corpus[m]['title']}\n{plain[corpus[m]['_id']]}" for m in keep]
    questions_ = e5.embed_queries([q["text"] for q in asked])

    def recall_at_10(vectors: np.ndarray) -> float:
        top = np.argsort(-(questions_ @ vectors.T), axis=1)[:, :10]
        return float(np.mean([ids.index(q["metadata"]["verse"]) in row for q, row in zip(asked, top)]))

    as_written = np.asarray(e5.model.encode_document(pointed, normalize_embeddings=True), dtype=np.float32)
    now, reference = recall_at_10(e5.embed_passages(pointed)), recall_at_10(e5.embed_passages(unpointed))
    assert abs(now - reference) <= 0.05  # the aim: within a few points of the same text without points
    assert now >= recall_at_10(as_written) + 0.2  # and far above the pointed text embedded as written
