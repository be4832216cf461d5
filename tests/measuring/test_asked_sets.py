"""The sets written for issue 31 hold what their cards say: halves without a shared subject, answers copied from
the texts they name, and no subject asked about in wiki-trust."""
import json
from collections import Counter
from pathlib import Path

import pytest

from measuring.datasets import read_qrels, read_queries

ROOT = Path(__file__).resolve().parents[2]
WIKI = ROOT / "data" / "downloads" / "wiki" / "corpus.jsonl"
HEQ = ROOT.parent / "shared" / "data" / "heq-dev" / "corpus.jsonl"


def rows(name):
    with open(ROOT / "data" / "eval" / name / "queries.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def subject(row):
    metadata = row["metadata"]
    return (metadata.get("docs") or [metadata.get("about")])[0]


@pytest.mark.parametrize("name, total", [("wiki-asked", 440), ("heq-asked", 124)])
def test_half_answerable_and_no_subject_in_both_halves(name, total):
    found = rows(name)
    assert len(found) == total and len({r["_id"] for r in found}) == total
    assert Counter(r["metadata"]["answerable"] for r in found) == {True: total // 2, False: total // 2}
    halves = {}
    for row in found:
        halves.setdefault(subject(row), set()).add(row["metadata"]["half"])
    assert all(len(h) == 1 for h in halves.values())
    assert {h for hs in halves.values() for h in hs} == {"tune", "test"}
    queries, qrels = read_queries(ROOT / "data" / "eval" / name), read_qrels(ROOT / "data" / "eval" / name)
    assert {q["id"] for q in queries if q["answerable"]} == set(qrels)  # each answerable one names its texts


def test_no_subject_of_wiki_trust_is_asked_about_again():
    trust = {d for r in rows("wiki-trust") for d in r["metadata"].get("docs", []) + [r["metadata"].get("about")]}
    assert not {subject(r) for r in rows("wiki-asked")} & (trust - {None})


@pytest.mark.parametrize("name, corpus", [("wiki-asked", WIKI), ("heq-asked", HEQ)])
def test_every_answer_is_copied_from_a_text_it_names(name, corpus):
    if not corpus.exists():
        pytest.skip(f"{corpus} is absent (the default library's corpus comes with `make library`; heq-dev with ../shared)")
    texts = {}
    with open(corpus, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            texts[record["_id"]] = record["text"].casefold()
    for row in rows(name):
        metadata = row["metadata"]
        if metadata["answerable"]:
            assert all(d in texts for d in metadata["docs"]), row["_id"]
            assert any(a.casefold() in texts[d] for a in metadata["answers"] for d in metadata["docs"]), row["_id"]
        else:
            assert metadata["about"] in texts and metadata["searched"], row["_id"]
