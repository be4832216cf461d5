"""The eval command end to end on a small BEIR folder, with the real models."""
import json

import pytest

from app import create_app

def run_eval(tmp_path, *args):
    app = create_app({"TESTING": True})
    result = app.test_cli_runner().invoke(args=["eval", *map(str, args), "--cache", str(tmp_path / "cache")])
    assert result.exit_code == 0, result.output + str(result.exception)
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def test_eval_prints_metrics_as_the_last_json_line_and_caches_the_index(tmp_path, beir):
    first, log = run_eval(tmp_path, beir, "--mode", "hybrid")
    assert "indexing 8 documents" in log
    assert first["queries"] == 4 and first["ndcg@10"] == 1.0 and first["mrr@10"] == 1.0 and first["recall@5"] == 1.0
    assert first["latency_ms_p95"] >= first["latency_ms_p50"] > 0
    assert first["config"]["mode"] == "hybrid" and first["config"]["dataset"] == "tiny-beir"
    second, log = run_eval(tmp_path, beir, "--mode", "bm25", "--limit", "2", "--seed", "3")
    assert "indexing" not in log and second["queries"] == 2 and second["config"]["mode"] == "bm25"


def test_eval_answers_and_unanswerable(tmp_path, beir):
    result, _ = run_eval(tmp_path, beir, "--answers", "--unanswerable")
    assert result["citation_valid"] == 1.0 and result["unanswerable_citation_valid"] == 1.0
    assert result["answer_contains_gold"] >= 0.75 and result["citation_hits_gold"] >= 0.75
    assert result["abstain_rate"] + result["answered_rate"] == pytest.approx(1.0)
    assert result["unanswerable_abstain_rate"] >= 0.5  # with the gold article gone, most questions are declined


def test_eval_unknown_split_says_what_exists(tmp_path, beir):
    app = create_app({"TESTING": True})
    result = app.test_cli_runner().invoke(args=["eval", str(beir), "--split", "dev"])
    assert result.exit_code != 0 and "choose a split" in str(result.exception)


def test_support_calibration_separates_gold_from_other_paragraphs(beir):
    from conftest import FakeEmbedder
    from evaluate import calibrate_support
    from verify import Verifier

    result = calibrate_support(Verifier(FakeEmbedder()), beir, limit=10)
    assert result["claims"] > 0 and 0.2 <= result["threshold"] <= 0.94
    assert result["support_mean_gold"] > result["support_mean_other"]
