"""The Claude, Gemini and OpenAI-compatible writers over real HTTP against stand-ins that speak each wire format:
what they send, how native citations become statements, forged citations passed on, streaming and disconnects."""
import json

import pytest

from models import Draft, Statement, WriteRequest
from standin import (
    ANSWER,
    PROVIDERS,
    answer_body,
    cited,
    claude_message,
    gemini_response,
    make_hits,
    make_writer,
    openai_completion,
    search_result_citation,
)
from writers.gemini import GEMINI_JSON
from checks.declines import decline_text
from writers.prompt import SYSTEM_PROMPT, build_prompt, task_text
from writers.writer import ProviderError

QUESTION = "Who discovered penicillin?"
FLEMING = "He discovered penicillin in 1928."


def test_claude_sends_each_passage_as_a_citable_search_result(standin, request_):
    standin.reply(200, claude_message(ANSWER))
    make_writer("claude", standin.url).write(request_)
    sent = standin.requests[0]
    assert sent["path"] == "/v1/messages"
    headers = sent["headers"]
    assert headers.get("x-api-key") == "test-key" or headers.get("authorization") == "Bearer test-key"
    body = sent["json"]
    assert body["model"] == "claude-standin" and body["max_tokens"] == 1024 and body["system"] == SYSTEM_PROMPT
    *results, task = body["messages"][0]["content"]
    assert results[1] == {"type": "search_result", "source": "everest#0", "title": "Geography 1:2",
                          "content": [{"type": "text", "text": "Mount Everest is Earth's highest mountain above sea level."}],
                          "citations": {"enabled": True}}
    assert [r["title"] for r in results] == ["Alexander Fleming", "Geography 1:2", "Ancient Rome"]
    assert task == {"type": "text", "text": task_text(request_)}


def test_claude_native_citations_become_markers_and_statements(standin, request_):
    standin.reply(200, claude_message(blocks=[
        {"type": "text", "text": "According to the passages, "},
        cited("Alexander Fleming discovered penicillin in 1928", search_result_citation(0, FLEMING, "fleming#0")),
        {"type": "text", "text": ". "},
        cited("Everest is the highest mountain.", search_result_citation(1, "Mount Everest is Earth's highest"),
              search_result_citation(0, "Alexander Fleming")),
    ]))
    draft = make_writer("claude", standin.url).write(request_)
    assert draft.text == ("According to the passages, Alexander Fleming discovered penicillin in 1928 [1]. "
                          "Everest is the highest mountain [2][1].")
    assert draft.statements == [
        Statement("According to the passages, Alexander Fleming discovered penicillin in 1928.", [1], [FLEMING]),
        Statement("Everest is the highest mountain.", [2, 1], ["Mount Everest is Earth's highest", "Alexander Fleming"]),
    ]
    assert draft.model == "claude-standin"


def test_claude_forged_citations_are_passed_on_as_given(standin, request_):
    standin.reply(200, claude_message(blocks=[
        cited("Penicillin cures everything", search_result_citation(11, "It cures everything.")),
        {"type": "text", "text": ". "},
        cited("Fleming was French", search_result_citation(0, "Fleming was a French baker.")),
        {"type": "text", "text": "."},
    ]))
    draft = make_writer("claude", standin.url).write(request_)
    assert draft.text == "Penicillin cures everything [12]. Fleming was French [1]."
    assert draft.statements == [Statement("Penicillin cures everything.", [12], ["It cures everything."]),
                                Statement("Fleming was French.", [1], ["Fleming was a French baker."])]


def test_claude_plain_markers_are_read_too(standin, request_):
    standin.reply(200, claude_message("Fleming discovered penicillin [1].\nEverest is the highest [2][7]."))
    draft = make_writer("claude", standin.url).write(request_)
    assert draft.text == "Fleming discovered penicillin [1].\nEverest is the highest [2][7]."
    assert draft.statements == [Statement("Fleming discovered penicillin.", [1], []),
                                Statement("Everest is the highest.", [2, 7], [])]


def test_claude_decline_has_no_statements(standin, request_):
    standin.reply(200, claude_message(decline_text("en")))
    assert make_writer("claude", standin.url).write(request_) == Draft(decline_text("en"), None, "claude-standin")


def test_gemini_asks_for_the_answer_schema_as_json(standin, request_):
    standin.reply(200, answer_body("gemini"))
    make_writer("gemini", standin.url).write(request_)
    sent = standin.requests[0]
    assert sent["path"].endswith("/models/gemini-standin:generateContent")
    assert sent["headers"]["x-goog-api-key"] == "test-key"
    body = sent["json"]
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    schema = config["responseSchema"]
    assert schema["required"] == ["answerable", "sentences"] and schema["properties"]["answerable"]["type"] == "BOOLEAN"
    citation = schema["properties"]["sentences"]["items"]["properties"]["citations"]["items"]
    assert citation["properties"] == {"passage": {"type": "INTEGER"}, "quote": {"type": "STRING"}}
    assert config["temperature"] == 0.1 and config["maxOutputTokens"] == 1024
    assert body["systemInstruction"]["parts"][0]["text"] == SYSTEM_PROMPT
    user = body["contents"][0]["parts"][0]["text"]
    assert user == build_prompt(request_)[1] + "\n\n" + GEMINI_JSON and "[2] Geography 1:2\nMount Everest" in user


