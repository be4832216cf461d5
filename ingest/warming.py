"""The worker's background pass over the library: each passage's sentence vectors computed and kept
(search/sentence_vectors.py), a page of passages at a time between jobs, so questions find them warm.

A pass walks the whole library once; pages already warm cost a lookup. After a pass, the next begins only when a
job has changed the library. The worker's thread runs at a lower priority (nice 10), so on a busy server the
questions get the cores first.
Does not: run jobs (jobs.py), or decide which texts a passage's sentences are (writers/sentences.py).
"""
import logging
import os
import threading

from writers.sentences import forms

log = logging.getLogger(__name__)
PAGE = 32  # passages a step warms: about two seconds of embedding on one core
NICE = 10


class Warmer:
    """Warms the library's sentence vectors one page at a time."""

    def __init__(self, library):
        self.library = library
        self.sentences = getattr(library, "sentences", None)
        self._pages = None
        self._stale = True  # a pass is owed: at start, and after a job
        self.warmed = 0  # passages warmed by this process

    @property
    def state(self) -> str:
        """"warming" while a pass is owed or under way, else "warm"."""
        return "warming" if self._stale and self.sentences is not None else "warm"

    def again(self) -> None:
        """The library changed: another pass is owed."""
        self._stale = True

    def step(self) -> int:
        """Warm the next page of passages that are not warm; how many were (0 when nothing is owed)."""
        if self.sentences is None or not self._stale:
            return 0
        if self._pages is None:
            lower_priority()
            self._pages = self.library.passage_pages(PAGE)
        for page in self._pages:
            done = self.sentences.warm(page, forms)
            if done:
                self.warmed += done
                return done
        self._pages, self._stale = None, False
        if self.warmed:
            log.info("sentence vectors: %d passages warmed; the library is warm", self.warmed)
        return 0


def lower_priority() -> None:
    """This thread at nice NICE (Linux sets it per thread); elsewhere, as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):
        pass
