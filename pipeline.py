"""The question-answering pipeline: classify the question, retrieve evidence, write a cited answer.

The query type is not decoration: it picks how many candidates and passages retrieval takes,
and the answer style the writer is asked for (and how many sentences the offline writer keeps).
`Pipeline.load(config)` builds every part from a config mapping; nothing loads at import time.
"""
import logging
import time
import uuid
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from hebrew.refs import hebrew_label
from hebrew.script import detect_language
from hebrew.words import content_words, tokenize
from models import Answer, Citation, Hit, WriteRequest
from question.conversation import rewrite
from writers.prompt import DECLINE

log = logging.getLogger(__name__)

# Per query type: candidates from each retriever, passages shown and given to the writer.
QUERY_POLICIES = {
    "factual_lookup": {"candidates": 100, "top_k": 4},  # one fact: a shallow, precise search
    "explanation": {"candidates": 200, "top_k": 5},
    "reasoning": {"candidates": 200, "top_k": 6},  # weighs several facts: more evidence
    "calculation": {"candidates": 200, "top_k": 5},
}
FOLLOW_UP_ADDED = 2  # passages a reasoning question's one follow-up retrieval may add


def passage_json(n: int, hit: Hit) -> dict:
    """A hit as the API shows it; ce_score is the hybrid score when no cross-encoder ran."""
    return {
        "n": n,
        "id": hit.chunk.id,
        "doc_id": hit.chunk.doc_id,
        "title": hit.chunk.title,
        "chunk": hit.chunk.text,
        "ce_score": round(hit.score, 4),
        "bm25_score": round(hit.bm25_score, 4),
        "dense_score": round(hit.dense_score, 4),
        "hybrid_score": round(hit.hybrid_score, 4),
        "ref": hit.chunk.ref,
        "ref_he": hebrew_label(hit.chunk.ref),
        "parent_ref": hit.chunk.parent_ref,
        "section_path": list(hit.chunk.section_path),
        "context_before": hit.context_before,
        "context_after": hit.context_after,
    }


