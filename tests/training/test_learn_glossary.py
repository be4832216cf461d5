"""Query expansion learned from lay questions: which words become keys, what they map to, and how search reads it."""
import json

import pytest

from hebrew import glossary
from training.learn_glossary import learn, write

SEIFIM = {
    "Orach Chayim 318:2": "מותר לתת מים צוננים על גבי המיחם כדי שיפשירו",
    "Orach Chayim 318:3": "אסור לתת מים צוננים בתוך המיחם בשבת",
    "Orach Chayim 318:4": "מיחם שפינו ממנו מים מותר להחזירו",
    "Orach Chayim 253:1": "כירה שהסיקוה בגפת אין נותנים עליה תבשיל ולא מים",
    "Orach Chayim 253:2": "כירה גרופה מותר להחזיר עליה קדירה",
    "Yoreh De'ah 87:1": "אסור לבשל בשר בחלב",
    "Yoreh De'ah 89:1": "אכל בשר לא יאכל גבינה אחריו עד שש שעות",
}
QUESTIONS = [  # (id, text, the seif it asks of)
    ("q1", "can I use the urn for cold water", "Orach Chayim 318:2"),
    ("q2", "the urn with cold water inside on shabbat?", "Orach Chayim 318:3"),
    ("q3", "is the urn ok if it was emptied", "Orach Chayim 318:4"),
    ("q4", "מה עם פלטה חשמלית בשבת", "Orach Chayim 253:1"),
    ("q5", "שמים סיר על פלטה", "Orach Chayim 253:2"),
    ("q6", "פלטה שכבר דלקה", "Orach Chayim 253:2"),
    ("q7", "how long after a burger can I have cheese", "Yoreh De'ah 89:1"),
    ("q8", "cheese after a steak", "Yoreh De'ah 89:1"),
    ("q9", "cheese sandwich waiting time", "Yoreh De'ah 89:1"),
]


@pytest.fixture()
def lay(tmp_path):
    book = tmp_path / "sa.jsonl"
    book.write_text("\n".join(json.dumps({"ref": f"Shulchan Arukh, {ref}", "he": he}, ensure_ascii=False)
                              for ref, he in SEIFIM.items()), encoding="utf-8")
    folder = tmp_path / "lay"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text("\n".join(json.dumps({"_id": q, "text": t}) for q, t, _ in QUESTIONS))
    rows = "".join(f"{q}\tShulchan Arukh, {ref}\t1\n" for q, _, ref in QUESTIONS)
    for split in ("train", "test"):
        (folder / "qrels" / f"{split}.tsv").write_text("query-id\tcorpus-id\tscore\n" + rows)
    return folder, book


def test_everyday_words_map_to_the_words_their_seifim_use(lay, monkeypatch):
    monkeypatch.setattr(glossary, "GLOSSARY", lay[0] / "none.tsv")
    (lay[0] / "none.tsv").write_text("")
    monkeypatch.setattr("training.learn_glossary.load", lambda: {})  # no hand-written keys in this test
    learned = learn(*lay, min_count=2, min_share=0.5, min_lift=1.5, max_terms=20, common=0.4, rare=0.5)
    assert learned["urn"][0][0] == "מיחמ" and learned["urn"][0][1] == 3  # in three questions' seifim
    cheese = [t for t, _, _ in learned["cheese"]]
    assert cheese.index("גבינה") < cheese.index("בשר")  # בשר is in 87:1 too: less lift
    assert "כירה" in {t for t, _, _ in learned["פלטה"]}
    assert "shabbat" not in learned  # asked once: no key
    with pytest.raises(ValueError, match="measurement only"):
        learn(*lay, split="test")


def test_search_reads_the_learned_words_after_the_hand_written_ones(lay, tmp_path, monkeypatch):
    learned = tmp_path / "learned.tsv"
    write({"urn": [("מיחמ", 3, 2.3)]}, learned, "made by a test\nsecond line")
    assert learned.read_text(encoding="utf-8").startswith("# made by a test\n# second line\nurn\tמיחמ")
    monkeypatch.setattr(glossary, "LEARNED", learned)
    words = glossary.query_words("is the urn ok?")
    assert words[-1][0] == "מיחמ" and ["urn"] in words
    assert glossary.query_words("is the urn ok?", table={}) == [w for w in words if w[0] != "מיחמ"]
    assert "מיחם" not in glossary.with_text_words("is the urn ok?", {"מיחמ"})  # dense search reads hand-written lines
