"""The question-answering pipeline: rewrite a follow-up, classify the question, retrieve evidence, write a cited answer.

The query type is not decoration: it picks how many candidates and passages retrieval takes,
and the answer style the writer is asked for (and how many sentences the offline writer keeps).
A model writer searches for itself (writers/research.py), up to max_searches times; any other writer gets the
passages of the pipeline's search: one per subject of a two-subject question, within the section a question names.
`Pipeline.load(config, library)` builds its parts from a config mapping; nothing loads at import time.
Does not: keep the conversation or log answers (the caller passes the last turns and logs the Result),
or shape JSON (web/shaping.py does).
"""
import functools
import logging
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from generator import Generator
from hebrew.script import detect_language
from ingest.catalog import catalog, find_works
from models import OPPOSING, RELATION_KINDS, Answer, Evidence, Hit, Question, Result, WriteRequest
from question.halacha import is_halachic
from question.rewrite import rewrite
from question.scope import scope_of, section_asked
from question.subjects import apart, subjects
from retrieval import RetrievalConfig, Retriever
from search.embedders import settings
from search.missing_words import search_missing_words
from search.related import passage_hit, with_related
from search.reranker import Reranker
from writers.configured import hosted_writers
from writers.instructions import untrusted_passages
from writers.judge import AnswerabilityJudge
from writers.offline import ExtractiveWriter
from writers.prompt import DECLINE
from writers.research import Researched, research
from writers.tools import MAX_SEARCHES, Toolbox, within
from writers.verify import MARKERS, Verifier
from writers.writer import ProviderError, status_of

log = logging.getLogger(__name__)

# Per query type: candidates from each retriever, passages shown and given to the writer.
QUERY_POLICIES = {
    "factual_lookup": {"candidates": 100, "top_k": 4},  # one fact: a shallow, precise search
    "explanation": {"candidates": 200, "top_k": 5},
    "reasoning": {"candidates": 200, "top_k": 6},  # weighs several facts: more evidence
    "calculation": {"candidates": 200, "top_k": 5},
}
SUBJECT_MIN = 3  # passages searched for each subject of a two-subject question
SECOND_LOOK = 20  # the search's depth: passages after those shown are the offline writer's second look
# How a reader wants the sources taught (the seeds' modes): practical as the query type asks; deep research
# takes twice the passages (at most DEEP_MAX) and searches once more for what any question's passages miss.
MODES = ("practical", "deep", "posek")
DEEP_MAX = 10
# Under a reply a model writer gave without searching (a greeting, a question about the conversation)
NOT_FROM_LIBRARY = {"en": "(This reply does not come from the library and cites no source.)",
                    "he": "(תשובה זו אינה מן הספרייה ואינה מצטטת מקור.)"}
CATALOG_ONLY = {"en": "(This reply comes from the library's catalog, not from its passages, and cites no source.)",
                "he": "(תשובה זו מקטלוג הספרייה, לא מן המקורות עצמם, ואינה מצטטת מקור.)"}


