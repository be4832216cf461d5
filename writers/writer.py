"""What a writer is: the calls the generator makes of it, and the error a model provider fails with.

A writer turns a WriteRequest into a Draft: `write` gives it whole, `stream` (optional) gives text pieces
as they are produced and the Draft last, `status` (optional) says how its last call went for /api/health.
Hosted writers (hosted.py) also offer `complete` for short completions such as question rewriting.
Does not: check citations (generator.py and verify.py do).
"""
from collections.abc import Iterator

from models import Draft, WriteRequest


class ProviderError(RuntimeError):
    """A model provider failed (timeout, HTTP error, refused key, malformed reply) after its retries."""


def stream_of(writer, request: WriteRequest) -> Iterator[str | Draft]:
    """A writer's text as it is produced, then its Draft; writers without stream() give it in one piece."""
    if hasattr(writer, "stream"):
        yield from writer.stream(request)
        return
    draft = writer.write(request)
    yield draft.text
    yield draft


def status_of(writer) -> dict:
    """A writer's health for /api/health; writers that keep none are configured and untried."""
    if hasattr(writer, "status"):
        return writer.status()
    return {"name": getattr(writer, "name", None), "model": getattr(writer, "model", None), "configured": True,
            "circuit": "closed", "last_call": None}
