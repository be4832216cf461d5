"""Small records passed between the stages: documents, chunks, hits, drafts, citations, answers and results.

Behaviour lives in the stage modules (retrieval.py, generator.py, pipeline.py); these are data, and what a
chunk's data says of itself (its heading, the text that is indexed).
"""
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Document:
    """One source text of the library, as read from a corpus file."""

    id: str
    title: str
    text: str


# How one passage relates to another (relations.jsonl, /api/relations); the first two bring the other passage in
# as evidence beside it (pipeline.py), so an answer shows both opinions.
RELATION_KINDS = ("argues_with", "minhag_override", "supports", "quotes", "based_on", "supersedes", "contextualizes")
OPPOSING = ("argues_with", "minhag_override")

# Characters of a passage that retrieval hands on: uploads are cut to 4,800 characters, but a passage stored
# before that may hold megabytes without a break, and every stage after retrieval reads its text.
MAX_PASSAGE_READ = 20_000


@dataclass(frozen=True)
class Chunk:
    """A passage of a document: the unit that is indexed, retrieved and cited."""

    id: str
    doc_id: str
    title: str
    text: str
    start: int  # character offsets of the passage in its document's text
    end: int
    section_path: tuple[str, ...] = ()  # e.g. ("סימן ב", "סעיף ג") or ("Chapter 3",)
    ref: str | None = None  # canonical reference, e.g. "Shulchan Arukh, Orach Chayim 2:3"
    parent_ref: str | None = None  # the enclosing section's reference, e.g. "Shulchan Arukh, Orach Chayim 2"
    community: str | None = None  # whose ruling or custom it records: "Ashkenazi", "Sephardi", "General" ...
    era: str | None = None  # e.g. "Rishonim", "Acharonim"
    authority_weight: float = 0.0  # 0 to 1; only a canonical text's passages carry authority
    tier: str | None = None  # its document's corpus tier ("public" when the document names none)

    def in_document(self, doc: "DocumentInfo") -> "Chunk":
        """The chunk with what its document says of it where the chunk says nothing itself: community and era;
        and the document's tier, with full authority (or the chunk's own) in a canonical text and none elsewhere."""
        weight = (self.authority_weight or 1.0) if doc.tier == "canonical" else 0.0
        return replace(self, section_path=tuple(self.section_path), community=self.community or doc.community,
                       era=self.era or doc.metadata.get("era"), tier=doc.tier or "public", authority_weight=weight)

    @property
    def key(self) -> str:
        """The passage key a relation names it by: its canonical reference, else its id."""
        return self.ref or self.id

    @property
    def heading(self) -> str:
        """Where the chunk sits, in words: its title and section labels ("Shulchan Arukh אורח חיים סימן שי״ח ...")."""
        return " ".join(filter(None, [self.title, *self.section_path]))

    def bounded(self) -> "Chunk":
        """The chunk with at most MAX_PASSAGE_READ characters of its text: what answering reads of it."""
        if len(self.text) <= MAX_PASSAGE_READ:
            return self
        return replace(self, text=self.text[:MAX_PASSAGE_READ], end=self.start + MAX_PASSAGE_READ)

    @property
    def passage_text(self) -> str:
        """What is indexed and embedded: the heading and the text, so 'Alexander Fleming' matches his article."""
        return f"{self.heading}\n{self.text}" if self.heading else self.text


@dataclass
class DocumentInfo:
    """A document of the library as stored: its metadata, not its text."""

    id: str
    title: str
    format: str
    content_hash: str
    author: str | None = None
    language: str | None = None
    work: str | None = None  # the work a citation names, e.g. "Shulchan Arukh, Orach Chayim"
    tier: str | None = None  # canonical, apocrypha, academic, private ...
    community: str | None = None
    filename: str | None = None  # the user's file name, for display only
    owner: int | None = None  # the user who uploaded it (None: a corpus, or a personal server's owner)
    status: str = "ready"
    chunk_count: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    metadata: dict = field(default_factory=dict)


