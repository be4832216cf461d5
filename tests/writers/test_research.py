"""A model writer that searches for itself (writers/research.py, writers/tools.py), for Claude, Gemini and an
OpenAI-compatible server, each a local stand-in over real HTTP speaking its provider's tool-call wire format: a
question that needs two searches, bad arguments, a writer that loops, a provider that fails mid-loop, a greeting,
and "lesson 2 of that course"."""
import pytest

from builders import COURSE, upload, wait_for
from conftest import CORPUS, FakeClassifier, FakeEmbedder
from generator import Generator
from ingest import corpus
from pipeline import Pipeline
from retrieval import Retriever
from standin import PROVIDERS, error_body, make_writer
from standin_tools import final_text, offered_tools, tool_calls, tool_results
from app import create_app
from writers.offline import ExtractiveWriter
from writers.research import MAX_ROUNDS
from writers.tools import MAX_SEARCHES
from checks.verify import Verifier



@pytest.fixture(params=PROVIDERS)
def provider(request):
    return request.param


@pytest.fixture
def client(tmp_path, provider, standin):
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200)
    writers = {"offline": ExtractiveWriter(FakeEmbedder()), provider: make_writer(provider, standin.url, retries=0)}
    pipeline = Pipeline(FakeClassifier(), Retriever(lib, FakeEmbedder()),
                        Generator(writers, provider, verifier=Verifier(FakeEmbedder(), 0.5)),
                        store=lib.store, relations=lib.relations)
    app = create_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000, "HISTORY_DB": str(tmp_path / "history.sqlite3")},
                     pipeline=pipeline, library=lib)
    client = app.test_client()
    assert wait_for(client, upload(client, "tea.txt", COURSE.encode()).get_json())["status"] == "done"
    return client


def numbers(provider, request) -> dict[str, int]:
    """The evidence number of every passage the tool results so far gave the model, by passage id."""
    return {p["id"]: p["n"] for result, error in tool_results(provider, request) if not error
            for p in result.get("passages", ())}


def ask(client, question, **more):
    response = client.post("/api/query", json={"question": question, **more})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_question_that_needs_two_searches_gets_both_and_every_claim_is_checked(client, provider, standin):
    def answer(request):
        n = numbers(provider, request)
        return final_text(provider, f"Alexander Fleming discovered penicillin in 1928 [{n['fleming#0']}]. "
                                    f"Mount Everest is Earth's highest mountain above sea level [{n['everest#0']}]. "
                                    f"The Moon is made of cheese [{n['fleming#0']}].")

    standin.reply(200, tool_calls(provider, [("search_library", {"query": "who discovered penicillin"})]))
    standin.reply(200, tool_calls(provider, [("search_library", {"query": "highest mountain on Earth"})]))
    standin.reply(200, answer)
    body = ask(client, "Who discovered penicillin, and which is the highest mountain?")
    assert [s["query"] for s in body["searches"]] == ["who discovered penicillin", "highest mountain on Earth"]
    assert all(s["results"] and s["error"] is None for s in body["searches"])
    shown = {p["id"]: p["n"] for p in body["passages"]}
    assert {c["passage_id"] for c in body["citations"]} == {"fleming#0", "everest#0"}
    assert all(c["verified"] and c["n"] == shown[c["passage_id"]] for c in body["citations"])
    assert "Fleming" in body["answer"] and "Everest" in body["answer"] and "cheese" not in body["answer"]
    assert body["removed_claims"] == ["The Moon is made of cheese."]  # checked as any answer is
    assert body["generator"] == provider and body["from_library"] and not body["degraded"]
    assert len(standin.requests) == 3 and offered_tools(provider, standin.requests[0]["json"]) == (
        ["search_library", "get_passage", "list_works"], True)


