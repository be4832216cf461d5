"""Evidenz over the Model Context Protocol (the official `mcp` SDK): three read-only tools and the works as a resource.

- search(query, filters?, top_k?): passages with id, title, canonical reference (and its Hebrew label), a snippet
  and the document's link;
- fetch(id): a passage's whole text with its metadata and the passages before and after it;
- ask(question, language?): the checked answer with its citations, or the honest decline.
- evidenz://works: the library's works (documents by work, with their passage counts).
`flask --app app mcp` serves them over stdio for Claude Desktop, coding agents and other local clients. They act
for the server's owner, or, given --token, for that user (their tiers limit every result). Over HTTP
(web/protocols/mcp_http.py) one server answers every request, each for its own reader, set in ACTING, and search and ask
count against that reader's question limits.
Does not: change the library or the history (the tools are read-only; an answer is not logged).
"""
import json
from contextvars import ContextVar

import click
from flask import current_app
from flask.cli import with_appcontext

from accounts.limits import OverLimit
from accounts.passwords import digest
from accounts.roles import OWNER
from hebrew.refs import hebrew_label
from search.reach import around, passage
from search.view import Scope
from web.auth import reader_of
from web.errors import ApiError
from web.shaping import kept, result_json
from web.similar import question_vector
from web.validation import LANGUAGE, MAX_QUESTION_CHARS, validate_filters
from checks.markup import inert
from checks.instructions import warning

SNIPPET_CHARS = 300
MAX_TOP_K = 20

# Whom an HTTP request's tools act for, and how its question is counted against their limits.
ACTING: ContextVar[tuple] = ContextVar("evidenz_mcp_acting")


def passage_summary(chunk, text_chars: int = SNIPPET_CHARS) -> dict:
    return {"id": chunk.id, "title": chunk.title, "ref": chunk.ref, "ref_he": hebrew_label(chunk.ref),
            "snippet": inert(chunk.text[:text_chars]), "document_id": chunk.doc_id,
            "community": chunk.community, "era": chunk.era, "authority_weight": chunk.authority_weight}


VERSION = "1"  # the API's version, as /api/openapi.json names it: what the server reports at initialisation


