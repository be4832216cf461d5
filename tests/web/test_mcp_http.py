"""The MCP tools at /mcp through the SDK's own Streamable HTTP client, over real HTTP on the loopback.

A real library, store, history and users (tests/builders.library_app); the embedder, classifier and writer are
fakes, the checks real. On a shared server (on each backend) the tools take the user's bearer token: a learner's
search, fetch, ask and works never show an editor's private book, and an unsigned client is refused.
"""
import asyncio
import json

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from accounts.passwords import digest, hash_password, new_token
from builders import BOOK, library_app, upload, wait_for

KETTLE = "How hot should the water for green tea be?"


@pytest.fixture
def app(tmp_path):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib")


@pytest.fixture
def any_app(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)


def payload(result):
    """The JSON a tool returned (its structured content, else its first text part)."""
    if result.structured_content:
        return result.structured_content.get("result", result.structured_content)
    return json.loads(result.content[0].text)


def session_run(url, work, token=None):
    async def run():
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                streamable_http_client(url, http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)
    return asyncio.run(run())


def make_user(app, name, role):
    accounts = app.extensions["history"].accounts
    user = accounts.create(name, role, hash_password("correct horse battery"))
    token = new_token()
    accounts.add_token(user["id"], digest(token), "mcp", None)
    return token


def test_an_mcp_client_over_http_lists_the_tools_and_gets_a_checked_answer(app, serve):
    async def work(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        found = payload(await session.call_tool("search", {"query": "Who discovered penicillin?", "top_k": 2}))
        passage = payload(await session.call_tool("fetch", {"id": found[0]["id"]}))
        answer = payload(await session.call_tool("ask", {"question": "Who discovered penicillin?"}))
        bad = await session.call_tool("fetch", {"id": "no-such-passage"})
        works = json.loads((await session.read_resource("evidenz://works")).contents[0].text)
        return tools, found, passage, answer, bad, works

    tools, found, passage, answer, bad, works = session_run(serve(app).url + "/mcp", work)
    assert {"search", "fetch", "ask"} <= tools
    assert len(found) == 2 and "penicillin" in found[0]["snippet"].lower()
    assert passage["id"] == found[0]["id"] and passage["text"].startswith(found[0]["snippet"][:40])
    assert answer["citations"][0]["passage_id"] == "fleming#0" and not answer["declined"]
    assert "penicillin" in answer["citations"][0]["text"] and "[1]" in answer["answer"]
    assert bad.is_error and "search tool" in bad.content[0].text
    assert works and all(w["passages"] > 0 for w in works)
    logged = app.extensions["history"].get(answer["answer_id"])  # logged in the history as /api/query's answers are
    assert logged["question"] == "Who discovered penicillin?" and logged["answer"] == answer["answer"]


def test_get_and_delete_are_405_as_a_stateless_server_answers(app, serve):
    url = serve(app).url + "/mcp"
    for method in ("GET", "DELETE"):
        response = httpx2.request(method, url, headers={"Accept": "text/event-stream"})
        assert response.status_code == 405 and "not allowed" in response.json()["error"]


def test_what_the_sdk_refuses_without_a_json_body_is_refused_in_the_apis_json(app, serve):
    url, modern = serve(app).url + "/mcp", {"MCP-Protocol-Version": "2026-07-28"}
    listen = {"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}, "notifications": {"toolsListChanged": True}}}
    text = httpx2.post(url, content=b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
                       headers={"Content-Type": "text/plain"})
    assert text.status_code == 415 and "Content-Type: application/json" in text.json()["error"]
    shouted = httpx2.post(url, content=b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
                          headers={"Content-Type": "Application/JSON"})
    assert shouted.status_code == 200 and shouted.json()["result"] == {}
    unacceptable = httpx2.post(url, json=listen, headers={"Accept": "text/html", **modern})
    assert unacceptable.status_code == 406 and "Accept: application/json" in unacceptable.json()["error"]
    # a notification stream never ends by itself: refused at once, not held open
    streamed = httpx2.post(url, json=listen, headers={"Mcp-Method": "subscriptions/listen", **modern}, timeout=10)
    assert streamed.status_code == 400 and "subscriptions/listen" in streamed.json()["error"]
    noted = httpx2.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert noted.status_code == 202 and noted.content == b"" and "Content-Type" not in noted.headers


def test_ask_takes_a_question_as_the_api_does(app, serve):
    async def work(session):
        return [await session.call_tool("ask", {"question": "Who?", "language": "english"})]

    for refused in session_run(serve(app).url + "/mcp", work):
        assert refused.is_error and "language must be" in refused.content[0].text


def test_an_empty_query_or_question_is_a_json_rpc_error_that_says_what_to_send(app, serve):
    from mcp.shared.exceptions import MCPError

    async def work(session):
        errors = []
        for tool, arguments in (("search", {"query": "  "}), ("ask", {"question": ""}), ("ask", {"question": "x" * 2001})):
            try:
                await session.call_tool(tool, arguments)
                errors.append(None)
            except MCPError as error:
                errors.append(error)
        return errors

    errors = session_run(serve(app).url + "/mcp", work)
    assert all(e is not None and e.code == -32602 for e in errors)
    assert '{"query": ' in errors[0].message and '{"question": ' in errors[1].message


def test_the_server_reports_its_version(app, serve):
    response = httpx2.post(serve(app).url + "/mcp", json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}},
        headers={"Accept": "application/json, text/event-stream"})
    body = response.json() if response.headers["content-type"].startswith("application/json") else json.loads(
        response.text.split("data: ", 1)[1])
    server = body["result"]["serverInfo"]
    assert server["name"] == "evidenz" and server["version"] == "1"


