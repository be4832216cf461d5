"""The Claude, Gemini and OpenAI-compatible writers over real HTTP against stand-ins that speak each wire format:
what they send, how native citations become statements, forged citations passed on, streaming and disconnects."""
import json

import pytest

from models import Draft, Statement, WriteRequest
from standin import (
    ANSWER,
    PROVIDERS,
    Stream,
    answer_body,
    answer_stream,
    cited,
    claude_message,
    claude_stream,
    error_body,
    gemini_response,
    gemini_stream,
    make_hits,
    make_writer,
    openai_completion,
    openai_stream,
    search_result_citation,
)
from writers.gemini import GEMINI_JSON, SentenceScanner
from writers.prompt import SYSTEM_PROMPT, build_prompt, decline_text, task_text
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


def test_claude_streams_text_then_the_draft_with_native_citations(standin, request_):
    standin.reply(200, claude_stream([{"type": "text", "text": "Penicillin was discovered by "},
                                      cited("Alexander Fleming", search_result_citation(0, FLEMING)),
                                      {"type": "text", "text": "."}]))
    *deltas, draft = make_writer("claude", standin.url).stream(request_)
    assert standin.requests[0]["json"]["stream"] is True
    assert "".join(deltas) == "Penicillin was discovered by Alexander Fleming [1]."
    assert draft == Draft("Penicillin was discovered by Alexander Fleming [1].",
                          [Statement("Penicillin was discovered by Alexander Fleming.", [1], [FLEMING])], "claude-standin")


def test_gemini_streams_each_sentence_as_soon_as_its_json_is_complete(standin, request_):
    standin.reply(200, answer_stream("gemini", words=3, interval=0.02))
    stream = make_writer("gemini", standin.url).stream(request_)
    first = next(stream)
    assert first == "Word 0 [1]."
    total = len(standin.replies[0][1].events)
    assert standin.events_sent < total  # yielded before the reply was complete
    *rest, draft = stream
    assert rest == [" Word 1 [1].", " Word 2 [1]."]
    assert draft.text == "Word 0 [1]. Word 1 [1]. Word 2 [1]." and [s.cited for s in draft.statements] == [[1]] * 3
    assert "streamGenerateContent" in standin.requests[0]["path"] and "alt=sse" in standin.requests[0]["path"]


def test_gemini_stream_that_ends_malformed_is_a_provider_error(standin, request_):
    standin.reply(200, gemini_stream(['{"answerable": true, "sentences": [{"text": "Fleming.", "citations": []}',
                                      ', {"text": "cut']))
    stream = make_writer("gemini", standin.url).stream(request_)
    assert next(stream) == "Fleming."
    with pytest.raises(ProviderError, match="not the requested JSON"):
        next(stream)


def test_gemini_stream_of_a_decline_yields_its_text(standin):
    standin.reply(200, gemini_stream(['{"answerable": false,', ' "sentences": []}']))
    request = WriteRequest(QUESTION, "factual_lookup", make_hits(), language="he")
    assert list(make_writer("gemini", standin.url).stream(request)) == [
        decline_text("he"), Draft(decline_text("he"), None, "gemini-standin")]


def test_openai_streams_content_deltas_then_the_draft(standin, request_):
    standin.reply(200, openai_stream(["Fleming ", "discovered penicillin", " [1]."]))
    *deltas, draft = make_writer("openai", standin.url).stream(request_)
    assert deltas == ["Fleming ", "discovered penicillin", " [1]."]
    assert draft == Draft(ANSWER, None, "local-standin")
    assert standin.requests[0]["json"]["stream"] is True


def test_openai_stream_with_a_broken_event_is_not_retried(standin, request_):
    standin.reply(200, Stream([(None, {"choices": [{"delta": {"content": "Fleming "}}]}), (None, "{not json")]))
    stream = make_writer("openai", standin.url, retries=2).stream(request_)
    assert next(stream) == "Fleming "
    with pytest.raises(ProviderError, match="not a chat completion stream"):
        next(stream)
    assert len(standin.requests) == 1  # text was already sent: a retry would repeat it