class Pipeline:
    """Classifier, retriever and generator, wired together."""

    def __init__(self, classifier, retriever, generator, info: dict | None = None, ingestor=None, history=None):
        self.classifier = classifier
        self.retriever = retriever
        self.generator = generator
        self.info = info or {}
        self.ingestor = ingestor  # adds and removes documents of the library (None for a fixed one)
        self.history = history  # logs every answer and keeps conversations (history.History), when given

    @classmethod
    def load(cls, config, open_library=None, history=None) -> "Pipeline":
        """Build the pipeline from a config mapping (see app.py's defaults for the keys).

        open_library(embedder) -> a library replaces LIBRARY_DIR when given (evaluation);
        history: where answers are logged and conversations kept (none when not given).
        """
        from generator import Generator
        from ingest.jobs import Ingestor
        from question.classifier import QueryClassifier
        from retrieval import Reranker, RetrievalConfig, Retriever
        from search.embedders import settings
        from search.embedding import Embedder
        from writers.claude import ClaudeWriter
        from writers.gemini import GeminiWriter
        from writers.offline import ExtractiveWriter
        from writers.openai_compatible import OpenAIWriter
        from writers.verify import Verifier

        started = time.perf_counter()
        embedder = Embedder.load(config["EMBEDDING_MODEL"])
        reranker = Reranker.load(config["RERANKER_MODEL"]) if config["RERANKER_MODEL"] else None
        alpha_he = config["ALPHA_HE"] if config["ALPHA_HE"] is not None else settings(embedder.name).alpha_he
        settings = RetrievalConfig(config["ALPHA"], config["CANDIDATES"], config["RERANK_DEPTH"], config["TOP_K"],
                                   float(alpha_he))
        ingestor = None
        if open_library:
            retriever = Retriever(open_library(embedder), embedder, reranker, settings)
        else:
            retriever = Retriever.load(Path(config["LIBRARY_DIR"]), embedder, reranker, settings)
            ingestor = Ingestor(retriever.library)
        classifier = QueryClassifier.load(Path(config["CLASSIFIER_DIR"]))

        writers = {"offline": ExtractiveWriter(embedder)}
        timeout, retries = config["LLM_TIMEOUT"], config["LLM_RETRIES"]
        if config["ANTHROPIC_API_KEY"]:
            writers["claude"] = ClaudeWriter(
                config["ANTHROPIC_API_KEY"], config["CLAUDE_MODEL"], config["ANTHROPIC_BASE_URL"], timeout, retries
            )
        if config["GEMINI_API_KEY"]:
            writers["gemini"] = GeminiWriter(
                config["GEMINI_API_KEY"], config["GEMINI_MODEL"], config["GEMINI_BASE_URL"], timeout, retries
            )
        if config["OPENAI_BASE_URL"]:
            if not config["OPENAI_MODEL"]:
                raise ValueError("OPENAI_BASE_URL is set but OPENAI_MODEL is not; name the model the server runs "
                                 "(FLASK_OPENAI_MODEL=llama3.1:8b, for example)")
            writers["openai"] = OpenAIWriter(
                config["OPENAI_BASE_URL"], config["OPENAI_MODEL"], config["OPENAI_API_KEY"], timeout, retries
            )
        verifier = Verifier(embedder, config["SUPPORT_THRESHOLD"])  # None: the embedder's own (search/embedders.py)
        default = config["GENERATOR"] or next(n for n in ("gemini", "claude", "openai", "offline") if n in writers)
        if default not in writers:
            raise ValueError(f"GENERATOR={default!r} is not configured; available: {sorted(writers)} (set its API key)")
        info = {
            "classifier": {"path": str(config["CLASSIFIER_DIR"]), "encoder": classifier.encoder_name},
            "embedder": embedder.name,
            "reranker": reranker.name if reranker else None,
            "library": {"path": str(config["LIBRARY_DIR"]), "chunks": len(retriever.chunks)},
            "load_seconds": round(time.perf_counter() - started, 2),
        }
        log.info("pipeline loaded in %.1f s", info["load_seconds"])
        return cls(classifier, retriever, Generator(writers, default, verifier=verifier), info, ingestor, history)

    def describe(self) -> dict:
        """What is actually live, for /api/health."""
        rerank_note = None if self.retriever.reranker else (
            "off: no cross-encoder is configured, so passages keep the hybrid order and ce_score is the hybrid score"
        )
        store = getattr(self.retriever.library, "store", None)
        library = {**self.info.get("library", {}), **(store.stats() if store else {})}
        return {
            **self.info,
            "library": library,
            "reranker": self.retriever.reranker.name if self.retriever.reranker else None,
            "rerank_note": rerank_note,
            "generator": self.generator.default,
            "providers": {name: writer_status(writer) for name, writer in sorted(self.generator.writers.items())},
            "languages": sorted(DECLINE),
        }

    def _documents_matching(self, filters: dict) -> set[str] | None:
        """Ids of the documents the filters allow (a fixed library without a store knows only ids)."""
        store = getattr(self.retriever.library, "store", None)
        if store is not None:
            return store.matching_documents(filters)
        return set(filters["document_ids"]) if "document_ids" in filters else None

    def ask(self, question: str, top_k: int | None = None, provider: str | None = None, model: str | None = None,
            language: str | None = None, session_id: str | None = None, filters: dict | None = None,
            exclude_docs: frozenset = frozenset()) -> dict:
        """Answer a question with cited evidence.

        Args:
            question: the user's question.
            top_k: passages to retrieve and show (default: what the query type asks for).
            provider: a configured writer's name ("offline", "claude", "gemini", "openai"); default the configured one.
            model: the provider's model for this question (default: the configured one).
            language: the answer's language code, or None/"auto" for the question's language.
            session_id: the conversation; a follow-up is rewritten into a standalone question from its last turns.
            filters: search only documents matching document_ids, language, work, tier, community.
            exclude_docs: document ids to leave out of retrieval (evaluation of unanswerable questions).

        Returns:
            The API's response body: the (rewritten) question, query type, answer, checked citations,
            passages with scores, generator, timings, and the answer's id in the history.
        """
        *_, result = self.stream(question, top_k, provider, model, language, session_id, filters, exclude_docs,
                                 streaming=False)
        return result[1]

    def stream(self, question: str, top_k: int | None = None, provider: str | None = None, model: str | None = None,
               language: str | None = None, session_id: str | None = None, filters: dict | None = None,
               exclude_docs: frozenset = frozenset(), streaming: bool = True) -> Iterator[tuple[str, dict]]:
        """The answer as events: ("meta", ...), ("sources", ...), ("delta", {"text"}) while it is written,
        then ("answer", the body `ask` returns). Closing the generator stops the writer. With streaming
        False the writer is asked for its whole answer at once (no deltas)."""
        timings: dict[str, float] = {}
        started = clock = time.perf_counter()
        turns = self.history.turns(session_id) if self.history and session_id else []  # a new session has none
        session_id = session_id or uuid.uuid4().hex
        name = provider or self.generator.default
        complete = getattr(self.generator.writers[name], "complete", None)
        standalone, rewritten = rewrite(turns, question, complete)
        language = language if language and language != "auto" else (detect_language(question) or "en")
        query_type, confidence = self.classifier.classify(standalone)
        timings["classify"] = lap(clock)
        meta = {"session_id": session_id, "question": question, "standalone_question": standalone,
                "rewritten": rewritten, "query_type": query_type, "query_type_confidence": round(confidence, 3),
                "language": language}
        yield "meta", meta

        clock = time.perf_counter()
        policy = QUERY_POLICIES[query_type]
        stages: dict[str, float] = {}
        only_docs = self._documents_matching(filters) if filters else None
        top_k = top_k or policy["top_k"]
        search = lambda q, k: self.retriever.search(q, k, policy["candidates"], stages,  # noqa: E731
                                                     exclude_docs=exclude_docs, only_docs=only_docs)
        hits = search(standalone, top_k)
        followup = None
        if query_type == "reasoning":
            hits, followup = follow_up(standalone, hits, search)
        timings["retrieve"] = lap(clock)
        passages = [passage_json(n, hit) for n, hit in enumerate(hits, start=1)]
        reranked = self.retriever.reranker is not None
        yield "sources", {"passages": passages, "reranked": reranked, "followup_retrieval": followup}

        clock = time.perf_counter()
        request = WriteRequest(standalone, query_type, hits, language, model)
        answer = None
        pieces = self.generator.stream(request, provider) if streaming else [self.generator.answer(request, provider)]
        for piece in pieces:
            if isinstance(piece, Answer):
                answer = piece
            else:
                yield "delta", {"text": piece}
        timings["generate"] = lap(clock)
        timings["total"] = lap(started)
        result = {
            "id": None,
            **meta,
            "answer": answer.text,
            "declined": answer.declined,
            "citations": [citation_json(c) for c in answer.citations],
            "invalid_citations": answer.invalid_citations,
            "removed_claims": answer.removed_claims,
            "passages": passages,
            "generator": answer.generator,
            "model": answer.model,
            "degraded": answer.degraded is not None,
            **({"degraded_reason": answer.degraded} if answer.degraded else {}),
            "reranked": reranked,
            "followup_retrieval": followup,
            "timings_ms": {**timings, "stages": stages},
        }
        if self.history:
            result["id"] = self.history.log(result)
        yield "answer", result


