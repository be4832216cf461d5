"""Small records passed between the stages: chunks, hits, citations and answers.

Behaviour lives in the stage modules (retrieval.py, generator.py, pipeline.py); these are data only.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Document:
    """One source text of the library, as read from a corpus file."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Chunk:
    """A passage of a document: the unit that is indexed, retrieved and cited."""

    id: str
    doc_id: str
    title: str
    text: str
    start: int  # character offsets of the passage in its document's text
    end: int


@dataclass
class Hit:
    """A chunk retrieved for a query, with the score of every stage that saw it."""

    chunk: Chunk
    bm25_score: float
    dense_score: float
    hybrid_score: float
    ce_score: float | None = None  # None when the rerank stage is off

    @property
    def score(self) -> float:
        """The score the final order is by: the cross-encoder's when it ran, else the hybrid one."""
        return self.hybrid_score if self.ce_score is None else self.ce_score


@dataclass(frozen=True)
class Citation:
    """A [n] marker of an answer, resolved to the passage it names."""

    n: int
    passage_id: str
    title: str


@dataclass
class Answer:
    """What a generator wrote, with its citations checked against the passages it was given."""

    text: str
    citations: list[Citation] = field(default_factory=list)
    invalid_citations: list[int] = field(default_factory=list)  # [n] markers that named no passage
    generator: str = ""
    declined: bool = False
    degraded: str | None = None  # why the configured provider was not used, when it failed
