"""Answer generation: choose a writer, let it write, and fall back when its provider fails.

What a writer drafts is checked by checks/ (AnswerCheck), once, whichever writer wrote it. Writers (writers/)
only write text, from the prompt of writers/prompt.py.
"""
import logging
from collections.abc import Iterator

from checks.answer import AnswerCheck
from checks.declines import decline_text
from models import Answer, Draft, WriteRequest
from writers.writer import ProviderError, Writer

log = logging.getLogger(__name__)

PREFERENCE = ("gemini", "claude", "openai")  # the default writer when none is chosen: the first of these there is


class Generator:
    """Chooses a writer, asks it for an answer, falls back to the offline writer, and has the answer checked."""

    def __init__(self, writers: dict[str, Writer], default: str | None, fallback: str = "offline", verifier=None,
                 judge=None):
        self.writers = writers  # a dict, or writers/live.py's LiveWriters, whose hosted writers come and go
        self.chosen = default  # GENERATOR's; None: by PREFERENCE
        self.fallback = fallback
        self.check = AnswerCheck(verifier, judge)

    @property
    def default(self) -> str:
        """The writer a request that names none gets: the chosen one while it is there, else the first of
        PREFERENCE there is, else the fallback (an admin may add or clear a provider's key while the server runs)."""
        writers = self.writers
        if self.chosen in writers:
            return self.chosen
        return next((name for name in PREFERENCE if name in writers), self.fallback)

    @default.setter
    def default(self, name: str) -> None:
        self.chosen = name

    def answer(self, request: WriteRequest, provider: str | None = None) -> Answer:
        """Write a cited answer to request with the named provider (default: the configured one), checked."""
        *_, answer = self._run(request, provider, lambda writer: [writer.write(request)])
        return answer

    def stream(self, request: WriteRequest, provider: str | None = None) -> Iterator[str | Answer]:
        """The answer's text as the writer produces it, then the checked Answer.

        Closing this generator closes the writer's stream, so a client that leaves stops the generation.
        """
        yield from self._run(request, provider, lambda writer: writer.stream(request))

    def finish(self, draft: Draft, request: WriteRequest, name: str) -> Answer:
        """A draft written elsewhere (a writer that searched for itself), checked as any."""
        answer = self.check(draft, request)
        answer.generator = name
        return answer

    def _run(self, request: WriteRequest, provider: str | None, produce) -> Iterator[str | Answer]:
        """What produce(writer) yields (text, then a Draft), and the checked Answer last.

        When the provider fails before or while writing, the answer is written offline from the same
        passages and marked degraded with the reason.
        """
        name = provider or self.default
        if not request.hits:
            yield Answer(decline_text(request.language), generator=name, declined=True)
            return
        degraded, drafts = None, []

        def relay(writer: Writer) -> Iterator[str]:
            """The writer's text pieces; its Draft is kept aside."""
            for piece in produce(writer):
                if isinstance(piece, Draft):
                    drafts.append(piece)
                else:
                    yield piece

        try:
            chosen = self.writers.get(name)  # an admin may have cleared its key since the request was checked
            if chosen is None:
                raise ProviderError(f"{name} is no longer configured")
            yield from relay(chosen)
        except ProviderError as exc:
            if name == self.fallback or self.fallback not in self.writers:
                raise
            log.warning("provider %s failed (%s); answering with %s", name, exc, self.fallback)
            degraded = f"{exc}; the answer was written offline from the passages"
            name = self.fallback
            yield "\n\n"  # whatever streamed so far is replaced by the offline answer
            yield from relay(self.writers[name])
        if not drafts:
            raise ProviderError(f"{name}: the writer ended without an answer")
        answer = self.check(drafts[-1], request)
        answer.generator, answer.degraded = name, degraded
        yield answer