def test_a_tool_call_with_bad_arguments_is_answered_with_an_error_not_a_crash(client, provider, standin):
    standin.reply(200, tool_calls(provider, [("search_library", {"query": "tea", "section": "five"}),
                                             ("get_passage", {}), ("search_library", {"query": "tea", "work": "Zz"}),
                                             ("no_such_tool", {"x": 1})]))
    if provider == "openai":  # only a text protocol can send arguments that are not JSON
        standin.reply(200, tool_calls(provider, [("search_library", "{not json")]))
    standin.reply(200, final_text(provider, "I could not search."))
    body = ask(client, "What does the tea course say?")
    errors = [result["error"] for result, error in tool_results(provider, standin.requests[-1]["json"]) if error]
    assert len(errors) == 4 + (provider == "openai")
    assert "section" in errors[0] and "id" in errors[1] and "list_works" in errors[2] and "no_such_tool" in errors[3]
    assert [s["error"] is not None for s in body["searches"]] == [True, True] + [True] * (provider == "openai")
    assert body["declined"] and body["citations"] == [] and body["passages"] == []


def test_a_writer_that_loops_is_stopped_at_the_bound_and_answers_from_what_it_found(client, provider, standin):
    def looping(request):
        names, allowed = offered_tools(provider, request)
        if names:  # with tools on or off, it calls one more search
            return tool_calls(provider, [("search_library", {"query": "who discovered penicillin"})])
        return final_text(provider, "Alexander Fleming discovered penicillin in 1928 [1].")  # the plain write

    standin.reply(200, looping)
    if provider == "gemini":  # the plain write asks Gemini for its JSON answer
        standin.replies.clear()
        standin.reply(200, lambda request: looping(request) if offered_tools(provider, request)[0] else
                      final_text(provider, '{"answerable": true, "sentences": [{"text": "Alexander Fleming '
                                           'discovered penicillin in 1928.", "citations": [{"passage": 1, '
                                           '"quote": "He discovered penicillin in 1928."}]}]}'))
    body = ask(client, "Who discovered penicillin?")
    with_tools = [r for r in standin.requests if offered_tools(provider, r["json"])[0]]
    assert len(with_tools) == MAX_ROUNDS + 1 and not offered_tools(provider, with_tools[-1]["json"])[1]
    assert len(standin.requests) == MAX_ROUNDS + 2  # the last: the answer written from the evidence found
    assert [s["error"] is None for s in body["searches"]] == [True] * MAX_SEARCHES + [False] * (MAX_ROUNDS - MAX_SEARCHES)
    assert "limit" in body["searches"][-1]["error"]
    assert body["generator"] == provider and "Fleming" in body["answer"] and body["citations"][0]["verified"]


def test_a_provider_failure_mid_loop_degrades_to_the_plain_pipeline(client, provider, standin):
    standin.reply(200, tool_calls(provider, [("search_library", {"query": "penicillin"})]))
    standin.reply(503, error_body(503))
    body = ask(client, "Who discovered penicillin?")
    assert body["generator"] == "offline" and body["degraded"]
    assert "plain" not in body["degraded_reason"] and "offline" in body["degraded_reason"]
    assert body["passages"][0]["id"] == "fleming#0" and body["citations"] and not body["declined"]
    assert [s["query"] for s in body["searches"]] == ["Who discovered penicillin?"]  # the pipeline's own search


def test_a_greeting_needs_no_search_and_says_it_is_not_from_the_library(client, provider, standin):
    standin.reply(200, final_text(provider, "Hello! Ask me about the texts in the library."))
    body = ask(client, "Hello there!")
    assert body["answer"].startswith("Hello! Ask me about the texts in the library.")
    assert "does not come from the library" in body["answer"]
    assert not body["from_library"] and body["citations"] == [] and body["passages"] == [] and body["searches"] == []
    assert len(standin.requests) == 1


