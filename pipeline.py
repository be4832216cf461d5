"""The question-answering pipeline: rewrite a follow-up, classify the question, retrieve evidence, write a cited answer.

The query type is not decoration: it picks how many candidates and passages retrieval takes,
and the answer style the writer is asked for (and how many sentences the offline writer keeps).
`Pipeline.load(config, library)` builds its parts from a config mapping; nothing loads at import time.
Does not: keep the conversation or log answers (the caller passes the last turns and logs the Result),
or shape JSON (web/shaping.py does).
"""
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from generator import Generator
from hebrew.script import detect_language
from hebrew.words import content_words, tokenize
from models import OPPOSING, RELATION_KINDS, Answer, Evidence, Hit, Question, Result, WriteRequest
from question.halacha import is_halachic
from question.rewrite import rewrite
from retrieval import RetrievalConfig, Retriever
from search.embedders import settings
from search.related import with_related
from search.reranker import Reranker
from writers.claude import ClaudeWriter
from writers.gemini import GeminiWriter
from writers.instructions import untrusted_passages
from writers.judge import AnswerabilityJudge
from writers.offline import ExtractiveWriter
from writers.openai_compatible import OpenAIWriter
from writers.prompt import DECLINE
from writers.verify import Verifier
from writers.writer import status_of

# Per query type: candidates from each retriever, passages shown and given to the writer.
QUERY_POLICIES = {
    "factual_lookup": {"candidates": 100, "top_k": 4},  # one fact: a shallow, precise search
    "explanation": {"candidates": 200, "top_k": 5},
    "reasoning": {"candidates": 200, "top_k": 6},  # weighs several facts: more evidence
    "calculation": {"candidates": 200, "top_k": 5},
}
FOLLOW_UP_ADDED = 2  # passages a reasoning question's one follow-up retrieval may add
# How a reader wants the sources taught (the seeds' modes): practical as the query type asks; deep research
# takes twice the passages (at most DEEP_MAX) and searches once more for what any question's passages miss.
MODES = ("practical", "deep", "posek")
DEEP_MAX = 10


