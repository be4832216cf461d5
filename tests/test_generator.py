"""The prompt, citation parsing, and the Generator's decline and fallback rules."""
import pytest

from conftest import FakeWriter, make_retriever
from checks.answer import parse_citations
from generator import Generator
from models import WriteRequest
from checks.declines import CANNOT_ANSWER
from writers.prompt import ANSWER_STYLES, SYSTEM_PROMPT, build_prompt
from writers.writer import ProviderError, Writer


@pytest.fixture
def hits():
    return make_retriever().search("Who discovered penicillin?", top_k=3)


def test_prompt_keeps_rules_in_system_and_passages_in_delimited_evidence(hits):
    system, user = build_prompt(WriteRequest("Who discovered penicillin?", "factual_lookup", hits))
    assert system == SYSTEM_PROMPT and CANNOT_ANSWER in system and "[1]" in system
    assert "penicillin in 1928" not in system  # retrieved text never reaches the system prompt
    evidence = user[user.index("Now answer."):]
    assert evidence.count("<evidence>") == 1 and evidence.count("</evidence>") == 1
    assert f"[1] {hits[0].chunk.title}\n{hits[0].chunk.text}" in evidence
    assert "Answer language: English" in evidence
    assert f"[3] {hits[2].chunk.title}" in evidence and "[4]" not in evidence
    assert "Question type: factual_lookup" in evidence and ANSWER_STYLES["factual_lookup"] in evidence
    assert evidence.rstrip().endswith("Question: Who discovered penicillin?\nAnswer:")
    assert user.startswith("Example")  # the few-shot example comes first


@pytest.mark.parametrize(
    "text, cleaned, numbers, invalid",
    [
        ("Fleming found it [1].", "Fleming found it [1].", [1], []),
        ("A [1][3]. B [2].", "A [1][3]. B [2].", [1, 3, 2], []),
        ("A [1, 2].", "A [1][2].", [1, 2], []),
        ("A [7]. B [2].", "A. B [2].", [2], [7]),
        ("A [0] and [4].", "A and.", [], [0, 4]),
        ("No citations here.", "No citations here.", [], []),
    ],
)
def test_parse_citations(hits, text, cleaned, numbers, invalid):
    out, citations, bad = parse_citations(text, hits)
    assert out == cleaned
    assert [c.n for c in citations] == numbers
    assert bad == invalid
    for c in citations:
        assert c.passage_id == hits[c.n - 1].chunk.id and c.title == hits[c.n - 1].chunk.title


def test_no_passages_declines_without_calling_the_writer():
    writer = FakeWriter("offline")
    answer = Generator({"offline": writer}, "offline").answer(WriteRequest("Anything?", "factual_lookup", []))
    assert answer.text == CANNOT_ANSWER and answer.declined and writer.calls == []


def test_forged_citation_is_dropped_and_reported(hits):
    writer = FakeWriter("offline", ["Fleming [1]. Forged [9]."])
    answer = Generator({"offline": writer}, "offline").answer(WriteRequest("Who?", "factual_lookup", hits))
    assert answer.text == "Fleming [1]. Forged."
    assert [c.n for c in answer.citations] == [1] and answer.invalid_citations == [9]
    assert not answer.declined


def test_writer_decline_is_marked(hits):
    answer = Generator({"offline": FakeWriter("offline", [CANNOT_ANSWER])}, "offline").answer(WriteRequest("Q", "reasoning", hits))
    assert answer.declined and answer.text.startswith(f"{CANNOT_ANSWER} The nearest passages found:")
    assert all(c.verified is None for c in answer.citations)  # named, not claimed: no support was checked


class FailingWriter(Writer):
    name = "claude"

    def write(self, request):
        raise ProviderError("Claude: APITimeoutError")


def test_failed_provider_falls_back_to_offline_and_says_so(hits):
    offline = FakeWriter("offline", ["Offline answer [1]."])
    generator = Generator({"claude": FailingWriter(), "offline": offline}, "claude")
    answer = generator.answer(WriteRequest("Who discovered penicillin?", "factual_lookup", hits))
    assert answer.generator == "offline" and answer.text == "Offline answer [1]."
    assert "Claude: APITimeoutError" in answer.degraded and "written offline" in answer.degraded


def test_requested_provider_is_used(hits):
    a, b = FakeWriter("a", ["From a [1]."]), FakeWriter("b", ["From b [1]."])
    answer = Generator({"a": a, "b": b}, "a").answer(WriteRequest("Q", "explanation", hits), provider="b")
    assert answer.generator == "b" and answer.text == "From b [1]." and a.calls == []
    assert b.calls[0][1] == "explanation"
