"""The Hebrew-reading cross-encoder's pairs: a question's seifim (and their glosses) positive, hard negatives from
other simanim as our search ranks them, measurement splits refused; and a trained one loads as reading Hebrew."""
import json

import pytest

from search.reranker import Reranker
from training.lay_reranker import lay_pairs
from training.train_reranker import fit

SA = "Shulchan Arukh, Orach Chayim"
PASSAGES = [
    (f"{SA} 318:12", "318:12 מותר ליתן כלי שיש בו מים אצל האש"),
    (f"{SA} 318:13", "318:13 מותר ליתן קדירה על גבי קדירה"),
    (f"{SA} 511:2", "511:2 מותר לחמם מים ביום טוב"),
    (f"{SA} 511:2, Rema", "511:2 רמ\"א אסור לחמם מים לרחיצה"),
    (f"{SA} 253:1", "253:1 כירה שהסיקוה בגפת"),
]


def lay_folder(tmp_path, split="fit"):
    folder = tmp_path / "lay"
    (folder / "qrels").mkdir(parents=True)
    questions = [("q1", "מותר לחמם מים בשבת?", f"{SA} 511:2"), ("q2", "water heater on Shabbat", f"{SA} 318:12")]
    (folder / "queries.jsonl").write_text("".join(json.dumps({"_id": i, "text": t}) + "\n" for i, t, _ in questions))
    rows = "".join(f"{i}\t{ref}\t1\n" for i, _, ref in questions)
    for name in (split, "test"):
        (folder / "qrels" / f"{name}.tsv").write_text("query-id\tcorpus-id\tscore\n" + rows)
    return folder


def search(question):  # ranks the neighbouring seif of 318 first: it must not become a negative of q2
    return PASSAGES[::-1] if "water" in question else PASSAGES


def test_positives_are_the_seif_and_its_gloss_negatives_come_from_other_simanim(tmp_path):
    pairs = lay_pairs(lay_folder(tmp_path), "fit", PASSAGES, search, negatives=2, seed=0)
    q1 = [(text[:5], label) for question, text, label in pairs if question.startswith("מותר")]
    assert sorted(t for t, y in q1 if y == 1.0) == ["511:2", "511:2"]  # the ruling and the Rema's gloss
    assert [t for t, y in q1 if y == 0.0][:2] == ["318:1", "318:1"]  # the search's best outside 511
    q2 = [(text[:6], label) for question, text, label in pairs if question.startswith("water")]
    assert [t for t, y in q2 if y == 1.0] == ["318:12"]
    assert not any(t.startswith("318") for t, y in q2 if y == 0.0)  # no seif of its own siman is a negative


def test_measurement_splits_are_refused(tmp_path):
    with pytest.raises(ValueError, match="for measurement"):
        lay_pairs(lay_folder(tmp_path), "test", PASSAGES, search)


def test_a_lay_cross_encoder_says_it_reads_hebrew(tmp_path, tiny_bert):
    pairs = lay_pairs(lay_folder(tmp_path), "fit", PASSAGES, search, negatives=1)
    card = fit(pairs, tiny_bert, tmp_path / "ce", {"languages": ["he", "en"]}, max_length=64, batch_size=4)
    assert card["pairs"] == len(pairs) and card["positives"] == 3
    reranker = Reranker.load(str(tmp_path / "ce"))
    assert reranker.languages == ("he", "en") and reranker.score("מים", ["מים", "כירה"]).shape == (2,)
