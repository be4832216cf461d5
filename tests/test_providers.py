"""Claude and Gemini writers over real HTTP against local stand-ins that speak each wire format."""
import pytest

from conftest import make_retriever
from generator import SYSTEM_PROMPT, Generator, ProviderError
from providers import ClaudeWriter, GeminiWriter
from standin import StandIn, claude_message, error_body, gemini_response

QUESTION = "Who discovered penicillin?"


@pytest.fixture
def standin():
    server = StandIn()
    yield server
    server.close()


@pytest.fixture
def hits():
    return make_retriever().search(QUESTION, top_k=3)


def claude(standin, **kw):
    return ClaudeWriter("test-key", "claude-standin", standin.url, **kw)


def gemini(standin, **kw):
    return GeminiWriter("test-key", "gemini-standin", standin.url, **kw)


def test_claude_sends_the_prompt_and_returns_the_text(standin, hits):
    standin.reply(200, claude_message("Alexander Fleming discovered penicillin [1]."))
    assert claude(standin).write(QUESTION, "factual_lookup", hits) == "Alexander Fleming discovered penicillin [1]."
    request = standin.requests[0]
    assert request["path"] == "/v1/messages"
    headers = request["headers"]
    assert headers.get("x-api-key") == "test-key" or headers.get("authorization") == "Bearer test-key"
    body = request["json"]
    assert body["model"] == "claude-standin" and body["max_tokens"] == 1024
    assert body["system"] == SYSTEM_PROMPT
    assert body["messages"][0]["role"] == "user" and "[1] Alexander Fleming" in body["messages"][0]["content"]


def test_gemini_sends_the_prompt_and_returns_the_text(standin, hits):
    standin.reply(200, gemini_response("Fleming discovered it in 1928 [1]."))
    assert gemini(standin).write(QUESTION, "factual_lookup", hits) == "Fleming discovered it in 1928 [1]."
    request = standin.requests[0]
    assert request["path"].endswith("/models/gemini-standin:generateContent")
    assert request["headers"]["x-goog-api-key"] == "test-key"
    body = request["json"]
    assert body["generationConfig"]["temperature"] == 0.1 and body["generationConfig"]["maxOutputTokens"] == 1024
    assert body["systemInstruction"]["parts"][0]["text"] == SYSTEM_PROMPT
    assert "[1] Alexander Fleming" in body["contents"][0]["parts"][0]["text"]


@pytest.mark.parametrize("make", [claude, gemini])
@pytest.mark.parametrize("status", [429, 503])
def test_busy_provider_is_retried_a_bounded_number_of_times(standin, hits, make, status):
    standin.reply(status, error_body(status))
    with pytest.raises(ProviderError):
        make(standin, retries=2).write(QUESTION, "factual_lookup", hits)
    assert len(standin.requests) == 3  # one try and two retries, never more


@pytest.mark.parametrize("make", [claude, gemini])
def test_retry_recovers_after_a_transient_error(standin, hits, make):
    ok = claude_message("Fleming [1].") if make is claude else gemini_response("Fleming [1].")
    standin.reply(503, error_body(503)).reply(200, ok)
    assert make(standin, retries=2).write(QUESTION, "factual_lookup", hits) == "Fleming [1]."
    assert len(standin.requests) == 2


@pytest.mark.parametrize("make", [claude, gemini])
def test_timeout_becomes_a_provider_error(standin, hits, make):
    standin.reply(200, claude_message("late"), delay=3.0)
    with pytest.raises(ProviderError):
        make(standin, timeout=0.5, retries=0).write(QUESTION, "factual_lookup", hits)


def test_forged_citation_from_a_provider_is_dropped(standin, hits):
    standin.reply(200, claude_message("Fleming discovered penicillin [1]. It cured everything [12]."))
    generator = Generator({"claude": claude(standin)}, "claude")
    answer = generator.answer(QUESTION, "factual_lookup", hits)
    assert answer.text == "Fleming discovered penicillin [1]. It cured everything."
    assert [c.n for c in answer.citations] == [1] and answer.invalid_citations == [12]


def test_failing_provider_degrades_to_the_offline_answer(standin, hits):
    from conftest import FakeWriter

    standin.reply(503, error_body(503))
    generator = Generator({"gemini": gemini(standin, retries=0), "offline": FakeWriter("offline")}, "gemini")
    answer = generator.answer(QUESTION, "factual_lookup", hits)
    assert answer.generator == "offline" and answer.degraded.startswith("gemini failed")
    assert answer.citations and answer.citations[0].passage_id == "fleming#0"