def test_lesson_2_of_that_course_searches_only_lesson_2(client, provider, standin):
    def answer(request):
        n = numbers(provider, request)
        return final_text(provider, f"Green tea wants water below boiling, about eighty degrees [{min(n.values())}].")

    standin.reply(200, final_text(provider, "Kettles and Tea is a course by Miriam Cohen."))  # the first question
    standin.reply(200, tool_calls(provider, [("list_works", {"query": "the tea course"})]))
    standin.reply(200, tool_calls(provider, [("search_library", {"query": "water temperature",
                                                                 "work": "kettles course", "section": "2"})]))
    standin.reply(200, answer)
    first = ask(client, "Who teaches the tea course?")
    body = ask(client, "What does lesson 2 of that course say about water?", session_id=first["session_id"])
    [(works, _)] = tool_results(provider, standin.requests[2]["json"])
    assert [w["work"] for w in works["works"]] == ["Kettles and Tea"]
    assert [s["number"] for s in works["works"][0]["sections"]] == [1, 2] and works["works"][0]["course"]
    [search] = body["searches"]
    assert search["filters"] == {"work": "Kettles and Tea", "section": "2"}
    assert search["results"] and all(body["passages"][n - 1]["section_path"][0] == "Lesson 2: Brewing"
                                     for n in search["results"])
    assert body["citations"], (body["answer"], body["removed_claims"], [p["id"] for p in body["passages"]])
    assert body["citations"][0]["verified"]
    asked = standin.requests[1]["json"]  # the earlier turn reached the writer
    assert "Who teaches the tea course?" in str(asked) and "Miriam Cohen" in str(asked)


MALFORMED = {  # a tool call the provider's own format cannot hold: the SDK or the writer refuses the reply
    "claude": {"id": "msg", "type": "message", "role": "assistant", "model": "claude-standin", "stop_reason": "tool_use",
               "content": [{"type": "tool_use", "id": "toolu_0", "name": None, "input": {}}],
               "usage": {"input_tokens": 1, "output_tokens": 1}},
    "gemini": {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "search_library",
                                                                                        "args": ["tea"]}}]}}]},
    "openai": {"choices": [{"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c0", "type": "function", "function": {"name": None, "arguments": 7}}]}}]},
}


def test_a_reply_that_is_no_valid_tool_call_degrades_or_is_refused_never_a_500(client, provider, standin):
    standin.reply(200, MALFORMED[provider])
    if provider == "openai":  # readable as a call: refused to the writer, which then answers
        standin.reply(200, final_text(provider, "Nothing to search."))
    body = ask(client, "Who discovered penicillin?")
    if provider == "openai":
        [(result, error)] = tool_results(provider, standin.requests[-1]["json"])
        assert error and "no tool" in result["error"]
    else:
        assert body["generator"] == "offline" and body["degraded"] and body["passages"]


def test_the_readers_section_filter_bounds_every_call_of_the_writer(client, provider, standin):
    standin.reply(200, tool_calls(provider, [("get_passage", {"id": "tea#0"}), ("search_library", {"query": "water"}),
                                             ("get_passage", {"id": "fleming#0"})]))
    standin.reply(200, final_text(provider, "Done."))
    body = ask(client, "What about the water?", filters={"document_ids": ["tea"], "section": 2})
    replies = tool_results(provider, standin.requests[-1]["json"])
    assert [error for _, error in replies] == [True, False, True]  # lesson 1 and another book: out of bounds
    assert {p["section_path"][0] for p in body["passages"]} == {"Lesson 2: Brewing"}


def test_calls_past_the_turns_limit_are_refused_and_a_greetings_markers_dropped(client, provider, standin):
    standin.reply(200, tool_calls(provider, [("list_works", {})] * 8))
    standin.reply(200, final_text(provider, "The library holds a tea course [1]."))
    body = ask(client, "What courses are there?")
    replies = tool_results(provider, standin.requests[-1]["json"])
    assert [error for _, error in replies] == [False] * 6 + [True] * 2
    assert body["answer"].startswith("The library holds a tea course.\n\n(This reply comes from the library's catalog")
    assert not body["from_library"] and body["citations"] == []
