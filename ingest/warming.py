"""The worker's background pass over the library: each passage's sentence vectors computed and kept
(search/sentence_vectors.py), a page of passages at a time between jobs, so questions find them warm.

A pass walks the whole library once; pages already warm cost a lookup. After a pass, the next begins only when the
library's generation has moved (a job or a removal changed it). The worker's thread runs at a lower priority
(nice 10), so on a busy server the questions get the cores first; the embedding calls are short (a few sentences),
so a question waits little for its turn at the models (search/compute.py).
`forms(chunk)` gives the texts a passage's sentences are read as; the writers define it (checks/sentences.py) and
the app hands it in, since ingestion sits below the writers.
Does not: run jobs (jobs.py).
"""
import logging
import os
import threading

log = logging.getLogger(__name__)
PAGE = 32  # passages a step warms: a few seconds of embedding at most
NICE = 10


class Warmer:
    """Warms the library's sentence vectors one page at a time."""

    def __init__(self, library, forms):
        self.library = library
        self.forms = forms
        self.sentences = library.sentences
        self._pages = None
        self._started_at: int | None = None  # the library's generation when this pass began
        self._done_at: int | None = None  # the library's generation when the last pass ended
        self.warmed = 0  # passages warmed by this process

    @property
    def state(self) -> str:
        """"warming" while a pass is owed or under way, else "warm"."""
        return "warming" if self._pages is not None or self._owed() else "warm"

    def _owed(self) -> bool:
        return self.sentences is not None and self._done_at != self.library.store.generation()

    def step(self) -> int:
        """Warm the next page of passages that are not warm; how many were (0 when nothing is owed)."""
        if self._pages is None:
            if not self._owed():
                return 0
            lower_priority()
            self._pages, self._started_at = self.library.passage_pages(PAGE), self.library.store.generation()
        for page in self._pages:
            done = self.sentences.warm(page, self.forms)
            if done:
                self.warmed += done
                return done
        self._pages, self._done_at = None, self._started_at
        if self.warmed:
            log.info("sentence vectors: %d passages warmed; the library is warm", self.warmed)
        return 0


def lower_priority() -> None:
    """This thread at nice NICE (Linux sets it per thread); elsewhere, as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):
        pass