class Pipeline:
    """Classifier, retriever and generator, wired together."""

    def __init__(self, classifier, retriever, generator, info: dict | None = None, max_searches: int = MAX_SEARCHES):
        self.classifier = classifier
        self.retriever = retriever
        self.generator = generator
        self.info = info or {}  # what was loaded (classifier, embedder, reranker), for /api/health
        self.max_searches = max_searches  # a model writer's own searches per question; 0: it is given the passages

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
                                 float(alpha_he), bool(config["COMMUNITY_BOOST"]), float(config["SECTION_WEIGHT"]))
        classifier = QueryClassifier.load(Path(config["CLASSIFIER_DIR"]))
        judge = AnswerabilityJudge.load(Path(config["JUDGE_DIR"])) if config["JUDGE_DIR"] else None
        # the passages' sentences through the library's kept vectors (search/sentence_vectors.py)
        sentences = getattr(library, "sentences", None) if embedder is library.embedder else None
        writers = {"offline": ExtractiveWriter(sentences or embedder, judge=judge), **hosted_writers(config)}
        default = config["GENERATOR"] or next(n for n in ("gemini", "claude", "openai", "offline") if n in writers)
        if default not in writers:
            raise ValueError(f"GENERATOR={default!r} is not configured; available: {sorted(writers)} (set its API key)")
        verifier = Verifier(sentences or embedder, config["SUPPORT_THRESHOLD"])  # None: the embedder's own (search/embedders.py)
        info = {"classifier": {"path": str(config["CLASSIFIER_DIR"]), "encoder": classifier.encoder_name},
                "embedder": embedder.name, "reranker": reranker.name if reranker else None,
                "judge": judge.describe() if judge else None}
        return cls(classifier, Retriever(library, embedder, reranker, search),
                   Generator(writers, default, verifier=verifier, judge=judge), info, int(config["MAX_SEARCHES"]))

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
        writer, degraded = self.generator.writers[name], None
        works = functools.cache(lambda: self.works(reader))  # the catalog, read once a question when it is needed
        researching = bool(self.max_searches) and hasattr(writer, "tool_turn")  # the writer searches for itself
        # a writer that searches reads the conversation itself: the rules' rewrite is enough for the classifier
        complete = None if researching else getattr(writer, "complete", None)
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
        store = getattr(self.retriever.library, "store", None)
        hidden = store.hidden_documents(reader) if store is not None and reader is not None else frozenset()
        community = reader.community if reader is not None else None  # for the boosts, when they are on
        search = lambda q, k, more=None: self.retriever.search(  # noqa: E731
            q, k, policy["candidates"], stages, filters=within(filters, more), hidden=hidden, community=community)
        if researching:
            toolbox = Toolbox(lambda q, more: search(q, top_k, more), lambda i: self.passage(i, filters, hidden),
                              works, self.max_searches)
            try:
                done = research(writer, question, list(turns), toolbox, language,
                                is_halachic(standalone, []), model)
            except ProviderError as exc:  # the plain pipeline answers instead, offline
                log.warning("%s failed while searching (%s); answering with the plain pipeline", name, exc)
                degraded, name = f"{exc}; the library was searched for the question and the answer written offline", \
                    self.generator.fallback
            else:
                yield from self.researched(asked, done, toolbox, name, model, timings, clock, started, stages, mode)
                return
        if mode == "deep":
            top_k = min(DEEP_MAX, 2 * top_k)
        if section_asked(question) is not None and not (filters or {}).get("section"):  # "lesson 2 of that course"
            scope = scope_of(question, list(turns), works())
            filters = {**(filters or {}), **scope} if scope and not (filters or {}).get("document_ids") else filters
        split, followup, reserve = subjects(standalone), None, []
        if split:  # two subjects: a search for each, their evidence kept apart for the writer
            hits, found = self.search_each(split, search, top_k, works)
        else:  # searched to about rank 20: the offline writer takes a second look there when these hold no answer
            hits = search(standalone, max(top_k, SECOND_LOOK))
            hits, reserve = hits[:top_k], hits[top_k:]
            found = [(standalone, filters or {}, [h.chunk.id for h in hits], None)]
            if query_type == "reasoning" or mode == "deep":
                hits, followup = search_missing_words(standalone, hits, search)
                if followup:
                    found.append((followup["query"], filters or {}, [h.chunk.id for h in hits[len(found[0][2]):]], None))
        relations = getattr(self.retriever.library, "relations", None)
        if relations is not None:  # a passage argued with brings in its opponent (the posek's: every relation)
            kinds = RELATION_KINDS if mode == "posek" else OPPOSING
            hits = with_related(hits, self.retriever.library.current(), relations,
                                self.retriever.scope(filters, hidden), kinds, reader.community if reader else None)
        if store is not None and reader is not None and not reader.everything:
            hidden = store.hidden_documents(reader)  # again: a document committed since the search began
            hits = [h for h in hits if h.chunk.doc_id not in hidden]
            reserve = [h for h in reserve if h.chunk.doc_id not in hidden]
        timings["retrieve"] = lap(clock)
        numbers = {h.chunk.id: n for n, h in enumerate(hits, start=1)}
        searches = [{"query": query, "filters": used, "results": [numbers[i] for i in ids if i in numbers],
                     "error": None} for query, used, ids, _ in found]
        evidence = Evidence(hits, self.retriever.reranker is not None, followup, searches)
        yield "sources", evidence

        clock = time.perf_counter()
        parts = apart([(subject.label, subject.question, s["results"]) for (*_, subject), s in zip(found, searches)]
                      ) if split else ()
        shown = {h.chunk.id for h in hits}
        reserve = tuple(h for h in reserve if h.chunk.id not in shown)
        request = WriteRequest(standalone, query_type, hits, language, model, is_halachic(standalone, hits),
                               untrusted_passages([*hits, *reserve], getattr(self.retriever.library, "store", None)),
                               parts, reserve)
        answer = None
        pieces = self.generator.stream(request, name) if streaming else [self.generator.answer(request, name)]
        for piece in pieces:
            if isinstance(piece, Answer):
                answer = piece
            else:
                yield "delta", piece
        if degraded:
            answer.degraded = degraded
        if answer.added:  # the second look's passages are shown after the others, as the search's results
            searches[0]["results"] += list(range(len(evidence.hits) + 1, len(evidence.hits) + len(answer.added) + 1))
            evidence.hits.extend(answer.added)
        timings["generate"] = lap(clock)
        timings["total"] = lap(started)
        yield "answer", Result(asked, evidence, answer, {**timings, "stages": stages}, request.halachic, mode)


    def researched(self, asked: Question, done: Researched, toolbox: Toolbox, name: str, model: str | None,
                   timings: dict, clock: float, started: float, stages: dict, mode: str) -> Iterator[tuple[str, object]]:
        """The events of an answer the writer searched for itself: its evidence, then its draft checked (or, stopped
        at the bound, the answer written from the evidence found). A reply that searched nothing cites nothing and
        says it does not come from the library."""
        hits = toolbox.hits
        timings["retrieve"] = lap(clock)  # the writer's turns and its searches
        evidence = Evidence(hits, self.retriever.reranker is not None, None, toolbox.searches)
        yield "sources", evidence
        clock = time.perf_counter()
        request = WriteRequest(asked.standalone_question, asked.query_type, hits, asked.language, model,
                               is_halachic(asked.standalone_question, hits),
                               untrusted_passages(hits, getattr(self.retriever.library, "store", None)))
        reply = MARKERS.sub("", done.draft.text).strip() if done.draft is not None else ""
        if not done.searched and reply:  # its [n] could name nothing: no passage was found
            note = (CATALOG_ONLY if toolbox.listed else NOT_FROM_LIBRARY)
            answer = Answer(f"{reply}\n\n{note.get(asked.language, note['en'])}", generator=name,
                            model=done.draft.model, from_library=False)
        elif done.draft is not None:
            answer = self.generator.finish(done.draft, request, name)
        else:  # stopped at the bound: written from what was found
            answer = self.generator.answer(request, name)
        timings["generate"] = lap(clock)
        timings["total"] = lap(started)
        yield "answer", Result(asked, evidence, answer, {**timings, "stages": stages}, request.halachic, mode)

    @staticmethod
    def search_each(split: list, search, top_k: int, works) -> tuple[list[Hit], list[tuple]]:
        """A search for each subject of a question (question/subjects.py), within the work it names when the catalog
        (works()) has one; the hits of all, each passage once, and (query, filters, chunk ids, subject) of each."""
        hits, found, seen = [], [], set()
        for subject in split:
            query, more = subject.query, None
            if subject.about:
                named = find_works(works(), subject.label)
                if named:
                    query, more = subject.about, {"document_ids": [w["document_id"] for w in named]}
            mine = search(query, max(SUBJECT_MIN, top_k // 2 + 1), more)
            shown = {"work": named[0]["work"]} if more else {}
            found.append((query, shown, [h.chunk.id for h in mine], subject))
            hits += [h for h in mine if h.chunk.id not in seen]
            seen |= {h.chunk.id for h in mine}
        return hits, found

    def passage(self, ident: str, filters: dict | None, hidden: frozenset[str]) -> Hit | None:
        """The passage a writer's get_passage names, if the question may search it (the reader's filters hold)."""
        return passage_hit(self.retriever.library.current(), ident, self.retriever.scope(filters, hidden))

    def works(self, reader) -> list[dict]:
        """The catalog reader sees, for a writer's list_works and search_library's work names."""
        store = getattr(self.retriever.library, "store", None)
        return catalog(*store.catalog_rows(reader)) if store is not None else []


def lap(since: float) -> float:
    """Milliseconds since a perf_counter reading."""
    return round((time.perf_counter() - since) * 1000, 2)
