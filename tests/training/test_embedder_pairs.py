"""The pairs the library's embedder is fitted on: what each kind pairs, and what is never used."""
import json
import random

import pytest

from training.embedder_pairs import batches, glossary_entries, qa_set, shulchan_arukh

SEIFIM = [
    ("Orach Chayim 318:1", "דיני בישול בשבת. ובו יט סעיפים: המבשל בשבת במזיד אסור לו לעולם הגה: ויש אומרים שמותר לאחרים למוצאי שבת"),
    ("Orach Chayim 318:2", "מותר לתת מים על גבי הכירה כדי שיפשירו ולא יגיעו לחום שהיד סולדת בו"),
    ("Orach Chayim 318:3", "אסור לתת תבשיל על גבי המכירה בשבת"),
    ("Choshen Mishpat 5:1", "דין מכירה בפני עדים. ובו ג סעיפים: המוכר שדה בפני שנים הרי זה קנוי ללוקח"),
]


@pytest.fixture()
def book(tmp_path):
    path = tmp_path / "sa.jsonl"
    path.write_text("\n".join(json.dumps({"ref": f"Shulchan Arukh, {ref}", "he": he}, ensure_ascii=False)
                              for ref, he in SEIFIM), encoding="utf-8")
    glossary = tmp_path / "glossary.tsv"
    glossary.write_text("# a comment\nhot plate\tכירה\nפלטה\tכירה/תנור\nsale contract\tמכירה שטר\n", encoding="utf-8")
    return path, glossary


def test_heading_gloss_and_glossary_pairs(book):
    path, glossary = book
    pairs = shulchan_arukh(path, random.Random(0), per_siman=5, glossary=glossary)
    heading = {(p.query, p.passage) for p in pairs if p.source == "heading"}
    assert ("דיני בישול בשבת", "מותר לתת מים על גבי הכירה כדי שיפשירו ולא יגיעו לחום שהיד סולדת בו") in heading
    assert all("ובו" not in passage and "דיני בישול" not in passage for _, passage in heading)  # the heading is the query
    assert {p.group for p in pairs if p.source == "heading"} == {"Shulchan Arukh, Orach Chayim 318",
                                                                 "Shulchan Arukh, Choshen Mishpat 5"}
    gloss = [p for p in pairs if p.source == "gloss"]
    assert [(p.query, p.passage) for p in gloss] == [("ויש אומרים שמותר לאחרים למוצאי שבת", "המבשל בשבת במזיד אסור לו לעולם")]
    glossed = [(p.query, p.passage) for p in pairs if p.source == "glossary"]
    assert {q for q, _ in glossed} == {"hot plate", "פלטה"}
    # "הכירה" holds the stove with its article; "המכירה" and "מכירה" are a sale, not a stove
    assert all("הכירה" in passage for _, passage in glossed)


def test_glossary_entries_take_each_slots_first_word(book):
    _, glossary = book
    assert glossary_entries(glossary) == [("hot plate", ["כירה"]), ("פלטה", ["כירה"]),
                                          ("sale contract", ["מכירה", "שטר"])]


def test_qa_pairs_come_from_the_train_split_only_and_measurement_sets_are_refused(tmp_path):
    folder = tmp_path / "qa-dev"
    (folder / "qrels").mkdir(parents=True)
    docs = [{"_id": f"d{i}", "title": f"Article {i}", "text": f"Paragraph {i}."} for i in range(20)]
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs))
    (folder / "queries.jsonl").write_text("\n".join(json.dumps({"_id": f"q{i}", "text": f"question {i}?"})
                                                    for i in range(20)))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"q{i}\td{i}\t1\n" for i in range(20)))
    from measuring.datasets import splits
    split_of = splits(d["title"] for d in docs)
    pairs = qa_set(folder)
    assert pairs and {p.group for p in pairs} == {d["_id"] for d in docs if split_of[d["title"]] == "train"}
    scifact = tmp_path / "scifact-dev"
    folder.rename(scifact)
    with pytest.raises(ValueError, match="measurement"):
        qa_set(scifact)


def test_a_batch_never_holds_two_pairs_of_one_group(book):
    path, glossary = book
    pairs = shulchan_arukh(path, random.Random(0), per_siman=5, glossary=glossary) * 3
    made = batches(pairs, 4, random.Random(1))
    assert sorted(map(tuple, pairs)) == sorted(tuple(p) for batch in made for p in batch)
    assert all(len({p.group for p in batch}) == len(batch) <= 4 for batch in made)
