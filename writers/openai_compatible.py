"""Any server with an OpenAI-compatible /chat/completions (Ollama, llama.cpp server, vLLM) as a writer.

It gets the text prompt of prompt.py and writes [n] markers, which the generator parses and checks.
Streaming reads the server-sent content deltas.
"""
import json
from collections.abc import Iterator

from models import Draft, WriteRequest
from writers.hosted import MAX_TOKENS, TEMPERATURE, HostedWriter
from writers.prompt import build_prompt
from writers.research import Turn
from writers.resilience import Failure, status_failure
from writers.tools import TOOLS, ToolCall, ToolReply, arguments_text


class OpenAIWriter(HostedWriter):
    """Any server with an OpenAI-compatible /chat/completions (Ollama, llama.cpp server, vLLM)."""

    name, label = "openai", "OpenAI-compatible server"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0, retries: int = 2,
                 *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5, failures_to_open: int = 5,
                 cooldown: float = 30.0, models: tuple[str, ...] = ()):
        import httpx2

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown, models)
        self.httpx = httpx2
        self.url = base_url.rstrip("/") + "/chat/completions"  # base_url ends in /v1, e.g. http://localhost:11434/v1
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx2.Client(timeout=timeout, headers=headers)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether a transport or HTTP status error is worth a retry."""
        if isinstance(exc, self.httpx.HTTPStatusError):
            return status_failure(exc.response.status_code, exc.response.headers)
        if isinstance(exc, self.httpx.TimeoutException):
            return Failure("timed out", True)
        if isinstance(exc, self.httpx.TransportError):
            return Failure("could not connect", True)
        return None

    def body(self, system: str, user: str, model: str, max_tokens: int, stream: bool = False) -> dict:
        """A chat completion request."""
        return {"model": model, "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
                "max_tokens": max_tokens, "temperature": TEMPERATURE, **({"stream": True} if stream else {})}

    def _complete(self, system: str, user: str, model: str, max_tokens: int) -> str:
        """One chat completion."""
        return self.chat(self.body(system, user, model, max_tokens))[0].strip()

    def chat(self, body: dict) -> tuple[str, str]:
        """POST a chat completion; (its text, the model that wrote it)."""
        response = self.client.post(self.url, json=body)
        response.raise_for_status()
        try:
            reply = response.json()
            text = reply["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            text = None
        if not isinstance(text, str):
            raise self.bad_reply("a chat completion")
        return text, reply.get("model") or body["model"]

    # searching for itself (writers/research.py): OpenAI's tools and tool_calls

    def tool_conversation(self, system: str, said: list[tuple[str, str]], question: str) -> list[dict]:
        return [{"role": "system", "content": system}, *({"role": r, "content": t} for r, t in said),
                {"role": "user", "content": question}]

    def tool_turn(self, messages: list[dict], system: str, model: str, tools: bool) -> Turn:
        """One chat completion with the tools offered (or, tools False, refused: tool_choice none)."""
        body = {"model": model, "messages": messages, "max_tokens": self.max_tokens, "temperature": TEMPERATURE,
                "tools": [{"type": "function", "function": spec} for spec in TOOLS],
                "tool_choice": "auto" if tools else "none"}
        return self.guard.call(lambda: self._tool_turn(body))

    def _tool_turn(self, body: dict) -> Turn:
        response = self.client.post(self.url, json=body)
        response.raise_for_status()
        try:
            reply = response.json()
            message = reply["choices"][0]["message"]
            calls = [ToolCall(str(c["id"]), str(c["function"]["name"]), c["function"].get("arguments") or "{}")
                     for c in message.get("tool_calls") or ()]
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise self.bad_reply("a chat completion") from None
        text = message.get("content")
        if not isinstance(text, str | None):
            raise self.bad_reply("a chat completion")
        return Turn((text or "").strip(), calls, reply.get("model") or body["model"], message)

    @staticmethod
    def tool_results(messages: list[dict], turn: Turn, replies: list[ToolReply]) -> None:
        messages.append({"role": "assistant", "content": turn.raw.get("content"), "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments_text(c)}}
            for c in turn.calls]})
        messages += [{"role": "tool", "tool_call_id": c.id, "content": r.content} for c, r in zip(turn.calls, replies)]

    def _write(self, request: WriteRequest) -> Draft:
        """One chat completion of writers/prompt.py's prompt; the [n] markers are parsed later."""
        system, user = build_prompt(request)
        text, model = self.chat(self.body(system, user, request.model or self.model, self.max_tokens))
        return Draft(text.strip(), None, model)

    def _stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """The server-sent content deltas, then the Draft."""
        system, user = build_prompt(request)
        body = self.body(system, user, request.model or self.model, self.max_tokens, stream=True)
        parts, model, events = [], body["model"], 0
        with self.client.stream("POST", self.url, json=body) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data, events = line[5:].strip(), events + 1
                if data == "[DONE]":
                    break
                try:
                    event = json.loads(data)
                    delta = (event["choices"][0].get("delta") or {}).get("content") if event["choices"] else None
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    raise self.bad_reply("a chat completion stream") from None
                model = event.get("model") or model
                if delta:
                    parts.append(delta)
                    yield delta
        if not events:
            raise self.bad_reply("a chat completion stream")
        yield Draft("".join(parts).strip(), None, model)
