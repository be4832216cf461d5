"""The whole app with Claude, Gemini and an OpenAI-compatible server configured, each a local stand-in over
real HTTP, and the real models and library: streamed answers are checked, forged citations are caught, and a
failing provider degrades to the offline writer with the passages and a reason, as /api/health then reports."""
import json

import pytest

from app import create_app
from standin import (
    cited,
    claude_message,
    claude_stream,
    error_body,
    gemini_response,
    openai_completion,
    openai_stream,
    providers_config,
    search_result_citation,
)

QUESTION = "Who discovered penicillin?"
CLAIM = "Alexander Fleming discovered penicillin in 1928."
FLEMING = "He discovered penicillin in 1928, the first antibiotic substance."  # verbatim in the passage


@pytest.fixture(scope="module")
def llm_app(real_library, standins):
    return create_app({"TESTING": True, "LIBRARY_DIR": str(real_library), "LOAD_ON_START": True,
                       **providers_config(standins), "LLM_RETRIES": 1,
                       "MAX_SEARCHES": 0})  # the writers are given the passages (test_research_real.py: they search)


def events(response) -> list[tuple[str, dict]]:
    """The (event, data) pairs of an SSE body."""
    blocks = response.get_data(as_text=True).strip().split("\n\n")
    return [(b.split("\n")[0][len("event: "):], json.loads(b.split("\n")[1][len("data: "):])) for b in blocks]


def answer_with(standin, status, body):
    """Make body the stand-in's only reply (it repeats its last one)."""
    standin.replies.clear()
    standin.reply(status, body)


def ask(app, provider: str, stream: bool = False):
    client = app.test_client()
    body = {"question": QUESTION, "provider": provider}
    if stream:
        return events(client.post("/api/query/stream", json=body))
    return client.post("/api/query", json=body).json


def test_gemini_is_the_default_when_every_key_is_set(llm_app):
    health = llm_app.test_client().get("/api/health").json
    assert health["generator"] == "gemini" and set(health["providers"]) == {"offline", "claude", "gemini", "openai"}


def test_a_streamed_openai_compatible_answer_is_checked_against_the_real_passages(llm_app, standins):
    answer_with(standins["openai"], 200, openai_stream(["Alexander Fleming discovered ", "penicillin in 1928 [1]. ",
                                                 "The Moon is made of cheese [1]."]))
    got = ask(llm_app, "openai", stream=True)
    deltas = [data["text"] for name, data in got if name == "delta"]
    answer = next(data for name, data in got if name == "answer")
    assert len(deltas) == 3 and "cheese" in "".join(deltas)  # streamed as written ...
    assert answer["passages"][0]["id"] == "Alexander_Fleming#0"
    assert answer["answer"] == "Alexander Fleming discovered penicillin in 1928 [1]."  # ... then checked
    assert answer["removed_claims"] == ["The Moon is made of cheese."] and answer["generator"] == "openai"
    [citation] = answer["citations"]
    assert citation["verified"] and citation["support"] >= 0.61 and citation["spans"]
    sent = standins["openai"].requests[-1]["json"]
    assert sent["model"] == "local-standin" and "<evidence>" in sent["messages"][1]["content"]


def test_a_model_answer_that_does_not_answer_the_question_is_declined_by_the_real_judge(llm_app, standins):
    answer_with(standins["openai"], 200, openai_completion("Sir Alexander Fleming was a Scottish physician and "
                                                           "microbiologist [1]."))
    body = ask(llm_app, "openai")
    assert body["declined"] and body["generator"] == "openai" and body["answerability"] < 0.5
    assert body["answer"] == ("The provided sources do not answer this question. What they do say: Sir Alexander Fleming "
                              "was a Scottish physician and microbiologist [1].")
    assert [c["n"] for c in body["citations"]] == [1]


def test_claude_native_citations_map_to_passages_and_a_forged_one_is_caught(llm_app, standins):
    real = search_result_citation(0, FLEMING)
    forged = search_result_citation(1, "Penicillin cures every disease known to medicine.")
    answer_with(standins["claude"], 200, claude_message(blocks=[cited(CLAIM, real), cited(" Penicillin cures everything.", forged)]))
    body = ask(llm_app, "claude")
    assert body["answer"] == "Alexander Fleming discovered penicillin in 1928 [1]."
    assert body["removed_claims"] == ["Penicillin cures everything."]
    assert body["citations"][0]["quote_verified"] is True and body["generator"] == "claude"
    sent = standins["claude"].requests[-1]["json"]["messages"][0]["content"]
    assert sent[0]["type"] == "search_result" and sent[0]["citations"] == {"enabled": True}


def test_claude_streams_text_deltas(llm_app, standins):
    answer_with(standins["claude"], 200, claude_stream([cited(CLAIM, search_result_citation(0, FLEMING))]))
    got = ask(llm_app, "claude", stream=True)
    assert [name for name, _ in got].count("delta") >= 2
    assert next(d for n, d in got if n == "answer")["citations"][0]["verified"]


def test_gemini_structured_answer_is_validated_and_malformed_json_degrades(llm_app, standins):
    good = {"answerable": True, "sentences": [{"text": CLAIM, "citations": [{"passage": 1, "quote": "discovered penicillin in 1928"}]}]}
    answer_with(standins["gemini"], 200, gemini_response(json.dumps(good)))
    body = ask(llm_app, "gemini")
    assert body["answer"] == "Alexander Fleming discovered penicillin in 1928 [1]."
    assert body["citations"][0]["quote_verified"] is True and not body["degraded"]
    answer_with(standins["gemini"], 200, gemini_response('{"answerable": true, "sentences": [{"text": "Fleming'))
    body = ask(llm_app, "gemini")
    assert body["degraded"] and body["generator"] == "offline" and body["passages"]
    assert "JSON" in body["degraded_reason"] and "Fleming" in body["answer"]


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_provider_degrades_with_the_passages_and_health_says_so(llm_app, standins, status):
    answer_with(standins["openai"], status, error_body(status))
    body = ask(llm_app, "openai")
    assert body["degraded"] is True and body["generator"] == "offline" and len(body["passages"]) >= 1
    assert body["degraded_reason"].startswith("OpenAI-compatible server") and "Fleming" in body["answer"]
    last = llm_app.test_client().get("/api/health").json["providers"]["openai"]["last_call"]
    assert last["ok"] is False and last["error"]
    answer_with(standins["openai"], 200, openai_completion(f"{CLAIM} [1]"))
    assert ask(llm_app, "openai")["generator"] == "openai"
    assert llm_app.test_client().get("/api/health").json["providers"]["openai"]["last_call"]["ok"] is True


@pytest.mark.parametrize("provider", ["claude", "gemini", "openai"])
def test_a_model_name_off_the_allowlist_is_a_400_before_any_provider_call(llm_app, standins, provider):
    client = llm_app.test_client()
    before = len(standins[provider].requests)
    for model in ("no-such-model", "models/../../v1beta/files", "gemini-2.5-flash/extra"):
        response = client.post("/api/query", json={"question": QUESTION, "provider": provider, "model": model})
        assert response.status_code == 400 and "is not offered by" in response.json["error"]
    assert len(standins[provider].requests) == before
    health = client.get("/api/health").json["providers"][provider]
    assert health["circuit"] == "closed" and health["models"][0] == health["model"]
    listed = {"claude": "claude-haiku-4-5", "gemini": "gemini-2.5-pro", "openai": "local-standin"}[provider]
    assert listed in health["models"]
    assert client.post("/api/query", json={"question": QUESTION, "provider": provider, "model": listed}).status_code == 200
