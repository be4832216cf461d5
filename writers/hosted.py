"""What every writer backed by a model server shares: the guard around its calls, its status, and statements.

Every hosted writer (openai_compatible.py's OpenAIWriter, claude.py's ClaudeWriter, gemini.py's GeminiWriter)
returns a Draft and judges none of its citations: a passage number that was not given, or a quote that is
not in its passage, is passed on as the model gave it, for the verifier to reject. Every call has a timeout
and a max_tokens and goes through one Guard (resilience.py) for retries and the circuit breaker; the SDKs'
own retries are off. Base URLs are configurable, which is also how the tests reach local stand-ins.
"""
import re
from collections.abc import Iterator

from models import Draft, Statement, WriteRequest
from writers.resilience import CircuitBreaker, Guard, RetryPolicy
from checks.verify import MARKERS, marker_numbers
from writers.writer import ProviderError, Writer

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


class HostedWriter(Writer):
    """What every hosted writer shares: the guard around its calls and its status. Each streams, searches the
    library with tools and completes short prompts."""

    name = label = ""
    streams = uses_tools = completes = True

    def __init__(self, model: str, retries: int, max_tokens: int, backoff: float, failures_to_open: int,
                 cooldown: float, models: tuple[str, ...] = ()):
        self.model = model
        self.models = tuple(dict.fromkeys((model, *models)))  # the names a request may choose; the default first
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
        return {"name": self.name, "model": self.model, "models": list(self.models), "configured": True,
                **self.guard.status()}

    @staticmethod
    def tool_draft(turn) -> Draft:
        """The text a writer answered with after its searches (research.py), its [n] parsed by the generator."""
        return Draft(turn.text, None, turn.model)

    def bad_reply(self, what: str) -> ProviderError:
        """The error for a reply that is not what was asked for."""
        return ProviderError(f"{self.label}: the reply was not {what}")
