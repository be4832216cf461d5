"""`flask --app app ingest-corpus` with the real embedder: a corpus indexed into LIBRARY_DIR, then an unchanged re-run."""
import json

from app import create_app
from conftest import CORPUS
from search import library
from search.embedding import Embedder


def test_ingest_corpus_indexes_a_corpus_and_skips_it_when_unchanged(tmp_path):
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps({"_id": d.id, "title": d.title, "text": d.text}) + "\n" for d in CORPUS))
    runner = create_app({"TESTING": True, "LIBRARY_DIR": str(tmp_path / "lib")}).test_cli_runner()
    first = runner.invoke(args=["ingest-corpus", str(path)])
    assert first.exit_code == 0, first.output + str(first.exception)
    assert "Indexed 4 new or changed documents" in first.output and "4 documents and 4 chunks" in first.output
    built = library.load(tmp_path / "lib", Embedder.load("sentence-transformers/all-MiniLM-L6-v2"))
    assert {c.doc_id for c in built.current().chunks} == {d.id for d in CORPUS}
    again = runner.invoke(args=["ingest-corpus", str(path)])
    assert again.exit_code == 0 and "Indexed 0 new or changed documents" in again.output
