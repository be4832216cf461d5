"""The docs' measurement tables are written from saved reports (eval tables), and the committed docs match the
committed reports: a figure typed into a table by hand fails here."""
from pathlib import Path

import pytest

from app import create_app
from measuring import tables
from measuring.reports import save

DOCS = [Path("docs/measurements.md"), Path("docs/hebrew.md")]


def invoke(*args):
    return create_app({"TESTING": True}).test_cli_runner().invoke(args=[str(a) for a in args])


def result(dataset, mode, ndcg, model="sentence-transformers/all-MiniLM-L6-v2", **config):
    return {"queries": 1234, "ndcg@10": ndcg, "recall@5": 0.5, "recall@10": 0.6, "recall@100": 0.9, "mrr@10": 0.4,
            "latency_ms_p50": 2.0, "config": {"dataset": dataset, "mode": mode, "embedding_model": model, **config}}


def test_a_table_is_written_from_reports_and_a_stale_one_is_found(tmp_path):
    folder = tmp_path / "data" / "reports" / "retrieval"
    for dataset, mode, ndcg in (("squad-dev", "hybrid", 0.89181), ("scifact-dev", "bm25", 0.6545),
                                ("scifact-dev", "hybrid", 0.7255)):
        save(result(dataset, mode, ndcg), folder)
    save(result("scifact-dev", "hybrid", 0.7047, fusion="rrf"), folder)
    save(result("scifact-dev", "hybrid", 0.5, split="dev", text_field="en"), folder)
    doc = tmp_path / "measured.md"
    doc.write_text("Before.\n\n<!-- table: data/reports/retrieval -->\n| typed | 0.99 |\n<!-- end of table -->\nAfter.\n")
    assert tables.stale_blocks(doc.read_text(), tmp_path) == ["data/reports/retrieval"]
    written = tables.rebuilt(doc.read_text(), tmp_path)
    lines = written.splitlines()
    assert lines[0] == "Before." and lines[-1] == "After." and "| typed |" not in written
    assert "| scifact-dev (dev, asked as en) | all-MiniLM-L6-v2 | hybrid | 1,234 | 0.5000 |" in written
    rows = [line for line in lines if line.startswith("| scifact-dev |") or line.startswith("| squad")]
    assert rows == [
        "| scifact-dev | – | bm25 | 1,234 | 0.6545 | 0.500 | 0.600 | 0.900 | 0.4000 |",
        "| scifact-dev | all-MiniLM-L6-v2 | hybrid | 1,234 | 0.7255 | 0.500 | 0.600 | 0.900 | 0.4000 |",
        "| scifact-dev | all-MiniLM-L6-v2 | hybrid (rrf) | 1,234 | 0.7047 | 0.500 | 0.600 | 0.900 | 0.4000 |",
        "| squad-dev | all-MiniLM-L6-v2 | hybrid | 1,234 | 0.8918 | 0.500 | 0.600 | 0.900 | 0.4000 |"]
    assert tables.stale_blocks(written, tmp_path) == []


def test_a_trained_embedder_is_named_by_its_training_and_a_learned_glossary_shown(tmp_path):
    fitted = "evidenz/multilingual-e5-small-shulchan-arukh"
    for report in [result("lay", "hybrid", 0.37, fitted, embedding_revision="0b35a97fb2e3"),
                   result("lay", "hybrid", 0.41, fitted, embedding_revision="a1b2c3d4e5f6",
                          learned_glossary="99aa88bb77cc"),
                   result("lay", "bm25", 0.2, fitted, embedding_revision="a1b2c3d4e5f6")]:
        save(report, tmp_path)
    written = tables.folder_table(tmp_path)
    assert "| lay | multilingual-e5-small-shulchan-arukh @0b35a9 | hybrid | 1,234 | 0.3700 |" in written
    assert "| lay | multilingual-e5-small-shulchan-arukh @a1b2c3 + learned glossary @99aa88 | hybrid |" in written
    assert "| lay | – | bm25 |" in written


def test_eval_tables_writes_checks_and_refuses(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save(result("heq-dev", "bm25", 0.9), Path("data/reports/retrieval"))
    doc = Path("measured.md")
    doc.write_text("<!-- table: data/reports/retrieval -->\n<!-- end of table -->\n")
    checked = invoke("eval", "tables", "--check", doc)
    assert checked.exit_code != 0 and "stale tables" in checked.output and doc.read_text().count("|") == 0
    written = invoke("eval", "tables", doc)
    assert written.exit_code == 0 and "| heq-dev | – | bm25 |" in doc.read_text()
    assert invoke("eval", "tables", "--check", doc).exit_code == 0
    doc.write_text("<!-- table: data/reports/none -->\n<!-- end of table -->\n")
    assert "holds no saved reports" in invoke("eval", "tables", doc).output
    assert "Markdown files that exist" in invoke("eval", "tables", "missing.md").output


@pytest.mark.parametrize("doc", DOCS)
def test_the_committed_tables_are_the_committed_reports(doc):
    text = doc.read_text()
    assert tables.BLOCK.search(text), f"{doc} has no table written from reports"
    assert tables.stale_blocks(text) == [], "run `flask --app app eval tables docs/measurements.md`"