def test_gemini_sentences_become_statements_with_forgeries_passed_on(standin, request_):
    reply = {"answerable": True, "sentences": [
        {"text": "Fleming discovered penicillin in 1928.", "citations": [{"passage": 1, "quote": FLEMING}]},
        {"text": "It was found on Everest [2].", "citations": [{"passage": 9, "quote": "found on Everest"}]},
        {"text": "It cures all.", "citations": []},
    ]}
    standin.reply(200, gemini_response(json.dumps(reply)))
    draft = make_writer("gemini", standin.url).write(request_)
    assert draft.text == "Fleming discovered penicillin in 1928 [1]. It was found on Everest [9][2]. It cures all."
    assert draft.statements == [Statement("Fleming discovered penicillin in 1928.", [1], [FLEMING]),
                                Statement("It was found on Everest.", [9, 2], ["found on Everest"]),
                                Statement("It cures all.", [], [])]
    assert draft.model == "gemini-standin"


def test_gemini_unanswerable_is_the_decline_in_the_answer_language(standin):
    standin.reply(200, gemini_response('{"answerable": false, "sentences": []}'))
    request = WriteRequest("מי גילה את הפניצילין?", "factual_lookup", make_hits(), language="he")
    draft = make_writer("gemini", standin.url).write(request)
    assert draft.text == decline_text("he") and draft.statements is None


@pytest.mark.parametrize("raw", [
    "Fleming discovered penicillin [1].",  # prose, not JSON
    '{"answerable": true, "sentences": [{"text": "Fleming.", "citations": [{"passage": 1, "quote": "x"}]}',  # cut off
    '{"answerable": "yes", "sentences": []}',
    '{"answerable": true, "sentences": "Fleming discovered penicillin."}',
    '{"answerable": true, "sentences": [{"text": "Fleming.", "citations": [{"passage": "1", "quote": "x"}]}]}',
    '{"answerable": true, "sentences": [{"text": 7, "citations": []}]}',
    "[]",
])
def test_gemini_reply_that_is_not_the_schema_is_a_provider_error(standin, request_, raw):
    standin.reply(200, gemini_response(raw))
    with pytest.raises(ProviderError, match="^Gemini: the reply was not the requested JSON$"):
        make_writer("gemini", standin.url).write(request_)
    assert len(standin.requests) == 1  # a wrong reply is not retried


def test_openai_sends_the_text_prompt_as_chat_messages(standin, request_):
    standin.reply(200, openai_completion(ANSWER))
    draft = make_writer("openai", standin.url).write(request_)
    assert draft == Draft(ANSWER, None, "local-standin")
    sent = standin.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["headers"]["authorization"] == "Bearer test-key"
    system, user = build_prompt(request_)
    assert sent["json"] == {"model": "local-standin", "max_tokens": 1024, "temperature": 0.1,
                            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}


def test_openai_without_a_key_sends_no_authorization(standin, request_):
    from writers.openai_compatible import OpenAIWriter

    standin.reply(200, openai_completion(ANSWER))
    OpenAIWriter(standin.url + "/v1/", "llama3", timeout=2.0).write(request_)
    assert standin.requests[0]["path"] == "/v1/chat/completions"
    assert "authorization" not in standin.requests[0]["headers"]


@pytest.mark.parametrize("body", ["<html>bad gateway</html>", {"choices": []}, {"choices": [{"message": {}}]}])
def test_openai_reply_that_is_not_a_completion_is_a_provider_error(standin, request_, body):
    standin.reply(200, body)
    with pytest.raises(ProviderError, match="^OpenAI-compatible server: the reply was not a chat completion$"):
        make_writer("openai", standin.url).write(request_)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_request_model_and_max_tokens_reach_the_provider(standin, request_, provider):
    standin.reply(200, answer_body(provider))
    writer = make_writer(provider, standin.url, max_tokens=300)
    writer.write(WriteRequest(QUESTION, "factual_lookup", make_hits(), model="bigger-model"))
    sent = standin.requests[0]
    if provider == "gemini":
        assert sent["path"].endswith("/models/bigger-model:generateContent")
        assert sent["json"]["generationConfig"]["maxOutputTokens"] == 300
    else:
        assert sent["json"]["model"] == "bigger-model" and sent["json"]["max_tokens"] == 300
    assert writer.model != "bigger-model"  # the override is for this request only


@pytest.mark.parametrize("provider", PROVIDERS)
def test_complete_is_a_short_plain_completion(standin, provider):
    reply = {"claude": claude_message(" Who discovered penicillin? "),
             "openai": openai_completion("Who discovered penicillin?"),
             "gemini": gemini_response("Who discovered penicillin?\n")}[provider]
    standin.reply(200, reply)
    writer = make_writer(provider, standin.url)
    assert writer.complete("Rewrite the question.", "and penicillin?", model="small", max_tokens=64) == QUESTION
    body = standin.requests[0]["json"]
    if provider == "gemini":
        assert "responseMimeType" not in body["generationConfig"] and body["generationConfig"]["maxOutputTokens"] == 64
        assert body["contents"][0]["parts"][0]["text"] == "and penicillin?"
    elif provider == "claude":
        assert body == {"model": "small", "max_tokens": 64, "system": "Rewrite the question.",
                        "messages": [{"role": "user", "content": "and penicillin?"}]}
    else:
        assert body["model"] == "small" and body["max_tokens"] == 64
        assert body["messages"] == [{"role": "system", "content": "Rewrite the question."},
                                    {"role": "user", "content": "and penicillin?"}]
