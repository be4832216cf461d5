"""`flask --app app relations import FILE.jsonl | list` on each backend: added and updated counted, relations whose
passages are not in the library kept and counted, bad lines named by number with why; and the shipped file of the
Rema's glosses imports whole."""
import json
from pathlib import Path

import pytest

from app import create_app
from builders import GLOSS, OTHER, SEIF, ruled_library
from conftest import make_pipeline

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "relations" / "shulchan-arukh-rema.jsonl"


@pytest.fixture
def app(backend):
    ruled_library(backend)
    return create_app({"TESTING": True, "LIBRARY_DIR": str(backend.folder), **backend.config},
                      pipeline=make_pipeline())


def run(app, *args):
    return app.test_cli_runner().invoke(args=["relations", *args])


def lines(*records) -> str:
    return "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records) + "\n"


def test_import_counts_what_it_added_and_updated_and_names_bad_lines(app, backend, tmp_path):
    path = tmp_path / "relations.jsonl"
    path.write_text(lines(
        {"source": GLOSS, "target": SEIF, "kind": "argues_with", "confidence": 0.85, "notes": "strict"},
        "",
        {"source": "Tur, Orach Chayim 318", "target": SEIF, "kind": "based_on"},  # not in the library yet
        "{not json",
        {"source": GLOSS, "target": OTHER, "kind": "disputes"},
        {"source": GLOSS, "kind": "quotes"},
        {"source": OTHER, "target": OTHER, "kind": "quotes"},
        ["a list"],
        {"source": OTHER, "target": SEIF, "kind": "supports", "weight": 2},
    ), encoding="utf-8")
    result = run(app, "import", str(path))
    assert result.exit_code == 1
    assert result.stdout == "relations.jsonl: 2 added, 0 updated; 1 not in the library yet (kept: they apply once " \
                            "their passages are ingested).\n"
    errors = result.stderr.splitlines()
    assert [e.split(":")[0] for e in errors[:6]] == ["line 4", "line 5", "line 6", "line 7", "line 8", "line 9"]
    assert "not JSON" in errors[0] and '"kind" must be one of argues_with' in errors[1]
    assert "missing target" in errors[2] and "the same passage" in errors[3] and "not a JSON object" in errors[4]
    assert "unknown field(s) weight" in errors[5] and "6 line(s) not imported" in errors[6]

    path.write_text(lines({"source": GLOSS, "target": SEIF, "kind": "argues_with", "confidence": 0.6}))
    again = run(app, "import", str(path))
    assert again.exit_code == 0 and again.stdout == "relations.jsonl: 0 added, 1 updated.\n"
    listed = run(app, "list")
    assert listed.exit_code == 0 and "2 of 2 relation(s)" in listed.stderr
    assert f"argues_with      0.6   {GLOSS} -> {SEIF}" in listed.stdout
    only = run(app, "list", "--passage", "Tur, Orach Chayim 318")
    assert "based_on" in only.stdout and "argues_with" not in only.stdout


def test_the_shipped_file_of_the_rema_s_glosses_imports_whole(app):
    result = run(app, "import", str(SHIPPED))
    records = [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(f"{SHIPPED.name}: {len(records)} added, 0 updated; ")
    assert 20 <= len(records) <= 40 and all(r["source"] == r["target"] + ", Rema" for r in records)
    assert {r["kind"] for r in records} == {"argues_with", "minhag_override", "contextualizes"}
    assert all(r["notes"] and 0 < r["confidence"] <= 1 for r in records)
    assert {"Shulchan Arukh, Orach Chayim 318:5", "Shulchan Arukh, Orach Chayim 253:2"} <= {r["target"]
                                                                                          for r in records}


def test_without_a_library_the_command_says_how_to_make_one(tmp_path):
    app = create_app({"TESTING": True, "LIBRARY_DIR": str(tmp_path / "none")}, pipeline=make_pipeline())
    result = run(app, "import", str(SHIPPED))
    assert result.exit_code == 1 and "no library in" in result.stderr and "ingest-default" in result.stderr
    assert not (tmp_path / "none").exists()
