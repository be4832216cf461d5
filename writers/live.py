"""The writers a server answers with, kept current with the providers' settings an admin stores.

LiveWriters is the generator's mapping of writers by name: the fixed ones (the offline writer, and any a test sets
by hand) and the hosted ones the settings name (configured.py), with the keys and models of the providers table
(storage/provider_settings.py) over the environment's. When the writers are looked at, the table is read again if
FRESH_SECONDS have passed since it last was, so a change saved on any server that shares the database reaches this
one within that time; `expire()` has the next look read it at once (the server where the admin saved calls it).
A provider whose settings did not change keeps its writer, and with it its circuit breaker; a changed one gets a
new writer. A failure to read the table is the caller's (the database's 503), never hidden behind old keys.
Does not: write the table (web/providers.py does), choose a writer (the generator does), or log a key.
"""
import logging
import threading
import time
from collections.abc import Callable, Iterator, MutableMapping

from configuration.settings import ProviderSettings, WriterSettings
from writers.configured import HOSTED, hosted_writer, with_stored
from writers.writer import Writer

log = logging.getLogger(__name__)

FRESH_SECONDS = 2.0  # how old this process's reading of the providers table may be


class LiveWriters(MutableMapping):
    """Writers by name: the fixed ones, and the hosted ones built from the settings and the providers table."""

    def __init__(self, settings: WriterSettings, fixed: dict[str, Writer], stored=None,
                 fresh_seconds: float = FRESH_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.settings = settings  # the environment's
        self.fixed = dict(fixed)
        self.stored = stored  # the providers table (its all()); None: the environment's settings only
        self.fresh_seconds, self.clock = fresh_seconds, clock
        self.on_new: list[Callable[[str, Writer], None]] = []  # told of each hosted writer built from now on
        self._hosted: dict[str, Writer] = {}
        self._made: dict[str, ProviderSettings] = {}  # the settings each provider's writer (or none) was made from
        self._due = float("-inf")
        self._lock = threading.Lock()
        self.refresh(strict=True)

    def expire(self) -> None:
        """Read the table again at the next look (a change was saved here)."""
        self._due = float("-inf")

    def refresh(self, strict: bool = False) -> None:
        """Read the table unless a reading is fresh, and build the writers whose settings changed.

        strict: settings that cannot make a writer raise ValueError (at start); otherwise that provider is left
        out with a warning, and the others answer."""
        with self._lock:
            if self.clock() < self._due:
                return  # another thread read it meanwhile
            settings = with_stored(self.settings, self.stored.all() if self.stored is not None else {})
            self._due = self.clock() + self.fresh_seconds
            hosted = {}
            for name in HOSTED:
                provider = getattr(settings, name)
                writer = self._hosted.get(name) if self._made.get(name) == provider else self._build(
                    name, provider, settings, strict)
                self._made[name] = provider
                if writer is not None:
                    hosted[name] = writer
            self._hosted = hosted

    def _build(self, name: str, provider: ProviderSettings, settings: WriterSettings, strict: bool) -> Writer | None:
        """A new writer for a provider whose settings changed (None: they make none), announced to on_new."""
        try:
            writer = hosted_writer(name, provider, settings)
        except ValueError as exc:
            if strict:
                raise
            log.warning("the %s writer is left out: %s", name, exc)
            return None
        if name in self._made:
            log.info("the %s provider's settings changed; %s", name, "its writer was made again" if writer
                     else "it has no writer now")
        for announce in self.on_new:
            if writer is not None:
                announce(name, writer)
        return writer

    def current(self) -> dict[str, Writer]:
        """Every writer by name, the table read again first when its reading is stale."""
        if self.clock() >= self._due:
            self.refresh()
        return {**self._hosted, **self.fixed}

    def __getitem__(self, name: str) -> Writer:
        return self.current()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.current())

    def __len__(self) -> int:
        return len(self.current())

    def __setitem__(self, name: str, writer: Writer) -> None:
        """A writer set by hand (a test's), which stands in for a hosted one of the same name until deleted."""
        self.fixed[name] = writer

    def __delitem__(self, name: str) -> None:
        del self.fixed[name]