def invalid(message: str) -> Exception:
    """A call whose arguments cannot be run: a JSON-RPC error (invalid params) that says what to send."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS

    return MCPError(INVALID_PARAMS, message)


def tool_error(message: str) -> Exception:
    """The error a tool fails with: its message is what the calling model reads."""
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(message)


class Tools:
    """The MCP tools over the loaded services (pipeline and library), as reader or, when reader is None, as the
    reader ACTING names (the owner when none is set)."""

    def __init__(self, services, reader=None, history=None):
        self.pipeline, library = services.pipeline, services.library
        self.store = library.store if library is not None else None
        self.reader = reader
        self.history = history  # where each answer is logged, as /api/query's are

    def acting(self):
        """(the reader, the call that counts a question against their limits)."""
        return (self.reader, lambda: None) if self.reader is not None else ACTING.get((OWNER, lambda: None))

    def hidden(self) -> frozenset[str]:
        return self.store.hidden_documents(self.acting()[0]) if self.store is not None else frozenset()

    def search(self, query: str, filters: dict | None = None, top_k: int = 5) -> list[dict]:
        query = query.strip()
        if not 0 < len(query) <= MAX_QUESTION_CHARS:
            raise invalid(f'query must be 1 to {MAX_QUESTION_CHARS:,} characters: send the words to search for, '
                          'e.g. {"query": "Who discovered penicillin?"}')
        top_k = max(1, min(int(top_k), MAX_TOP_K))
        try:
            filters = validate_filters(filters)
            self.acting()[1]()  # a search embeds a query: it counts against the limits as a question does
        except (ApiError, OverLimit) as e:
            raise tool_error(e.message) from None
        hits = self.pipeline.retriever.search(query, top_k, filters=filters, hidden=self.hidden())
        return [{**passage_summary(h.chunk), "score": round(h.score, 4)} for h in hits]

    def fetch(self, id: str) -> dict:  # noqa: A002 - the tool's argument is called id
        view = self.pipeline.retriever.library.current()
        found = passage(view, id, Scope(excluded=self.hidden()))
        if not found:
            raise tool_error(f"No passage {id[:100]!r} in the library; ids come from the search tool.")
        chunks = [c for _, c in found]
        before, after = around(view, found)
        return {**passage_summary(chunks[0], len(chunks[0].text)), "text": inert("\n".join(c.text for c in chunks)),
                "section_path": list(chunks[0].section_path), "before": inert(before.text) if before else None,
                "after": inert(after.text) if after else None}

    def ask(self, question: str, language: str | None = None) -> dict:
        question = question.strip()
        if not 0 < len(question) <= MAX_QUESTION_CHARS:  # as /api/query takes it (web/validation.py)
            raise invalid(f'question must be 1 to {MAX_QUESTION_CHARS:,} characters: send a question, '
                          'e.g. {"question": "Who discovered penicillin?"}')
        if language is not None and not LANGUAGE.fullmatch(language):
            raise tool_error('language must be "auto" or a language code such as "en" or "he".')
        who, count = self.acting()
        try:
            count()
        except OverLimit as e:
            raise tool_error(e.message) from None
        result = self.pipeline.ask(question, language=language, reader=who)
        asked = question_vector(result.question.standalone_question, self.pipeline.retriever.embedder) \
            if self.history is not None else {}
        logged = kept(result_json(result), self.history, who, asked)  # matched later as a similar question
        return {**answer_of(result), "answer_id": logged.get("id")}

    def works(self) -> str:
        docs = self.store.documents(500, 0, "", reader=self.acting()[0])[0] if self.store is not None else []
        return json.dumps([{"id": d.id, "title": d.title, "work": d.work, "author": d.author, "language": d.language,
                            "tier": d.tier, "passages": d.chunk_count} for d in docs], ensure_ascii=False)


def answer_of(result) -> dict:
    """An answered question as the ask tool returns it: the text (warned of flagged claims) and its citations."""
    answer = result.answer
    passages = {n: h.chunk for n, h in enumerate(result.evidence.hits, start=1)}
    text = inert("\n\n".join(t for t in (warning(answer.flagged_claims), answer.text) if t))
    return {"answer": text, "declined": answer.declined, "generator": answer.generator,
            "flagged_claims": answer.flagged_claims,
            "citations": [{"n": c.n, "passage_id": c.passage_id, "title": c.title, "ref": c.ref,
                           "verified": c.verified, "support": c.support,
                           "text": inert(passages[c.n].text) if c.n in passages else None}
                          for c in answer.citations]}


def build_server(services, reader=None, history=None):
    """An MCPServer whose tools (Tools) search and answer from services as reader, logging answers in history."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("evidenz", version=VERSION, instructions="Search a library of texts and get answers whose every claim cites a "
                       "passage checked to support it. Use `ask` for an answer, `search` and `fetch` to read sources.")
    tools = Tools(services, reader, history)
    server.tool(name="search", description="Find the passages of the library that best match a query (hybrid BM25 "
                "and dense search). filters: document_ids, language, work, tier, community, part, and section: "
                'a siman, chapter or lesson number, a range such as "253-254", or a list of them.')(tools.search)
    server.tool(name="fetch", description="A passage's whole text, its metadata and the passages before and after it, "
                "by the id (or canonical reference) that search gave.")(tools.fetch)
    server.tool(name="ask", description="Answer a question from the library: every claim cites a passage checked to "
                "support it, or the answer says plainly that the sources do not answer. language: en, he, or "
                "auto.")(tools.ask)
    server.resource("evidenz://works", name="works", description="The library's works and their passage counts.",
                    mime_type="application/json")(tools.works)
    return server


@click.command("mcp")
@click.option("--token", envvar="EVIDENZ_TOKEN", help="Act as the user of this token (their tiers); default: the owner.")
@with_appcontext
def mcp_command(token):
    """Serve the MCP tools (search, fetch, ask) over stdio."""
    app = current_app._get_current_object()
    reader = OWNER
    if token:
        user = app.extensions["history"].accounts.token_user(digest(token))
        if user is None:
            raise click.ClickException("The token is not valid: unknown, revoked or expired.")
        reader = reader_of(user)
    loader = app.extensions["rag"]
    if loader.services is None:
        loader.load()
    if loader.error:
        raise click.ClickException(f"Evidenz cannot start: {loader.error}")
    build_server(loader.services, reader, app.extensions.get("history")).run("stdio")
