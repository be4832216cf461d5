"""One question on its way through the pipeline (Work), and what the plain path's searches found for it (Found).

The question as asked is models.Ask; Work adds what the stages made of it and the milliseconds each took.
"""
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from models import Ask, Evidence, Hit, Question


@dataclass
class Work:
    """One question on its way: the Ask, what the stages made of it, and the milliseconds each took."""

    ask: Ask
    hidden: frozenset[str]  # documents the reader may not see
    works: Callable[[], list[dict]]  # the catalog the reader sees, read once when it is needed
    filters: dict | None  # the Ask's, narrowed to the section a question names
    asked: Question | None = None
    timings: dict = field(default_factory=dict)
    stages: dict = field(default_factory=dict)  # retrieval's own stages
    started: float = field(default_factory=time.perf_counter)
    clock: float = field(default_factory=time.perf_counter)

    def lap(self, stage: str) -> None:
        """Record the milliseconds since the clock was last set as stage's."""
        self.timings[stage] = round((time.perf_counter() - self.clock) * 1000, 2)

    def restart(self) -> None:
        """Set the clock for the next stage."""
        self.clock = time.perf_counter()


@dataclass
class Found:
    """What the plain path's searches found: the passages shown, those after them, and each search."""

    hits: list[Hit]
    reserve: list[Hit]
    searches: list[tuple]  # (query, filters, chunk ids, subject or None) of each search
    split: list | None  # the subjects of a two-subject question
    followup: dict | None  # the search for a reasoning question's missing words

    def evidence(self, reranked: bool) -> Evidence:
        """The passages as shown, with each search's results as their numbers."""
        numbers = {h.chunk.id: n for n, h in enumerate(self.hits, start=1)}
        searches = [{"query": query, "filters": used, "results": [numbers[i] for i in ids if i in numbers],
                     "error": None} for query, used, ids, _ in self.searches]
        return Evidence(self.hits, reranked, self.followup, searches)
