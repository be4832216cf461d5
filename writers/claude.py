"""Claude through the Messages API: passages go as search_result blocks and come back as native citations.

Each cited text block becomes [n] markers (search_result_index + 1) and one Statement per sentence with
the cited_text as its quote; plain [n] markers the model writes are read too. Forged numbers and quotes
pass through unchanged for the verifier. Does not: send the passages as text (Claude reads the blocks).
"""
import re
from collections.abc import Iterator

from models import Draft, WriteRequest
from writers.hosted import MAX_TOKENS, HostedWriter, statement, with_markers
from checks.declines import is_decline, passage_label
from writers.prompt import SYSTEM_PROMPT, as_data, task_text
from writers.research import Turn
from writers.resilience import Failure, status_failure
from writers.tools import TOOLS, ToolCall, ToolReply

SENTENCE_BREAK_RE = re.compile(r"((?<=[.!?])\s+|\s*\n\s*)")  # a sentence ends at . ! ? and at a line break


class ClaudeWriter(HostedWriter):
    """Claude through the Messages API; passages go as search_result blocks and come back as native citations."""

    name, label = "claude", "Claude"
    native_citations = True

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 retries: int = 2, *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5,
                 failures_to_open: int = 5, cooldown: float = 30.0, models: tuple[str, ...] = ()):
        import anthropic

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown, models)
        self.anthropic = anthropic
        # max_retries=0: retries happen in the Guard only
        self.client = anthropic.Anthropic(api_key=api_key, base_url=base_url or None, timeout=timeout, max_retries=0)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether an SDK exception is worth a retry."""
        errors = self.anthropic
        if isinstance(exc, errors.APITimeoutError):
            return Failure("timed out", True)
        if isinstance(exc, errors.APIConnectionError):
            return Failure("could not connect", True)
        if isinstance(exc, errors.APIStatusError) and exc.status_code >= 400:
            return status_failure(exc.status_code, exc.response.headers)
        if isinstance(exc, errors.APIStatusError):  # an error event inside a stream that began well (overloaded)
            return Failure("error event in the stream", True)
        if isinstance(exc, errors.APIError):
            return Failure(type(exc).__name__, False)
        return None

    def params(self, request: WriteRequest) -> dict:
        """The Messages API request: each passage a citable search result, then the task."""
        results = [{"type": "search_result", "source": hit.chunk.id, "title": as_data(passage_label(hit), line=True),
                    "content": [{"type": "text", "text": as_data(hit.chunk.text)}], "citations": {"enabled": True}}
                   for hit in request.hits]
        # no temperature: the current Messages API no longer takes one
        return {"model": request.model or self.model, "max_tokens": self.max_tokens, "system": SYSTEM_PROMPT,
                "messages": [{"role": "user", "content": [*results, {"type": "text", "text": task_text(request)}]}]}

    def _write(self, request: WriteRequest) -> Draft:
        """One Messages API call."""
        message = self.message(self.client.messages.create(**self.params(request)))
        return claude_draft(message.content, message.model)

    def _stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """Text deltas, the markers of each cited block as it closes, then the Draft."""
        started = False
        with self.client.messages.stream(**self.params(request)) as stream:
            for event in stream:
                started = started or event.type == "message_start"
                if event.type == "text":
                    yield event.text
                elif event.type == "content_block_stop" and getattr(event.content_block, "citations", None):
                    yield " " + "".join(f"[{n}]" for n in dict.fromkeys(cited_numbers(event.content_block)))
            if not started:  # e.g. a proxy that answered with a page, not an event stream
                raise self.bad_reply("a message stream")
            message = stream.get_final_message()
        yield claude_draft(message.content, message.model)

    # searching for itself (writers/research.py): Claude's tool use

    @staticmethod
    def tool_conversation(system: str, said: list[tuple[str, str]], question: str) -> list[dict]:
        return [*({"role": role, "content": text} for role, text in said), {"role": "user", "content": question}]

    def tool_turn(self, messages: list[dict], system: str, model: str, tools: bool) -> Turn:
        """One Messages API call with the tools (tool_choice none when tools is False)."""
        params = {"model": model, "max_tokens": self.max_tokens, "system": system, "messages": messages,
                  "tools": [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
                            for t in TOOLS],
                  "tool_choice": {"type": "auto" if tools else "none"}}

        def call():
            message = self.message(self.client.messages.create(**params))
            calls = [ToolCall(str(getattr(b, "id", "") or ""), b.name, getattr(b, "input", None))
                     for b in message.content if b.type == "tool_use"]
            text = "".join(b.text for b in message.content if b.type == "text").strip()
            return Turn(text, calls, message.model, message)

        return self.guard.call(call)

    @staticmethod
    def tool_draft(turn: Turn) -> Draft:
        return claude_draft(turn.raw.content, turn.model)

    @staticmethod
    def tool_results(messages: list[dict], turn: Turn, replies: list[ToolReply]) -> None:
        said = [{"type": "text", "text": b.text} if b.type == "text" else
                {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input}
                for b in turn.raw.content if b.type in ("text", "tool_use") and (b.type != "text" or b.text)]
        messages.append({"role": "assistant", "content": said})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": c.id, "content": r.content, "is_error": r.error}
            for c, r in zip(turn.calls, replies)]})

    def message(self, reply):
        """reply, if it is a Message (the SDK hands back a body it cannot read as one as text)."""
        content = getattr(reply, "content", None)
        if not isinstance(content, list) or not all(isinstance(getattr(b, "type", None), str) for b in content):
            raise self.bad_reply("a message")
        for block in content:
            if block.type == "text" and not isinstance(getattr(block, "text", None), str):
                raise self.bad_reply("a message")
            if block.type == "tool_use" and not isinstance(getattr(block, "name", None), str):
                raise self.bad_reply("a message")
        return reply

    def _complete(self, system: str, user: str, model: str, max_tokens: int) -> str:
        """One short Messages API call."""
        message = self.message(self.client.messages.create(model=model, max_tokens=max_tokens, system=system,
                                                           messages=[{"role": "user", "content": user}]))
        return "".join(block.text for block in message.content if block.type == "text").strip()


def cited_numbers(block) -> list[int]:
    """The passage numbers (1-based) a text block's search-result citations name, as Claude gave them."""
    return [c.search_result_index + 1 for c in block.citations or []
            if getattr(c, "type", None) == "search_result_location" and isinstance(c.search_result_index, int)]


