"""Each passage's sentence vectors computed and kept (search/sentence_vectors.py), so questions find them warm: when
a library is built (`warm_library`, the build commands), when a job adds passages (`warm_now`, before it reports
done), and, as a repair of a library built before builds warmed it, in the worker's background pass.

A pass walks the whole library once, a page of passages at a time between jobs; pages already warm cost a lookup.
Its state says what it does: "checking" while it walks and has found nothing cold, "repairing" once it has (a library
built before this), "warm" when done. After a pass, the next begins only when the library's generation has moved (a
job or a removal changed it). The worker's thread runs at a lower priority
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
BUILD_BATCH = 64  # texts an embedding call takes while a build or a job warms: no question waits behind it


class Warmer:
    """Warms the library's sentence vectors one page at a time."""

    def __init__(self, library, forms):
        self.library = library
        self.forms = forms
        self.sentences = library.sentences
        self._pages = None
        self._started_at: int | None = None  # the library's generation when this pass began
        self._done_at: int | None = None  # the library's generation when the last pass ended
        self.warmed = 0  # passages the background pass warmed in this process (a repair)
        self.repairing = False  # this pass has found passages a build or a job left cold

    @property
    def state(self) -> str:
        """"repairing" while a pass warms what a build left cold, "checking" while one walks the library and has
        found nothing cold yet (or is owed), else "warm"."""
        if self._pages is None and not self._owed():
            return "warm"
        return "repairing" if self.repairing else "checking"

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
                if not self.repairing:
                    log.info("sentence vectors: passages a build left cold (built before builds warmed them); "
                             "warming them in the background")
                self.warmed += done
                self.repairing = True
                return done
        self._pages, self._done_at, self.repairing = None, self._started_at, False
        if self.warmed:
            log.info("sentence vectors: %d passages warmed; the library is warm", self.warmed)
        return 0

    def warm_now(self, chunks: list, progress=None) -> int:
        """Compute and keep these passages' sentence vectors now (a job's, before it reports done), a page at a
        time, progress(n) after each page; how many were warmed."""
        done = 0
        for start in range(0, len(chunks), PAGE):
            page = chunks[start:start + PAGE]
            done += self.sentences.warm(page, self.forms, BUILD_BATCH) if self.sentences is not None else 0
            if progress:
                progress(len(page))
        return done

    def warm_library(self, progress=None) -> int:
        """Every passage of the library warmed now, the last step of a build, progress(n) after each page; the
        background pass then finds nothing to repair. How many were warmed."""
        if self.sentences is None:
            return 0
        generation, done = self.library.store.generation(), 0
        for page in self.library.passage_pages(PAGE):
            done += self.sentences.warm(page, self.forms, BUILD_BATCH)
            if progress:
                progress(len(page))
        self._done_at = generation
        return done


def lower_priority() -> None:
    """This thread at nice NICE (Linux sets it per thread); elsewhere, as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):
        pass
