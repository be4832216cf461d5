"""eval's answer-or-decline figures: questions the library holds no answer to, the gold removed, the judge's splits,
a built library searched as it is, and the judge's threshold chosen on recorded outcomes."""
import json

from test_evaluate import run_eval

from app import create_app
from training import calibrate_judge
from measuring.datasets import read_qrels, read_queries, splits


def with_unanswerable(beir):
    """The tiny BEIR folder with two questions its library cannot answer, marked so."""
    with open(beir / "queries.jsonl", "a") as out:
        for qid, text in (("u1", "What is the boiling point of helium?"), ("u2", "Who painted the Sistine Chapel?")):
            out.write(json.dumps({"_id": qid, "text": text, "metadata": {"answerable": False}}) + "\n")
    return beir


def test_questions_the_library_cannot_answer_are_scored_by_how_often_they_are_declined(tmp_path, beir):
    result, _ = run_eval(tmp_path, with_unanswerable(beir), "--answers")
    assert result["queries"] == 4 and result["unanswerable_questions"] == 2  # retrieval figures: answerable ones only
    assert 0 <= result["declined_rate"] <= 1
    assert result["decline_balanced_accuracy"] == round((result["answered_rate"] + result["declined_rate"]) / 2, 4)


def test_the_gold_removed_gives_the_answer_or_decline_balanced_accuracy(tmp_path, beir):
    result, _ = run_eval(tmp_path, beir, "--answers", "--unanswerable")
    expected = round((result["answered_rate"] + result["unanswerable_abstain_rate"]) / 2, 4)
    assert result["answer_or_decline_balanced_accuracy"] == expected


def test_judge_split_keeps_only_the_questions_of_that_splits_articles(tmp_path, beir):
    titles = {json.loads(line)["_id"]: json.loads(line)["title"] for line in (beir / "corpus.jsonl").open()}
    split_of, qrels = splits(titles.values()), read_qrels(beir)
    for split in ("train", "test"):
        expected = [q["id"] for q in read_queries(beir) if any(split_of[titles[d]] == split for d in qrels[q["id"]])]
        if expected:
            result, _ = run_eval(tmp_path, beir, "--mode", "bm25", "--judge-split", split)
            assert result["queries"] == len(expected) and result["config"]["judge_split"] == split


def test_a_built_library_is_searched_as_it_is(tmp_path, beir, real_library):
    result, log = run_eval(tmp_path, beir, "--library", real_library, "--mode", "bm25")
    assert "indexing" not in log and result["queries"] == 4 and result["ndcg@10"] == 1.0
    assert result["config"]["corpus"] == str(real_library)


def test_the_threshold_is_chosen_where_both_sets_are_best_served(tmp_path):
    outcomes = [{"set": "a", "gold": True, "p": 0.8, "named": True}, {"set": "a", "gold": False, "p": 0.3, "named": True},
                {"set": "b", "gold": True, "p": 0.6, "named": True}, {"set": "b", "gold": False, "p": 0.5, "named": True},
                {"set": "b", "gold": False, "p": 0.9, "named": False}]  # named nothing the passages mention: declined
    files = []
    for name in ("a", "b"):
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(json.dumps([o for o in outcomes if o["set"] == name]))
    chosen = calibrate_judge.choose(files)
    assert 0.5 < chosen["threshold"] <= 0.6 and chosen["balanced_accuracy"] == 1.0
    assert chosen["sets"]["b"] == {"questions": 1, "answered_with_gold": 1.0, "declined_without_gold": 1.0}


def test_calibrate_judge_records_a_set_and_writes_the_threshold(tmp_path, beir):
    import shutil

    from checks.judge import DEFAULT_FOLDER

    judge = tmp_path / "judge"
    shutil.copytree(DEFAULT_FOLDER, judge)
    runner = create_app({"TESTING": True, "JUDGE_DIR": str(judge)}).test_cli_runner()
    result = runner.invoke(args=["calibrate-judge", str(beir), "--record", str(tmp_path / "o.json"), "--write",
                                 "--cache", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output + str(result.exception)
    chosen = json.loads(result.stdout.strip().splitlines()[-1])
    card = json.loads((judge / "judge.json").read_text())
    assert card["threshold"] == chosen["threshold"] and card["calibration"]["sets"] == chosen["sets"]
    assert "calibrate-judge" in (judge / "README.md").read_text() or card["threshold_source"].startswith("calibrate-judge")
