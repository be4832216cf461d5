"""eval --save keeps a run's figures with its configuration and commit; eval compare prints each figure's change."""
import json

from app import create_app


def invoke(*args):
    return create_app({"TESTING": True}).test_cli_runner().invoke(args=[str(a) for a in args])


def test_saved_reports_are_compared_figure_by_figure(tmp_path, beir):
    reports = tmp_path / "reports"
    for mode in ("bm25", "hybrid"):
        run = invoke("eval", beir, "--mode", mode, "--limit", "3", "--cache", tmp_path / "cache", "--save",
                     "--reports", reports)
        assert run.exit_code == 0, run.output + str(run.exception)
    first, second = sorted(reports.glob("*.json"), key=lambda p: "hybrid" in p.name)
    saved = json.loads(first.read_text())
    assert saved["figures"]["queries"] == 3 and saved["config"]["mode"] == "bm25" and "config" not in saved["figures"]
    assert saved["commit"] is None or len(saved["commit"].split("+")[0]) == 40
    shown = invoke("eval", "compare", first, second)
    assert shown.exit_code == 0, shown.output
    table = json.loads(shown.stdout.strip().splitlines()[-1])
    latency = next(r for r in table["figures"] if r["figure"] == "latency_ms_p50")
    assert latency["change"] == round(latency["b"] - latency["a"], 4)
    assert table["settings"]["mode"] == ["bm25", "hybrid"] and "setting mode: bm25 -> hybrid" in shown.stdout


def test_compare_refuses_what_is_not_a_report_and_eval_what_is_not_a_folder(tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"queries": 3}')
    refused = invoke("eval", "compare", other, other)
    assert refused.exit_code != 0 and "not a saved eval report" in refused.output
    assert "two saved reports" in invoke("eval", "compare", other).output
    assert "one BEIR folder that exists" in invoke("eval", tmp_path / "missing").output