def test_on_a_shared_server_the_tools_act_for_the_tokens_user_and_their_tiers(any_app, serve):
    app = any_app
    editor, learner = make_user(app, "editor", "editor"), make_user(app, "learner", "learner")
    client = app.test_client()
    response = upload(client, "kettles.txt", BOOK.encode(), headers={"Authorization": f"Bearer {editor}"},
                      tier="private")
    kettles = wait_for(client, response.get_json(), headers={"Authorization": f"Bearer {editor}"})["document_id"]
    url = serve(app).url + "/mcp"

    def work(private_id=None):
        async def run(session):
            found = payload(await session.call_tool("search", {"query": KETTLE, "top_k": 10}))
            answer = payload(await session.call_tool("ask", {"question": KETTLE}))
            fetched = await session.call_tool("fetch", {"id": private_id or found[0]["id"]})
            works = json.loads((await session.read_resource("evidenz://works")).contents[0].text)
            return found, answer, fetched, works
        return run

    found, answer, fetched, works = session_run(url, work(), token=editor)
    private_id = found[0]["id"]
    assert found[0]["document_id"] == kettles and kettles in {w["id"] for w in works}
    assert not fetched.is_error and answer["citations"][0]["passage_id"].startswith(kettles)
    found, answer, fetched, works = session_run(url, work(private_id), token=learner)
    assert found and all(f["document_id"] != kettles for f in found)
    assert all(not c["passage_id"].startswith(kettles) for c in answer["citations"])
    assert fetched.is_error and kettles not in {w["id"] for w in works}
    unsigned = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Accept": "application/json, text/event-stream"})
    assert unsigned.status_code == 401 and unsigned.headers["WWW-Authenticate"].startswith("Bearer")


def test_ask_and_search_count_against_the_users_question_limit(tmp_path, serve):
    app = library_app({"TESTING": True, "LIMIT_QUERIES_PER_MINUTE": 1}, tmp_path / "lib")
    token = make_user(app, "learner", "learner")

    async def work(session):
        return [await session.call_tool("ask", {"question": "Who discovered penicillin?"}) for _ in range(2)]

    first, second = session_run(serve(app).url + "/mcp", work, token=token)
    assert not first.is_error and payload(first)["citations"]
    assert second.is_error and "Try again in" in second.content[0].text

    async def searching(session):  # the probe of 2026-11-25: search had no limit
        return [await session.call_tool("search", {"query": KETTLE}) for _ in range(2)]

    other = library_app({"TESTING": True, "LIMIT_QUERIES_PER_MINUTE": 1}, tmp_path / "lib2")
    first, second = session_run(serve(other).url + "/mcp", searching, token=make_user(other, "learner", "learner"))
    assert not first.is_error and payload(first)
    assert second.is_error and "Try again in" in second.content[0].text


def codex(verses: list[str]) -> bytes:
    """A Sefaria-shaped export titled "Probe Codex": one chapter of these verses (refs "Probe Codex 1:1", ...)."""
    return json.dumps({"title": "Probe Codex", "language": "en", "sectionNames": ["Chapter", "Verse"],
                       "text": [verses]}).encode()


def test_fetch_by_reference_never_shows_a_hidden_books_passage_or_its_neighbours(any_app, serve):
    # The probe of 2026-11-25: two books of one title; the private one's verses came back as the public one's
    # before and after. Uploaded private first, so the reference finds its chunks first on both backends.
    app, client = any_app, any_app.test_client()
    a, b, learner = (make_user(app, n, r) for n, r in (("a", "editor"), ("b", "editor"), ("learner", "learner")))
    secret = [f"Secret verse {n} of the private codex, about the hidden vault number {n}." for n in range(1, 4)]
    shown = [f"Public verse {n} of the open codex, about the garden gate number {n}." for n in range(1, 4)]
    for token, verses, tier, name in ((a, secret, "private", "a-codex"), (b, shown, "public", "b-codex")):
        sent = upload(client, f"{name}.json", codex(verses), headers={"Authorization": f"Bearer {token}"}, tier=tier,
                      document_id=name)
        assert wait_for(client, sent.get_json(), headers={"Authorization": f"Bearer {token}"})["status"] == "done"
    url = serve(app).url + "/mcp"

    def fetch(ident):
        async def run(session):
            return await session.call_tool("fetch", {"id": ident})
        return run

    for token, own in ((learner, shown), (b, shown), (a, secret)):
        got = payload(session_run(url, fetch("Probe Codex 1:2"), token=token))
        assert (got["text"], got["before"], got["after"]) == (own[1], own[0], own[2]), got
    leaked = session_run(url, fetch("a-codex#1"), token=learner)  # a hidden chunk's id names nothing
    assert leaked.is_error and "Secret" not in leaked.content[0].text


def test_markup_an_upload_planted_reaches_an_mcp_client_and_a_chat_client_inert(tmp_path, serve):
    """An answer quoting an upload's <img onerror> and javascript: link is passed on as text (issue 49)."""
    import openai

    from conftest import FakeWriter

    planted = 'Fleming <img src=x onerror="alert(1)"> discovered [penicillin](javascript:alert(2)) [1].'
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=FakeWriter("offline", [planted] * 4))
    url = serve(app).url

    async def work(session):
        return payload(await session.call_tool("ask", {"question": "Who discovered penicillin?"}))

    for text in (session_run(url + "/mcp", work)["answer"],
                 openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0).chat.completions.create(
                     model="evidenz", messages=[{"role": "user", "content": "Who discovered penicillin?"}]
                 ).choices[0].message.content):
        assert '`<img src=x onerror="alert(1)">`' in text and "javascript:" not in text
        assert "penicillin (a script link, removed)" in text