@dataclass
class Relation:
    """How one passage relates to another, both named by passage key (Chunk.key): source {kind} target."""

    id: int
    source: str
    target: str
    kind: str  # one of RELATION_KINDS
    confidence: float = 1.0  # 0 to 1: how sure whoever recorded it was
    notes: str | None = None
    created_by: int | None = None  # the user who recorded it (None: imported from a file, or the personal owner)
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass
class Job:
    """An ingest or re-index of one document, run in the background; its row survives a restart."""

    id: str
    kind: str  # "ingest" or "reindex"
    status: str  # queued, running, done, failed
    stage: str  # queued, parsing, chunking, embedding, indexing, done, failed
    document_id: str | None = None
    filename: str | None = None
    stored_path: str | None = None
    options: dict = field(default_factory=dict)
    done: int = 0
    total: int = 0
    error: str | None = None
    warnings: list = field(default_factory=list)
    owner: int | None = None
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass
class Hit:
    """A chunk retrieved for a query, with the score of every stage that saw it."""

    chunk: Chunk
    bm25_score: float
    dense_score: float
    hybrid_score: float
    ce_score: float | None = None  # None when the rerank stage is off
    position: int = -1  # the chunk's position in the library view it came from
    context_before: str | None = None  # the previous chunk of the same document
    context_after: str | None = None
    # a relation that brought this passage in, or another passage in beside it (search/related.py): its kind, id,
    # confidence and notes, "passage" (the other passage's key) and "direction": "to" when this passage is the
    # relation's source (this one argues with the other), "from" when it is the target
    relation: dict | None = None
    # the hybrid score without the questions written beside the passages (search/asked.py), which raise a score to
    # about 3: on one scale with or without them. None: the library has none, and the hybrid score is the passage's own
    passage_score: float | None = None

    @property
    def own_score(self) -> float:
        """The passage's own hybrid score, its written questions' share left out."""
        return self.hybrid_score if self.passage_score is None else self.passage_score

    @property
    def asked_score(self) -> float:
        """What the questions written beside the passage add to its hybrid score (0 where the library has none)."""
        return self.hybrid_score - self.own_score

    @property
    def score(self) -> float:
        """The score the final order is by: the cross-encoder's when it ran, else the hybrid one."""
        return self.hybrid_score if self.ce_score is None else self.ce_score


@dataclass
class Statement:
    """One claim of a draft answer: its text without markers, the passages it cites, and what it quotes."""

    text: str
    cited: list[int]  # passage numbers (1-based) as the writer gave them, valid or not
    quotes: list[str] = field(default_factory=list)  # spans the writer says it copied verbatim from what it cites


@dataclass
class Draft:
    """What a writer produced, before any check: text with [n] markers, and its claims when the provider
    cited natively (Claude's search_result citations, Gemini's structured JSON). statements None means
    the claims are parsed from the text."""

    text: str
    statements: list[Statement] | None = None
    model: str | None = None  # the model that wrote it, when one did
    declined: bool = False  # the writer found no answer; text is the decline, then what the sources do say
    answerability: float | None = None  # how sure the answerability judge was that the answer answers
    missing: tuple[str, ...] = ()  # declining a calculation: the figures no passage gives
    quoted: bool = False  # every sentence is a passage's own (the offline writer): a source's words, not a ruling
    more: tuple = ()  # passages of the request's reserve the draft cites, numbered after its hits (a second look)


@dataclass(frozen=True)
class WriteRequest:
    """Everything a writer needs: the question, its type, the passages and the answer's language and model."""

    question: str
    query_type: str
    hits: list[Hit]
    language: str = "en"  # ISO 639-1 code of the answer's language ("he", "en", ...)
    model: str | None = None  # overrides the writer's configured model for this request
    halachic: bool = False  # a question of religious law: teach each source's opinion, never rule
    untrusted: frozenset[int] = frozenset()  # numbers (hits, then reserve) of unvouched uploads (checks/instructions.py)
    parts: tuple = ()  # a two-subject question: (subject, its search, its passage numbers) each, answered apart
    reserve: tuple = ()  # passages the search ranked after hits (to about rank 20): a second look when hits hold no answer


