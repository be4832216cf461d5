"""`flask --app app mcp` with the MCP SDK's own stdio client: the three tools are listed, search and fetch read
passages, ask returns an answer whose citations were checked, and the works are a resource. Real models, the
sample library (tests/conftest.py's real_library)."""
import asyncio
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def session_run(real_library, tmp_path, work):
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, "FLASK_LIBRARY_DIR": str(real_library), "FLASK_HISTORY_DB": str(tmp_path / "h.sqlite3"),
           "FLASK_GEMINI_API_KEY": "", "FLASK_ANTHROPIC_API_KEY": "", "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": ""}
    params = StdioServerParameters(command=sys.executable, args=["-m", "flask", "--app", "app", "mcp"], env=env,
                                   cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await work(session)


def payload(result):
    """The JSON a tool returned (its structured content, else its first text part)."""
    if result.structured_content:
        return result.structured_content.get("result", result.structured_content)
    return json.loads(result.content[0].text)


def test_an_mcp_client_lists_the_tools_searches_fetches_and_gets_a_checked_answer(real_library, tmp_path):
    async def work(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        found = payload(await session.call_tool("search", {"query": "Who discovered penicillin?", "top_k": 3}))
        passage = payload(await session.call_tool("fetch", {"id": found[0]["id"]}))
        answer = payload(await session.call_tool("ask", {"question": "Who discovered penicillin?"}))
        missing = await session.call_tool("fetch", {"id": "no-such-passage"})
        works = await session.read_resource("evidenz://works")
        return tools, found, passage, answer, missing, works

    tools, found, passage, answer, missing, works = asyncio.run(session_run(real_library, tmp_path, work))
    assert {"search", "fetch", "ask"} <= tools
    assert len(found) == 3 and any(f["id"].startswith("Alexander_Fleming") for f in found)
    assert all("penicillin" in f["snippet"].lower() for f in found[:2])
    assert passage["id"] == found[0]["id"] and "penicillin" in passage["text"] and "before" in passage
    assert not answer["declined"] and "Fleming" in answer["answer"]
    assert answer["citations"] and all(c["verified"] for c in answer["citations"])
    assert missing.is_error and "search tool" in missing.content[0].text
    listed = json.loads(works.contents[0].text)
    assert any(d["id"] == "Alexander_Fleming" for d in listed)
    from storage.history import History  # the answer is logged in the history, as /api/query's are

    logged = History(tmp_path / "h.sqlite3").get(answer["answer_id"])
    assert logged["question"] == "Who discovered penicillin?" and logged["answer"] == answer["answer"]