@pytest.mark.parametrize("provider", PROVIDERS)
def test_closing_the_stream_early_stops_the_provider(standin, request_, provider):
    standin.reply(200, answer_stream(provider, words=40, interval=0.03))
    writer = make_writer(provider, standin.url)
    stream = writer.stream(request_)
    first, second = next(stream), next(stream)
    assert isinstance(first, str) and isinstance(second, str)
    stream.close()  # the client went away
    assert standin.disconnected.wait(3), "the stand-in never saw the client hang up"
    assert standin.events_sent < len(standin.replies[0][1].events)
    assert writer.status()["last_call"]["ok"] is True  # the provider was answering; hanging up is not its failure


def test_sentence_scanner_finds_objects_only_when_complete():
    scanner = SentenceScanner()
    assert scanner.feed('{"answerable": true, "sent') == []
    assert scanner.feed('ences": [{"text": "A [1] {not a brace}.", "cit') == []
    assert scanner.feed('ations": []}, {"text": "B') == [{"text": "A [1] {not a brace}.", "citations": []}]
    assert scanner.feed('.", "citations": []}]}') == [{"text": "B.", "citations": []}]
    assert scanner.feed("") == []


def test_forged_native_citation_is_reported_by_the_generator(standin, request_):
    from generator import Generator

    blocks = [cited("Fleming discovered penicillin in 1928", search_result_citation(0, FLEMING)),
              {"type": "text", "text": ". "},
              cited("It cured everything", search_result_citation(11, "It cures everything.")),
              {"type": "text", "text": "."}]
    standin.reply(200, lambda body: claude_stream(blocks) if body.get("stream") else claude_message(blocks=blocks))
    answer = Generator({"claude": make_writer("claude", standin.url)}, "claude").answer(request_)
    assert answer.text == "Fleming discovered penicillin in 1928 [1]. It cured everything."
    assert [c.n for c in answer.citations] == [1] and answer.invalid_citations == [12]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_failing_provider_degrades_to_the_offline_answer(standin, request_, provider):
    from conftest import FakeWriter
    from generator import Generator

    standin.reply(503, error_body(503))
    writers = {provider: make_writer(provider, standin.url, retries=0), "offline": FakeWriter("offline")}
    answer = Generator(writers, provider).answer(request_)
    assert answer.generator == "offline" and "HTTP 503" in answer.degraded
    assert answer.citations and answer.citations[0].passage_id == "fleming#0"


@pytest.mark.parametrize("provider", ["claude", "openai"])
def test_a_plain_body_where_a_stream_was_asked_is_a_provider_error(standin, request_, provider):
    standin.reply(200, answer_body(provider))
    with pytest.raises(ProviderError, match="the reply was not a (message|chat completion) stream$"):
        list(make_writer(provider, standin.url).stream(request_))


def test_claude_event_stream_where_a_message_was_asked_is_a_provider_error(standin, request_):
    standin.reply(200, claude_stream([{"type": "text", "text": "Fleming [1]."}]))
    with pytest.raises(ProviderError, match="^Claude: the reply was not a message$"):
        make_writer("claude", standin.url).write(request_)


def test_claude_error_event_after_text_is_a_provider_error_without_retry(standin, request_):
    began = claude_stream([{"type": "text", "text": "Fleming "}]).events[:4]  # start, block start, two deltas
    overloaded = ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
    standin.reply(200, Stream(began + [overloaded]))
    stream, deltas = make_writer("claude", standin.url, retries=2).stream(request_), []
    with pytest.raises(ProviderError, match="^Claude: error event in the stream$"):
        for piece in stream:
            deltas.append(piece)
    assert deltas == ["Flem", "ing "] and len(standin.requests) == 1
