"""check-agreement: the share of answering sentences the subject and slot rules turn away, and of plausible traps."""
import json

from measuring.agreement_check import check


def folder_with(tmp_path, docs, queries, qrels):
    folder = tmp_path / "tiny-qa"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, d in qrels))
    return folder


def test_answering_sentences_pass_and_a_neighbours_fact_is_turned_away(tmp_path):
    docs = [{"_id": "zurich", "title": "Zurich", "text": "Zurich is the largest city in Switzerland. As of 2024, the "
             "municipality had a population of 436,551."},
            {"_id": "moon", "title": "Moon", "text": "The Moon is Earth's only natural satellite. It orbits Earth at "
             "an average distance of 384,399 kilometers."}]
    queries = [{"_id": "q1", "text": "How far is the Moon from Earth?", "metadata": {"answers": ["384,399"]}},
               {"_id": "q2", "text": "What is the population of Switzerland?",
                "metadata": {"answers": [], "unanswerable": True, "paragraph": "zurich", "plausible_answers": ["436,551"]}}]
    found = check(folder_with(tmp_path, docs, queries, [("q1", "moon")]))
    assert found["answers"] == {"sentences": 1, "turned_away": 0.0, "reasons": {}}
    assert found["plausible"]["turned_away"] == 1.0 and found["plausible"]["reasons"] == {"population/subject:other": 1}


def test_the_command_refuses_a_set_without_a_corpus(tmp_path, app):
    (tmp_path / "qrels").mkdir()
    result = app.test_cli_runner().invoke(args=["check-agreement", str(tmp_path)])
    assert result.exit_code != 0 and "--corpus" in result.output
