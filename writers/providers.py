"""Writers backed by model servers: what they share, and any OpenAI-compatible server (Ollama, llama.cpp, vLLM).

Every hosted writer (this module's OpenAIWriter, claude.py's ClaudeWriter, gemini.py's GeminiWriter)
returns a Draft and judges none of its citations: a passage number that was not given, or a quote that is
not in its passage, is passed on as the model gave it, for the verifier to reject. Every call has a timeout
and a max_tokens and goes through one Guard (resilience.py) for retries and the circuit breaker; the SDKs'
own retries are off. Base URLs are configurable, which is also how the tests reach local stand-ins.
An OpenAI-compatible server gets generator.py's text prompt and writes [n] markers.
"""
import json
import logging
import re
from collections.abc import Iterator

from generator import ProviderError, build_prompt
from models import Draft, Statement, WriteRequest
from writers.resilience import CircuitBreaker, Failure, Guard, RetryPolicy, status_failure
from writers.verify import MARKERS, marker_numbers

log = logging.getLogger(__name__)

TEMPERATURE = 0.1
MAX_TOKENS = 1024

TAIL_RE = re.compile(r"[.!?:;]*\s*\Z")  # a sentence's closing punctuation: its markers go before it


def with_markers(text: str, cited: list[int]) -> str:
    """text with an [n] for each cited number it does not carry yet, before its closing punctuation."""
    new = [n for n in dict.fromkeys(cited) if n not in marker_numbers(text)]
    if not new:
        return text
    cut = TAIL_RE.search(text).start()
    return text[:cut] + " " + "".join(f"[{n}]" for n in new) + text[cut:]


def statement(text: str, cited: list[int], quotes: list[str]) -> Statement | None:
    """A claim without its markers, citing what it was given and what its own markers name; None if empty."""
    bare = MARKERS.sub("", text).strip()
    if not bare:
        return None
    return Statement(bare, list(dict.fromkeys(cited + marker_numbers(text))), [q for q in quotes if q])


class Writer:
    """What every hosted writer shares: the guard around its calls and its status."""

    name = label = ""

    def __init__(self, model: str, retries: int, max_tokens: int, backoff: float, failures_to_open: int,
                 cooldown: float):
        self.model = model
        self.max_tokens = max_tokens
        self.guard = Guard(self.label, self.failure, RetryPolicy(retries, backoff),
                           CircuitBreaker(failures_to_open, cooldown))

    def write(self, request: WriteRequest) -> Draft:
        """The model's draft answer to request."""
        return self.guard.call(lambda: self._write(request))

    def stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """Text deltas as the model writes them, then the Draft; closing it closes the HTTP response."""
        return self.guard.stream(lambda: self._stream(request))

    def complete(self, system: str, user: str, model: str | None = None, max_tokens: int = 256) -> str:
        """A short completion (question rewriting), without evidence or citations."""
        return self.guard.call(lambda: self._complete(system, user, model or self.model, max_tokens))

    def status(self) -> dict:
        """Name, model, circuit state and how the last call went, for /api/health."""
        return {"name": self.name, "model": self.model, "configured": True, **self.guard.status()}

    def bad_reply(self, what: str) -> ProviderError:
        """The error for a reply that is not what was asked for."""
        return ProviderError(f"{self.label}: the reply was not {what}")


class OpenAIWriter(Writer):
    """Any server with an OpenAI-compatible /chat/completions (Ollama, llama.cpp server, vLLM)."""

    name, label = "openai", "OpenAI-compatible server"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0, retries: int = 2,
                 *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5, failures_to_open: int = 5,
                 cooldown: float = 30.0):
        import httpx2

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown)
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

    def _write(self, request: WriteRequest) -> Draft:
        """One chat completion of generator.py's prompt; the [n] markers are parsed later."""
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