@dataclass(frozen=True)
class Citation:
    """A [n] marker of an answer, resolved to the passage it names."""

    n: int
    passage_id: str
    title: str
    ref: str | None = None  # the passage's canonical reference, else its title
    valid: bool = True  # names a passage that was given (invalid ones never reach an answer)
    quote_verified: bool | None = None  # every quoted span is in the passage; None when nothing is quoted
    support: float | None = None  # best cosine of a citing claim with a sentence of the passage; None if unchecked
    verified: bool | None = None  # some claim citing it is supported by it; None when no check ran
    spans: tuple[tuple[int, int], ...] = ()  # character ranges of the passage the claims rest on (best sentence or quote)
    # the range each of its markers rests on, in the answer's reading order: the k-th [n] of the text is marks[k]
    # (None: that claim rests on no single sentence)
    marks: tuple[tuple[int, int] | None, ...] = ()


@dataclass
class Answer:
    """What a generator wrote, with its citations checked against the passages it was given."""

    text: str
    citations: list[Citation] = field(default_factory=list)
    invalid_citations: list[int] = field(default_factory=list)  # [n] markers that named no passage
    generator: str = ""
    declined: bool = False
    degraded: str | None = None  # why the configured provider was not used, when it failed
    removed_claims: list[str] = field(default_factory=list)  # sentences dropped because no citation supported them
    model: str | None = None  # the model that wrote it, when one did
    answerability: float | None = None  # the judge's probability that the answer answers; None when none judged
    flagged_claims: list[str] = field(default_factory=list)  # instructions resting only on unvouched uploads
    from_library: bool = True  # False: a model writer replied without searching (a greeting), citing nothing
    added: list = field(default_factory=list)  # passages a second look found and the answer cites, shown after the rest


@dataclass(frozen=True)
class Question:
    """A question as the pipeline understood it: the standalone form it searched for, its type and language."""

    session_id: str
    question: str  # as asked
    standalone_question: str  # rewritten from the conversation when it was a follow-up
    rewritten: bool
    query_type: str
    query_type_confidence: float
    language: str  # the answer's language


@dataclass(frozen=True)
class Ask:
    """One question as it is asked: what every stage of the pipeline reads (pipeline.py).

    Settings left None take what the server and the query type choose.
    """

    question: str
    turns: tuple[dict, ...] = ()  # the conversation's last turns, oldest first: a follow-up is rewritten from them
    reader: object = None  # who asks (accounts/roles.Reader); None: every document may be searched
    session_id: str | None = None  # the conversation it belongs to (a new one when None)
    top_k: int | None = None  # passages to show (default: the query type's)
    provider: str | None = None  # a configured writer ("offline", "claude", "gemini", "openai")
    model: str | None = None  # the provider's model for this question
    language: str | None = None  # the answer's language; None or "auto": the question's
    filters: dict | None = None  # document_ids, language, work, tier, community, section, part
    mode: str = "practical"  # practical, deep (more passages, a second search) or posek (every relation)
    streaming: bool = True  # deltas while the answer is written; False: the whole answer at once


@dataclass
class Evidence:
    """The passages found for a question, in the order shown."""

    hits: list[Hit]
    reranked: bool  # a cross-encoder ordered them
    followup: dict | None = None  # {"query", "added"} when a reasoning question searched once more
    searches: list[dict] = field(default_factory=list)  # each search: {"query", "filters", "results" (numbers), "error"}


@dataclass
class Result:
    """One answered question: what was asked, the evidence, the checked answer, and milliseconds per stage."""

    question: Question
    evidence: Evidence
    answer: Answer
    timings: dict  # classify, retrieve, generate, total, and "stages" of retrieval
    halachic: bool = False  # a question of religious law: the answer teaches the sources and does not rule
    mode: str = "practical"  # practical, deep or posek (pipeline.MODES)
