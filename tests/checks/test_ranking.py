"""The ranking: which candidate fits the question best, fitted on recorded candidates and loaded beside the judge."""
import json
from types import SimpleNamespace

import numpy as np
import pytest

from checks.ranking import FEATURES, Ranking, features
from training.train_ranking import fit, held_out, informative, record, save


def candidate(judge=0.5, rank=1, hebrew=False, ruling=False, own=True):
    return features(judge, 0.4, 0.5, rank, 2.0, 3.0, 1, "own" if own else "mentions", True, False, 0.5, hebrew,
                    ruling)


def test_features_read_again_for_a_hebrew_question_and_for_a_ruling():
    plain, ruling = candidate(judge=0.9, rank=2), candidate(judge=0.9, rank=2, hebrew=True, ruling=True)
    assert set(plain) == set(FEATURES)
    assert plain["judge"] == pytest.approx(np.log(9)) and plain["inverse_rank"] == 0.5
    assert plain["cheap_gap"] == pytest.approx(-0.1) and plain["hybrid_gap"] == -1.0
    assert plain["judge_he"] == plain["inverse_rank_ruling"] == 0.0
    assert ruling["judge_he"] == ruling["judge"] and ruling["inverse_rank_ruling"] == 0.5
    assert features(1.0, 0, 0, 1, 0, 0, 0, "own", False, False, 0, False, False)["judge"] < 10  # clipped, finite


def seif_looks(n=60):
    """Looks over seifim: the judge rates every candidate alike or the wrong one higher, while the right seif is
    the one search ranked first; and looks over leads, where the judge is right."""
    rows = []
    for i in range(n):
        wrong, right = candidate(judge=0.9, rank=2, hebrew=True, ruling=True), candidate(
            judge=0.8, rank=1, hebrew=True, ruling=True)
        rows.append({"set": "lay", "id": f"l{i}", "look": 1, "right": [0, 1],
                     "features": [[wrong[f] for f in FEATURES], [right[f] for f in FEATURES]]})
        best, other = candidate(judge=0.9, rank=2), candidate(judge=0.2, rank=1)
        rows.append({"set": "wiki", "id": f"w{i}", "look": 1, "right": [1, 0],
                     "features": [[best[f] for f in FEATURES], [other[f] for f in FEATURES]]})
    return rows


def test_the_ranking_learns_where_the_judge_misleads_and_keeps_it_where_it_does_not():
    card = fit(seif_looks())
    assert card["fitted"]["judge"] == {"lay": 0.0, "wiki": 1.0}
    assert card["fitted"]["ranking"] == {"lay": 1.0, "wiki": 1.0}
    assert card["held_out"]["ranking"]["lay"] == 1.0 and card["looks"] == {"lay": 60, "wiki": 60}


def test_only_looks_with_a_right_and_a_wrong_candidate_teach():
    rows = [{"set": "a", "id": "1", "right": [1, 1]}, {"set": "a", "id": "2", "right": [0, 0]},
            {"set": "a", "id": "3", "right": [0, 1]}]
    assert [r["id"] for r in informative(rows)] == ["3"]
    with pytest.raises(ValueError, match="record-rankings"):
        fit(rows[:2])
    assert held_out({"set": "a", "id": "7"}) == held_out({"set": "a", "id": "7"})
    assert 0.1 < np.mean([held_out({"set": "a", "id": str(i)}) for i in range(1000)]) < 0.3


def test_a_fitted_ranking_is_loaded_beside_the_judge_and_orders_candidates(tmp_path):
    assert Ranking.load(tmp_path) is None  # not fitted: the judge's probability orders them
    save(fit(seif_looks()), tmp_path)
    ranking = Ranking.load(tmp_path)
    wrong, right = candidate(judge=0.9, rank=2, hebrew=True, ruling=True), candidate(judge=0.8, rank=1, hebrew=True,
                                                                                      ruling=True)
    assert int(np.argmax(ranking.scores([wrong, right]))) == 1
    card = json.loads((tmp_path / "ranking.json").read_text())
    card["features"] = card["features"][:-1]
    (tmp_path / "ranking.json").write_text(json.dumps(card))
    with pytest.raises(ValueError, match="train-ranking"):
        Ranking.load(tmp_path)


@pytest.mark.parametrize("split, half, qrels", [("test", None, "test"), (None, "test", "test"),
                                                (None, None, "test-he")])
def test_the_ranking_is_never_fitted_on_a_measuring_split(tmp_path, split, half, qrels):
    folder = tmp_path / "lay-questions"
    with pytest.raises(ValueError, match="measurement only"):
        record(None, folder, split, half, 10, qrels_split=qrels)


def test_candidates_are_right_when_they_hold_the_answer_or_stand_in_a_gold_seif(monkeypatch, tmp_path):
    from training import train_ranking

    folder = tmp_path / "lay-questions"
    (folder / "qrels").mkdir(parents=True)
    (folder / "queries.jsonl").write_text(
        json.dumps({"_id": "q1", "text": "may I heat water on Shabbat?"}) + "\n"
        + json.dumps({"_id": "q2", "text": "when was it built?", "metadata": {"answers": ["AD 80"]}}) + "\n")
    (folder / "qrels" / "train-he.tsv").write_text("q\td\ts\nq1\tOC 318:12\t1\nq2\tcolosseum\t1\n")
    hits = [SimpleNamespace(chunk=SimpleNamespace(doc_id="sa", ref=r)) for r in ("OC 318:13", "OC 318:12")]
    f = [0.0] * len(FEATURES)
    choice = SimpleNamespace(candidates=[(1, "It was completed in AD 80.", dict(zip(FEATURES, f))),
                                         (2, "One may not heat water.", dict(zip(FEATURES, f)))])
    monkeypatch.setattr(train_ranking, "looks", lambda pipeline, question: [(hits, choice)])
    rows = {r["id"]: r for r in record(None, folder, None, None, None, qrels_split="train-he")}
    assert rows["q1"]["right"] == [0, 1] and rows["q2"]["right"] == [1, 0]
    assert rows["q1"]["set"] == "lay-questions-train-he" and len(rows["q1"]["features"][0]) == len(FEATURES)


def test_train_ranking_writes_the_ranking_beside_the_judge(tmp_path, app):
    looks = tmp_path / "candidates.json"
    looks.write_text(json.dumps(seif_looks()))
    result = app.test_cli_runner().invoke(args=["train-ranking", str(looks), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    card = json.loads(result.output)
    assert card["recorded"] == ["candidates.json"] and Ranking.load(tmp_path).weights == tuple(card["weights"])


def test_record_rankings_asks_which_questions_to_record(tmp_path, app):
    result = app.test_cli_runner().invoke(args=["record-rankings", str(tmp_path), "--out", str(tmp_path / "o.json")])
    assert result.exit_code == 2 and "--half tune" in result.output
