"""Jupyter notebooks, CSV and TSV uploads: real files written the way Jupyter and spreadsheet programs write them,
parsed, refused with a clear message when they are not what their name says, and answered from over HTTP."""
import json

import pytest

from builders import library_app, upload, wait_for
from ingest.parsers import parse_file
from ingest.records import RejectedFile

NOTEBOOK = {
    "nbformat": 4, "nbformat_minor": 5,
    "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Brewing tea\n", "\n", "Notes on water."]},
        {"cell_type": "markdown", "metadata": {}, "source": "## Temperature\n\nGreen tea wants water at 80 degrees."},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": ["def steep(minutes):\n",
                                                                             "    return minutes * 60"],
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["SECRET OUTPUT\n"]}]},
        {"cell_type": "raw", "metadata": {}, "source": "raw cell text"},
    ],
}
CSV = "City,Population,Canton\nZurich,\"421,878\",Zurich\nGeneva,\"203,856\",Geneva\n\nBern,\"134,591\",Bern,extra\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_notebook_keeps_its_markdown_and_code_under_its_headings_and_leaves_out_outputs(tmp_path):
    parsed = parse_file(write(tmp_path, "tea.ipynb", json.dumps(NOTEBOOK, indent=1)), "tea.ipynb")
    assert parsed.format == "ipynb" and parsed.title == "Brewing tea"
    assert "## Temperature" in parsed.text and "```python\ndef steep(minutes):" in parsed.text
    assert "SECRET OUTPUT" not in parsed.text and "raw cell text" not in parsed.text


@pytest.mark.parametrize("text, message", [
    ('{"cells": [], "nbformat": 3}', "not a notebook this server reads"),
    ('{"cells": [', "not valid JSON"),
])
def test_a_file_named_ipynb_that_is_not_a_notebook_is_refused_with_what_to_send(tmp_path, text, message):
    with pytest.raises(RejectedFile, match=message):
        parse_file(write(tmp_path, "x.ipynb", text), "x.ipynb")


def test_each_row_of_a_table_is_a_unit_naming_its_columns(tmp_path):
    parsed = parse_file(write(tmp_path, "cities.csv", CSV), "cities.csv")
    assert [u.heading for u in parsed.units] == ["Zurich", "Geneva", "Bern"]
    first = parsed.text[parsed.units[0].start:parsed.units[0].end]
    assert first == "City: Zurich\nPopulation: 421,878\nCanton: Zurich"
    assert parsed.warnings and "more cells than the header" in parsed.warnings[0]
    tsv = parse_file(write(tmp_path, "cities.tsv", CSV.replace(",", "\t").replace('"421\t878"', "421878")),
                     "cities.tsv")
    assert tsv.format == "tsv" and "City: Zurich" in tsv.text


def test_a_table_without_rows_is_refused(tmp_path):
    with pytest.raises(RejectedFile, match="header row and at least one row"):
        parse_file(write(tmp_path, "empty.csv", "City,Population\n"), "empty.csv")


@pytest.fixture
def client(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend).test_client()


def test_a_row_of_an_uploaded_table_answers_a_question_and_is_cited_by_its_name(client):
    job = wait_for(client, upload(client, "cities.csv", CSV.encode()).get_json())
    assert job["status"] == "done", job
    body = client.post("/api/query", json={"question": "What is the population of Geneva?",
                                           "filters": {"document_ids": ["cities"]}}).get_json()
    assert body["passages"][0]["ref"] == "cities § Geneva" and "203,856" in body["passages"][0]["chunk"]
    notebook = wait_for(client, upload(client, "tea.ipynb", json.dumps(NOTEBOOK).encode()).get_json())
    assert notebook["status"] == "done", notebook
    found = client.post("/api/query", json={"question": "What temperature for green tea?",
                                            "filters": {"document_ids": ["tea"]}}).get_json()
    assert any("80 degrees" in p["chunk"] for p in found["passages"])


def test_a_table_over_the_row_cap_is_refused_while_it_is_read(tmp_path, monkeypatch):
    from ingest import table_reader

    monkeypatch.setattr(table_reader, "MAX_ROWS", 5)
    path = tmp_path / "big.csv"
    path.write_text("name,value\n" + "".join(f"row {n},{n}\n" for n in range(1000)))
    with pytest.raises(RejectedFile, match="more than 5 rows; a table may have at most 5 rows, so split it"):
        parse_file(path, path.name)  # said at the sixth row: the other 994 are never held


@pytest.mark.parametrize("text, message", [
    ("[" * 200_000 + "]" * 200_000, "nests its JSON too deeply to be a notebook"),
    ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": "x = 1"}], "metadata": {"language_info": "python"}}',
     None),
    ('{"nbformat": 4, "cells": [], "metadata": {"kernelspec": {"language": 7}}}', "names its language as int"),
])
def test_a_malformed_notebook_fails_with_what_is_wrong_with_it(tmp_path, text, message):
    path = tmp_path / "odd.ipynb"
    path.write_text(text)
    if message is None:  # a language_info that is not an object is read past: the notebook names no language
        assert "x = 1" in parse_file(path, path.name).text
        return
    with pytest.raises(RejectedFile, match=message):
        parse_file(path, path.name)