def lap(since: float) -> float:
    """Milliseconds since a perf_counter reading."""
    return round((time.perf_counter() - since) * 1000, 2)


def citation_json(citation: Citation) -> dict:
    """A checked citation as the API shows it."""
    return {**asdict(citation), "ref_he": hebrew_label(citation.ref), "spans": [list(span) for span in citation.spans]}


def writer_status(writer) -> dict:
    """A writer's health for /api/health; writers that keep none are configured and untried."""
    if hasattr(writer, "status"):
        return writer.status()
    return {"name": getattr(writer, "name", None), "model": getattr(writer, "model", None), "configured": True,
            "circuit": "closed", "last_call": None}


def follow_up(question: str, hits: list[Hit], search) -> tuple[list[Hit], dict | None]:
    """One more retrieval, never more, when the evidence for a reasoning question is weak.

    Weak means that content words of the question occur in none of the passages: the search missed a part
    of what the question asks. The missing words are searched alone and up to FOLLOW_UP_ADDED new passages
    are added after the first ones (their scores belong to another query, so they are not merged into one order).
    """
    found = set().union(*(content_words(f"{h.chunk.title} {h.chunk.text}") for h in hits)) if hits else set()
    asked = content_words(question)
    missing = [w for w in dict.fromkeys(tokenize(question)) if w in asked and w not in found]
    if not missing:
        return hits, None
    query = " ".join(missing)
    seen = {h.chunk.id for h in hits}
    added = [h for h in search(query, len(hits) + FOLLOW_UP_ADDED) if h.chunk.id not in seen][:FOLLOW_UP_ADDED]
    return hits + added, {"query": query, "added": len(added)}
