"""The MCP SDK's Streamable HTTP client against /mcp on the real pipeline (real embedder, classifier, judge and
checks): the three tools are listed and `ask` comes back with citations the checks verified."""
import asyncio
import json

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def test_an_mcp_client_over_http_gets_an_answer_with_verified_citations(real_app, serve):
    async def run():
        async with streamable_http_client(serve(real_app).url + "/mcp") as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            result = await session.call_tool("ask", {"question": "Who discovered penicillin?"})
            return tools, result.structured_content or json.loads(result.content[0].text)

    tools, answer = asyncio.run(run())
    assert tools == {"search", "fetch", "ask"}
    assert not answer["declined"] and "Fleming" in answer["answer"]
    assert answer["citations"] and all(c["verified"] for c in answer["citations"])
