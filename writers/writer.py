"""What a writer is: the calls the generator makes of it, what more it can do, and the error a provider fails with.

A writer turns a WriteRequest into a Draft: `write` gives it whole, `stream` gives text pieces as they are
produced and the Draft last, `status` says how its last call went for /api/health. What more a writer can do is
declared by its capability flags, as simonw/llm's Model declares `can_stream` and `supports_tools`; the pipeline
reads the flags and never probes a writer for a method.
Does not: check citations (checks/ does).
"""
from collections.abc import Iterator

from models import Draft, WriteRequest


class ProviderError(RuntimeError):
    """A model provider failed (timeout, HTTP error, refused key, malformed reply) after its retries."""


class Writer:
    """The interface every writer implements; subclasses override write() and set the flags they earn."""

    name: str = ""
    model: str | None = None
    models: tuple[str, ...] = ()  # the model names a request may choose (empty: only the default)
    streams = False  # stream() gives the text as it is produced; otherwise in one piece, after write()
    uses_tools = False  # tool_conversation/tool_turn/tool_results/tool_draft: it searches the library itself
    completes = False  # complete(system, user): a short completion, such as rewriting a follow-up question
    native_citations = False  # the provider itself ties its sentences to the passages (Claude's search results)
    guard = None  # the retries and circuit breaker around a provider's calls (writers/resilience.py)

    def write(self, request: WriteRequest) -> Draft:
        """The draft answer to request."""
        raise NotImplementedError

    def stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """The answer's text, then its Draft; a writer that does not stream gives the text in one piece."""
        draft = self.write(request)
        yield draft.text
        yield draft

    def complete(self, system: str, user: str, model: str | None = None, max_tokens: int = 256) -> str:
        """A short completion; only writers with `completes` offer one."""
        raise NotImplementedError(f"{self.name} offers no completions")

    def status(self) -> dict:
        """Its health for /api/health: a writer that keeps none is configured and untried."""
        return {"name": self.name, "model": self.model, "configured": True, "circuit": "closed", "last_call": None}
