"""The question-answering pipeline: classify the question, retrieve evidence, write a cited answer.

The query type is not decoration: it picks how many candidates and passages retrieval takes,
and the answer style the writer is asked for (and how many sentences the offline writer keeps).
`Pipeline.load(config)` builds every part from a config mapping; nothing loads at import time.
"""
import logging
import time
from dataclasses import asdict
from pathlib import Path

from models import Answer, Hit

log = logging.getLogger(__name__)

# Per query type: candidates from each retriever, passages shown and given to the writer.
QUERY_POLICIES = {
    "factual_lookup": {"candidates": 100, "top_k": 4},  # one fact: a shallow, precise search
    "explanation": {"candidates": 200, "top_k": 5},
    "reasoning": {"candidates": 200, "top_k": 6},  # weighs several facts: more evidence
    "calculation": {"candidates": 200, "top_k": 5},
}


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
        "parent_ref": hit.chunk.parent_ref,
        "section_path": list(hit.chunk.section_path),
        "context_before": hit.context_before,
        "context_after": hit.context_after,
    }


class Pipeline:
    """Classifier, retriever and generator, wired together."""

    def __init__(self, classifier, retriever, generator, info: dict | None = None, ingestor=None):
        self.classifier = classifier
        self.retriever = retriever
        self.generator = generator
        self.info = info or {}
        self.ingestor = ingestor  # adds and removes documents of the library (None for a fixed one)

    @classmethod
    def load(cls, config, open_library=None) -> "Pipeline":
        """Build the pipeline from a config mapping (see app.py's defaults for the keys).

        open_library(embedder) -> a library replaces LIBRARY_DIR when given (evaluation).
        """
        from classifier import QueryClassifier
        from embedding import Embedder
        from extractive import ExtractiveWriter
        from generator import Generator
        from jobs import Ingestor
        from providers import ClaudeWriter, GeminiWriter
        from verify import Verifier
        from retrieval import RetrievalConfig, Reranker, Retriever

        started = time.perf_counter()
        embedder = Embedder.load(config["EMBEDDING_MODEL"])
        reranker = Reranker.load(config["RERANKER_MODEL"]) if config["RERANKER_MODEL"] else None
        settings = RetrievalConfig(config["ALPHA"], config["CANDIDATES"], config["RERANK_DEPTH"], config["TOP_K"])
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
        verifier = Verifier(embedder, config["SUPPORT_THRESHOLD"])
        default = config["GENERATOR"] or next(n for n in ("gemini", "claude", "offline") if n in writers)
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
        return cls(classifier, retriever, Generator(writers, default, verifier=verifier), info, ingestor)

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
            "providers": sorted(self.generator.writers),
        }

    def _documents_matching(self, filters: dict) -> set[str] | None:
        """Ids of the documents the filters allow (a fixed library without a store knows only ids)."""
        store = getattr(self.retriever.library, "store", None)
        if store is not None:
            return store.matching_documents(filters)
        return set(filters["document_ids"]) if "document_ids" in filters else None

    def ask(self, question: str, top_k: int | None = None, provider: str | None = None,
            exclude_docs: frozenset = frozenset(), filters: dict | None = None) -> dict:
        """Answer a question with cited evidence.

        Args:
            question: the user's question.
            top_k: passages to retrieve and show (default: what the query type asks for).
            provider: a configured writer's name ("offline", "claude", "gemini"); default the configured one.
            exclude_docs: document ids to leave out of retrieval (evaluation of unanswerable questions).
            filters: search only documents matching document_ids, language, work, tier, community.

        Returns:
            The API's response body: query type, answer, citations, passages with scores, generator, timings.
        """
        timings: dict[str, float] = {}
        started = clock = time.perf_counter()
        query_type, confidence = self.classifier.classify(question)
        timings["classify"] = round((time.perf_counter() - clock) * 1000, 2)

        policy = QUERY_POLICIES[query_type]
        clock = time.perf_counter()
        stages: dict[str, float] = {}
        only_docs = self._documents_matching(filters) if filters else None
        hits = self.retriever.search(question, top_k or policy["top_k"], policy["candidates"], stages,
                                     exclude_docs=exclude_docs, only_docs=only_docs)
        timings["retrieve"] = round((time.perf_counter() - clock) * 1000, 2)

        clock = time.perf_counter()
        answer: Answer = self.generator.answer(question, query_type, hits, provider)
        timings["generate"] = round((time.perf_counter() - clock) * 1000, 2)
        timings["total"] = round((time.perf_counter() - started) * 1000, 2)
        return {
            "question": question,
            "query_type": query_type,
            "query_type_confidence": round(confidence, 3),
            "answer": answer.text,
            "declined": answer.declined,
            "citations": [asdict(c) for c in answer.citations],
            "invalid_citations": answer.invalid_citations,
            "removed_claims": answer.removed_claims,
            "passages": [passage_json(n, hit) for n, hit in enumerate(hits, start=1)],
            "generator": answer.generator,
            "degraded": answer.degraded is not None,
            **({"degraded_reason": answer.degraded} if answer.degraded else {}),
            "reranked": self.retriever.reranker is not None,
            "timings_ms": {**timings, "stages": stages},
        }