class Pipeline:
    """Classifier, retriever and generator, wired together."""

    def __init__(self, classifier, retriever, generator, info: dict | None = None):
        self.classifier = classifier
        self.retriever = retriever
        self.generator = generator
        self.info = info or {}  # what was loaded (classifier, embedder, reranker), for /api/health

    @classmethod
    def load(cls, config, library, embedder=None) -> "Pipeline":
        """Build the pipeline over library from a config mapping (see app.py's defaults for the keys).

        embedder: for questions and the writers' checks; by default the library's own.
        """
        from question.classifier import QueryClassifier  # torch is imported when a pipeline is built, not with the app

        embedder = embedder or library.embedder
        reranker = Reranker.load(config["RERANKER_MODEL"]) if config["RERANKER_MODEL"] else None
        alpha_he = config["ALPHA_HE"] if config["ALPHA_HE"] is not None else settings(embedder.name).alpha_he
        search = RetrievalConfig(config["ALPHA"], config["CANDIDATES"], config["RERANK_DEPTH"], config["TOP_K"],
                                 float(alpha_he), bool(config["COMMUNITY_BOOST"]))
        classifier = QueryClassifier.load(Path(config["CLASSIFIER_DIR"]))
        judge = AnswerabilityJudge.load(Path(config["JUDGE_DIR"])) if config["JUDGE_DIR"] else None
        writers = {"offline": ExtractiveWriter(embedder, judge=judge), **hosted_writers(config)}
        default = config["GENERATOR"] or next(n for n in ("gemini", "claude", "openai", "offline") if n in writers)
        if default not in writers:
            raise ValueError(f"GENERATOR={default!r} is not configured; available: {sorted(writers)} (set its API key)")
        verifier = Verifier(embedder, config["SUPPORT_THRESHOLD"])  # None: the embedder's own (search/embedders.py)
        info = {"classifier": {"path": str(config["CLASSIFIER_DIR"]), "encoder": classifier.encoder_name},
                "embedder": embedder.name, "reranker": reranker.name if reranker else None,
                "judge": judge.describe() if judge else None}
        return cls(classifier, Retriever(library, embedder, reranker, search),
                   Generator(writers, default, verifier=verifier, judge=judge), info)

    def describe(self) -> dict:
        """What is actually live, for /api/health."""
        reranker = self.retriever.reranker
        rerank_note = None if reranker else (
            "off: no cross-encoder is configured, so passages keep the hybrid order and ce_score is the hybrid score"
        )
        return {
            **self.info,
            "library": {"chunks": self.retriever.library.current().size()},
            "reranker": reranker.name if reranker else None,
            "rerank_note": rerank_note,
            "generator": self.generator.default,
            "providers": {name: status_of(writer) for name, writer in sorted(self.generator.writers.items())},
            "languages": sorted(DECLINE),
        }

    def ask(self, question: str, top_k: int | None = None, provider: str | None = None, model: str | None = None,
            language: str | None = None, session_id: str | None = None, filters: dict | None = None,
            turns: list[dict] = (), reader=None, mode: str = "practical") -> Result:
        """Answer a question with cited evidence.

        Args:
            question: the user's question.
            top_k: passages to retrieve and show (default: what the query type asks for).
            provider: a configured writer's name ("offline", "claude", "gemini", "openai"); default the configured one.
            model: the provider's model for this question (default: the configured one).
            language: the answer's language code, or None/"auto" for the question's language.
            session_id: the conversation the question belongs to (a new one when None).
            filters: search only documents matching document_ids, language, work, tier, community.
            turns: the conversation's last turns, oldest first; a follow-up is rewritten into a standalone question.
            reader: who asks (accounts/roles.Reader); no passage of a document hidden from them is searched or shown.
                None: every document.
            mode: "practical", "deep" (more passages, a second search) or "posek" (MODES).

        Returns:
            The (rewritten) question with its type, the passages with their scores, the checked answer, and timings.
        """
        *_, (_, result) = self.stream(question, top_k, provider, model, language, session_id, filters, turns,
                                      streaming=False, reader=reader, mode=mode)
        return result

    def stream(self, question: str, top_k: int | None = None, provider: str | None = None, model: str | None = None,
               language: str | None = None, session_id: str | None = None, filters: dict | None = None,
               turns: list[dict] = (), streaming: bool = True, reader=None,
               mode: str = "practical") -> Iterator[tuple[str, object]]:
        """The answer as events: ("meta", Question), ("sources", Evidence), ("delta", text) while it is written,
        then ("answer", Result). Closing the generator stops the writer. With streaming False the writer is
        asked for its whole answer at once (no deltas)."""
        timings: dict[str, float] = {}
        started = clock = time.perf_counter()
        name = provider or self.generator.default
        complete = getattr(self.generator.writers[name], "complete", None)
        standalone, rewritten = rewrite(list(turns), question, complete)
        language = language if language and language != "auto" else (detect_language(question) or "en")
        query_type, confidence = self.classifier.classify(standalone)
        timings["classify"] = lap(clock)
        asked = Question(session_id or uuid.uuid4().hex, question, standalone, rewritten, query_type,
                         round(confidence, 3), language)
        yield "meta", asked

        clock = time.perf_counter()
        policy = QUERY_POLICIES[query_type]
        stages: dict[str, float] = {}
        top_k = top_k or policy["top_k"]
        if mode == "deep":
            top_k = min(DEEP_MAX, 2 * top_k)
        store = getattr(self.retriever.library, "store", None)
        hidden = store.hidden_documents(reader) if store is not None and reader is not None else frozenset()
        community = reader.community if reader is not None else None  # for the boosts, when they are on
        search = lambda q, k: self.retriever.search(q, k, policy["candidates"], stages, filters=filters,  # noqa: E731
                                                    hidden=hidden, community=community)
        hits = search(standalone, top_k)
        followup = None
        if query_type == "reasoning" or mode == "deep":
            hits, followup = follow_up(standalone, hits, search)
        relations = getattr(self.retriever.library, "relations", None)
        if relations is not None:  # a passage argued with brings in its opponent (the posek's: every relation)
            kinds = RELATION_KINDS if mode == "posek" else OPPOSING
            hits = with_related(hits, self.retriever.library.current(), relations,
                                self.retriever.scope(filters, hidden), kinds, reader.community if reader else None)
        if store is not None and reader is not None and not reader.everything:
            hidden = store.hidden_documents(reader)  # again: a document committed since the search began
            hits = [h for h in hits if h.chunk.doc_id not in hidden]
        timings["retrieve"] = lap(clock)
        evidence = Evidence(hits, self.retriever.reranker is not None, followup)
        yield "sources", evidence

        clock = time.perf_counter()
        request = WriteRequest(standalone, query_type, hits, language, model, is_halachic(standalone, hits),
                               untrusted_passages(hits, getattr(self.retriever.library, "store", None)))
        answer = None
        pieces = self.generator.stream(request, provider) if streaming else [self.generator.answer(request, provider)]
        for piece in pieces:
            if isinstance(piece, Answer):
                answer = piece
            else:
                yield "delta", piece
        timings["generate"] = lap(clock)
        timings["total"] = lap(started)
        yield "answer", Result(asked, evidence, answer, {**timings, "stages": stages}, request.halachic, mode)


def hosted_writers(config) -> dict:
    """The model writers whose keys or servers the config names, by provider name."""
    writers, timeout, retries = {}, config["LLM_TIMEOUT"], config["LLM_RETRIES"]
    if config["ANTHROPIC_API_KEY"]:
        writers["claude"] = ClaudeWriter(
            config["ANTHROPIC_API_KEY"], config["CLAUDE_MODEL"], config["ANTHROPIC_BASE_URL"], timeout, retries,
            models=config["CLAUDE_MODELS"],
        )
    if config["GEMINI_API_KEY"]:
        writers["gemini"] = GeminiWriter(
            config["GEMINI_API_KEY"], config["GEMINI_MODEL"], config["GEMINI_BASE_URL"], timeout, retries,
            models=config["GEMINI_MODELS"],
        )
    if config["OPENAI_BASE_URL"]:
        if not config["OPENAI_MODEL"]:
            raise ValueError("OPENAI_BASE_URL is set but OPENAI_MODEL is not; name the model the server runs "
                             "(FLASK_OPENAI_MODEL=llama3.1:8b, for example)")
        writers["openai"] = OpenAIWriter(
            config["OPENAI_BASE_URL"], config["OPENAI_MODEL"], config["OPENAI_API_KEY"], timeout, retries,
            models=config["OPENAI_MODELS"],
        )
    return writers


def lap(since: float) -> float:
    """Milliseconds since a perf_counter reading."""
    return round((time.perf_counter() - since) * 1000, 2)


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
