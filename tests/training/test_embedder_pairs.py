"""The pairs the library's embedder is fitted on: what each kind pairs, and what is never used."""
import json
import random

import pytest

from training.embedder_pairs import batches, commentary, glossary_entries, lay_questions, qa_set, seif_texts, shulchan_arukh

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


def lay_folder(tmp_path):
    folder = tmp_path / "lay"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in [
        {"_id": "a", "text": "מותר לחמם מים על הפלטה בשבת?"}, {"_id": "b", "text": "Can I cook on Shabbat?"},
        {"_id": "c", "text": "קניתי בית, צריך חוזה?"}]), encoding="utf-8")
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\na\tShulchan Arukh, Orach Chayim 318:2\t1\n"
                                                "b\tShulchan Arukh, Orach Chayim 318:1\t1\nb\tShulchan Arukh, Orach Chayim 318:3\t1\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nc\tShulchan Arukh, Choshen Mishpat 5:1\t1\n")
    return folder


def test_lay_questions_pair_each_train_question_with_each_answering_seif_and_never_the_test_split(book, tmp_path):
    texts = seif_texts(book[0])
    assert texts["Shulchan Arukh, Orach Chayim 318:1"] == "המבשל בשבת במזיד אסור לו לעולם ויש אומרים שמותר לאחרים למוצאי שבת"
    pairs = lay_questions(lay_folder(tmp_path), texts)
    assert [(p.query, p.passage, p.source, p.group) for p in pairs] == [
        ("מותר לחמם מים על הפלטה בשבת?", texts["Shulchan Arukh, Orach Chayim 318:2"], "lay", "Shulchan Arukh, Orach Chayim 318"),
        ("Can I cook on Shabbat?", texts["Shulchan Arukh, Orach Chayim 318:1"], "lay", "Shulchan Arukh, Orach Chayim 318"),
        ("Can I cook on Shabbat?", texts["Shulchan Arukh, Orach Chayim 318:3"], "lay", "Shulchan Arukh, Orach Chayim 318")]
    with pytest.raises(ValueError, match="measurement only"):
        lay_questions(lay_folder(tmp_path / "again"), texts, split="test")


def test_commentary_pairs_a_passage_with_the_seif_it_comments_on(book, tmp_path):
    texts = seif_texts(book[0])
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(p, ensure_ascii=False) for p in [
        {"source": "Ba'er Hetev", "text": "המבשל בשבת - עיין במגן אברהם " + "ארוך " * 300, "ref": "Shulchan Arukh, Orach Chayim 318:1"},
        {"source": "Biur Halacha", "text": "קצר", "ref": "Shulchan Arukh, Orach Chayim 318:2"},  # too short to teach
        {"source": "Biur Halacha", "text": "על גבי הכירה וכו' כדי שיפשירו", "ref": "Shulchan Arukh, Orach Chayim 999:1"}]),
        encoding="utf-8")
    pairs = commentary(path, texts, random.Random(0))
    assert len(pairs) == 1 and pairs[0].passage == texts["Shulchan Arukh, Orach Chayim 318:1"]
    assert pairs[0].source == "commentary" and len(pairs[0].query) == 600 and pairs[0].group.endswith("318")


def test_a_hard_negative_is_the_best_ranked_seif_that_does_not_answer(book, tmp_path):
    from types import SimpleNamespace

    from training.embedder_negatives import hard_negatives, seif_ref
    from training.train_embedder import columns

    texts = seif_texts(book[0])
    ranked = ["Shulchan Arukh, Orach Chayim 318:2", "Shulchan Arukh, Orach Chayim 318:1, Rema",
              "Shulchan Arukh, Choshen Mishpat 5:1"]
    search = lambda q: [SimpleNamespace(chunk=SimpleNamespace(ref=r)) for r in ranked]  # noqa: E731
    pairs = lay_questions(lay_folder(tmp_path), texts)
    gold = {"מותר לחמם מים על הפלטה בשבת?": {"Shulchan Arukh, Orach Chayim 318:2"},
            "Can I cook on Shabbat?": {"Shulchan Arukh, Orach Chayim 318:1", "Shulchan Arukh, Orach Chayim 318:3"}}
    mined = hard_negatives(pairs, search, texts, gold, other_siman=False)
    assert seif_ref(ranked[1]) == "Shulchan Arukh, Orach Chayim 318:1"
    assert mined[0].negative == texts["Shulchan Arukh, Orach Chayim 318:1"]  # the gloss counts as its seif
    assert mined[1].negative == mined[2].negative == texts["Shulchan Arukh, Orach Chayim 318:2"]
    # a negative that is another pair's own passage is left out of the columns (it would count a right answer wrong)
    assert columns(mined) == [p.passage for p in mined]
    assert columns(mined[1:2]) == [mined[1].passage, texts["Shulchan Arukh, Orach Chayim 318:2"]]
    # by default the negative comes from another siman: 318's other seifim may answer as well
    elsewhere = hard_negatives(pairs, search, texts, gold)
    assert {p.negative for p in elsewhere} == {texts["Shulchan Arukh, Choshen Mishpat 5:1"]}