def claude_draft(blocks, model: str | None) -> Draft:
    """Claude's text blocks as a Draft: [n] markers where it cited, and one Statement per sentence."""
    text, statements = "", []
    current, cited, quotes = "", [], []
    for block in blocks:
        if block.type != "text":
            continue
        if re.search(r"[.!?]\s*\Z", current) and block.text[:1].isspace():  # the block opens a new sentence
            statements.append(statement(current, cited, quotes))
            current, cited, quotes = "", [], []
        numbers = cited_numbers(block)
        block_quotes = [c.cited_text for c in block.citations or []
                        if getattr(c, "type", None) == "search_result_location"]
        pieces = SENTENCE_BREAK_RE.split(block.text)  # sentence, break, sentence, ...
        for i, piece in enumerate(pieces):
            if i % 2:  # a break: the sentence so far is complete
                text += piece
                statements.append(statement(current, cited, quotes))
                current, cited, quotes = "", [], []
                continue
            text += with_markers(piece, numbers) if numbers and piece.strip() else piece
            current += piece
            if numbers and piece.strip():
                cited, quotes = cited + numbers, quotes + block_quotes
    statements.append(statement(current, cited, quotes))
    text = text.strip()
    if is_decline(text):
        return Draft(text, None, model)
    return Draft(text, [s for s in statements if s], model)
