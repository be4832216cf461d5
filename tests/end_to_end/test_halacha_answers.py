"""The 137 lay questions of data/eval/halacha-he answered offline over the simanim they ask about (the Shulchan Arukh
from ../shared, with the fake embedder and the real answerability judge): every answer teaches the sources under
their references, never rules in its own voice, and, when it answers (a decline rules on nothing), ends with the line
that a rabbi decides practical questions."""
import json
from pathlib import Path

import pytest

from app import create_app
from builders import SHARED_SA, halacha_pipeline
from checks.declines import found_text
from checks.verify import split_claims
from question.halacha import rabbi_line, rules

QUESTIONS = Path(__file__).resolve().parents[2] / "data" / "eval" / "halacha-he"

pytestmark = pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    simanim = {line.split("\t")[1].rsplit(":", 1)[0] for line in (QUESTIONS / "qrels" / "test.tsv").read_text().splitlines()[1:]}
    _, pipeline, _ = halacha_pipeline(tmp_path_factory.mktemp("halacha"), simanim)
    return create_app({"TESTING": True}, pipeline=pipeline).test_client()


def test_every_halachic_answer_teaches_the_sources_and_sends_practice_to_a_rabbi(client):
    questions = [json.loads(line) for line in (QUESTIONS / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(questions) == 137
    for question in questions:
        body = client.post("/api/query", json={"question": question["text"]}).json
        assert body["halachic"] is True, question["_id"]
        assert body["answer"].endswith(rabbi_line("he")) is not body["declined"], question["_id"]
        said = body["answer"].removesuffix(rabbi_line("he"))
        claims = [c for c in split_claims(said) if not c.structural and c.plain]
        passages = {p["n"]: " ".join(p["chunk"].split()) for p in body["passages"]}
        for claim in claims:  # "מותר לך" or "you may" only in a source's own words, never in Evidenz's voice
            quoted = claim.cited and all(quote_of(claim.plain) in passages[n] for n in claim.cited)
            assert quoted or not rules(claim.plain), (question["_id"], claim.plain)
        if not body["declined"]:
            assert claims and all(c.cited for c in claims), question["_id"]  # each opinion under its source's [n]
            assert body["citations"] and all(c["ref"].startswith("Shulchan Arukh") for c in body["citations"])


def quote_of(sentence: str) -> str:
    """A sentence of the offline writer as its passage has it: without the final stop the citation moved, and
    without the decline's lead-in to what the sources do say ("מה שהם כן אומרים:"), which is Evidenz's own."""
    return " ".join(sentence.split()).removeprefix(found_text("he")).strip().rstrip(".:")
