"""The writers' streams over real HTTP against each provider's stand-in: text as it comes, the Draft last, malformed
streams refused, a closed stream that stops the provider, and failures that degrade to the offline answer."""

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
    gemini_stream,
    make_hits,
    make_writer,
    openai_stream,
    search_result_citation,
)
from writers.gemini import SentenceScanner
from checks.declines import decline_text
from writers.writer import ProviderError

QUESTION = "Who discovered penicillin?"
FLEMING = "He discovered penicillin in 1928."


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
