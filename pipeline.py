"""The question-answering pipeline: rewrite a follow-up, classify the question, retrieve evidence, write a cited answer.

A question arrives as one record (models.Ask) that every stage reads. The query type picks how many candidates
retrieval takes and how many passages it shows, and the answer style the writer is asked for. Then one of two paths:
- the plain path: the pipeline searches (one search per subject of a two-subject question, within the section a
  question names, once more for the words a reasoning question's passages miss), shows the passages, and the chosen
  writer answers from them;
- the research path: a writer that uses tools searches for itself (writers/research.py), up to max_searches times;
  when its provider fails, the plain path answers instead, offline.
Either way the generator has the answer checked (checks/). `Pipeline.load(settings, library)` builds the parts from the
settings; the store, relations and catalog are given when the pipeline is built; nothing loads at import time.
Does not: keep the conversation or log answers (the caller passes the last turns and logs the Result),
or shape JSON (web/shaping.py does).
"""
import functools
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from checks.declines import DECLINE, in_other_languages
from checks.instructions import untrusted_passages
from checks.judge import AnswerabilityJudge
from checks.verify import Verifier
from configuration.settings import Settings
from generator import Generator
from hebrew.script import detect_language
from models import OPPOSING, RELATION_KINDS, Answer, Ask, Evidence, Hit, Question, Result, WriteRequest
from question.halacha import is_halachic
from question.rewrite import rewrite
from question.scope import scope_of, section_asked
from question.policy import DEEP_MAX, QUERY_POLICIES, SECOND_LOOK
from question.quantity import settled
from question.subjects import apart, search_each, subjects
from question.work import Found, Work
from retrieval import FUSIONS, RetrievalConfig, Retriever
from search.catalog import Languages, catalog
from search.embedders import settings as embedder_settings
from search.missing_words import search_missing_words
from search.related import joining, passage_hit, with_related, with_rulings
from search.reranker import Reranker
from writers.live import LiveWriters
from writers.offline import ExtractiveWriter
from writers.research import Researched, research, unsearched_reply
from writers.tools import MAX_SEARCHES, Toolbox, within
from writers.writer import ProviderError, Writer

log = logging.getLogger(__name__)


class Pipeline:
    """Classifier, retriever and generator, wired together over a library's store, relations and catalog."""

    def __init__(self, classifier, retriever, generator, info: dict | None = None, max_searches: int = MAX_SEARCHES,
                 store=None, relations=None, works: Callable | None = None):
        self.classifier = classifier
        self.retriever = retriever
        self.generator = generator
        self.info = info or {}  # what was loaded (classifier, embedder, reranker), for /api/health
        self.max_searches = max_searches  # a model writer's own searches per question; 0: it is given the passages
        self.store = store  # who sees which documents, which are unvouched uploads; None: every document, vouched
        self.relations = relations  # a passage argued with brings in its opponent; None: no relations
        self.languages = Languages(store) if store is not None else None  # what the library's texts are written in
        self.works = works or (lambda reader: catalog(*store.catalog_rows(reader)) if store is not None else [])

    @classmethod
    def load(cls, settings: Settings, library, embedder=None, stored=None) -> "Pipeline":
        """Build the pipeline over library from the settings (configuration/settings.py).

        embedder: for questions and the writers' checks; by default the library's own, with its kept sentence
        vectors (search/sentence_vectors.py). stored: the providers' keys and models an admin set, over the settings'.
        """
        from question.classifier import QueryClassifier  # torch is imported when a pipeline is built, not with the app

        embedder = embedder or library.embedder
        models, knobs, chosen = settings.models, settings.search, settings.writers
        reranker = Reranker.load(models.reranker_model) if models.reranker_model else None
        alpha_he = knobs.alpha_he if knobs.alpha_he is not None else embedder_settings(embedder.name).alpha_he
        if knobs.fusion not in FUSIONS:
            raise ValueError(f"FUSION={knobs.fusion!r} is not one of {', '.join(FUSIONS)}")
        search = RetrievalConfig(knobs.alpha, knobs.candidates, knobs.rerank_depth, knobs.top_k, float(alpha_he),
                                 knobs.community_boost, knobs.section_weight, knobs.fusion, knobs.rrf_k, knobs.asked_weight)
        classifier = QueryClassifier.load(Path(models.classifier_dir), runtime=models.runtime)
        judge = AnswerabilityJudge.load(Path(models.judge_dir), models.runtime) if models.judge_dir else None
        sentences = library.sentences if embedder is library.embedder else embedder
        writers = LiveWriters(chosen, {"offline": ExtractiveWriter(sentences, judge=judge)}, stored)
        default = chosen.generator or None  # None: the first provider there is (generator.PREFERENCE)
        if default and default not in writers:
            raise ValueError(f"GENERATOR={default!r} is not configured; available: {sorted(writers)} (set its API key)")
        verifier = Verifier(sentences, chosen.support_threshold)  # None: the embedder's own (search/embedders.py)
        info = {"classifier": {"path": str(models.classifier_dir), "encoder": classifier.encoder_name,
                               "runtime": getattr(getattr(classifier, "encoder", None), "runtime", "torch")},
                "embedder": embedder.name, "embedder_runtime": getattr(embedder, "runtime", "torch"),
                "reranker": reranker.name if reranker else None, "judge": judge.describe() if judge else None}
        return cls(classifier, Retriever(library, embedder, reranker, search),
                   Generator(writers, default, verifier=verifier, judge=judge), info, chosen.max_searches,
                   library.store, library.relations)

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
            "providers": {name: writer.status() for name, writer in sorted(self.generator.writers.items())},
            "languages": sorted(DECLINE),
        }

    def ask(self, question: str, **settings) -> Result:
        """Answer a question with cited evidence; settings are models.Ask's fields (top_k, provider, model, language,
        session_id, filters, turns, reader, mode)."""
        return self.answer(Ask(question, **{**settings, "turns": tuple(settings.get("turns", ()))}))

    def answer(self, ask: Ask) -> Result:
        """The (rewritten) question with its type, the passages with their scores, the checked answer, and timings;
        the writer is asked for its whole answer at once."""
        *_, (_, result) = self.stream(Ask(**{**vars(ask), "streaming": False}))
        return result

    def stream(self, ask: Ask) -> Iterator[tuple[str, object]]:
        """The answer as events: ("meta", Question), ("sources", Evidence), ("delta", text) while it is written,
        then ("answer", Result). Closing the generator stops the writer. With ask.streaming False the writer is
        asked for its whole answer at once (no deltas)."""
        work = self.begin(ask)
        name = ask.provider or self.generator.default
        writer = self.generator.writers[name]
        researching = bool(self.max_searches) and writer.uses_tools  # the writer searches for itself
        # a writer that searches reads the conversation itself: the rules' rewrite is enough for the classifier
        work.asked = self.understand(work, writer.complete if writer.completes and not researching else None)
        yield "meta", work.asked
        degraded = None
        if researching:
            try:
                toolbox, done = self.research(work, writer)
            except ProviderError as exc:  # the plain pipeline answers instead, offline
                log.warning("%s failed while searching (%s); answering with the plain pipeline", name, exc)
                degraded = f"{exc}; the library was searched for the question and the answer written offline"
                name = self.generator.fallback
            else:
                yield from self.researched(work, done, toolbox, name)
                return
        yield from self.plain(work, name, degraded)

    # the stages both paths share

    def begin(self, ask: Ask) -> Work:
        """A question's record on its way: what its reader may not see, and its catalog read when needed."""
        reader = ask.reader
        hidden = self.store.hidden_documents(reader) if self.store is not None and reader is not None else frozenset()
        return Work(ask, hidden, functools.cache(lambda: self.works(reader)), ask.filters)

    def understand(self, work: Work, complete: Callable | None) -> Question:
        """The question made standalone (a model's complete() rewrites a follow-up when given), its language
        and type."""
        ask = work.ask
        standalone, rewritten = rewrite(list(ask.turns), ask.question, complete)
        language = ask.language if ask.language and ask.language != "auto" else (detect_language(ask.question) or "en")
        query_type, confidence = self.classifier.classify(standalone)
        query_type = settled(standalone, query_type)  # a measure a rule sets is looked up, not computed
        work.lap("classify")
        return Question(ask.session_id or uuid.uuid4().hex, ask.question, standalone, rewritten, query_type,
                        round(confidence, 3), language)

    def search(self, work: Work, query: str, k: int, more: dict | None = None) -> list[Hit]:
        """One search within the question's filters (and more), none of the reader's hidden documents reached."""
        reader = work.ask.reader
        return self.retriever.search(query, k, QUERY_POLICIES[work.asked.query_type]["candidates"], work.stages,
                                     filters=within(work.filters, more), hidden=work.hidden,
                                     community=reader.community if reader is not None else None)

    def result(self, work: Work, evidence: Evidence, answer: Answer, halachic: bool) -> Result:
        """The answered question, with the generation's and the whole question's milliseconds."""
        work.lap("generate")
        work.timings["total"] = round((time.perf_counter() - work.started) * 1000, 2)
        return Result(work.asked, evidence, answer, {**work.timings, "stages": work.stages}, halachic, work.ask.mode)

    # the plain path

    def plain(self, work: Work, name: str, degraded: str | None) -> Iterator[tuple[str, object]]:
        """The pipeline's own search, shown, then the named writer's answer from its passages, checked."""
        work.restart()
        found = self.gather(work)
        work.lap("retrieve")
        evidence = found.evidence(self.retriever.reranker is not None)
        yield "sources", evidence
        work.restart()
        request = self.request(work, found, evidence)
        answer = None
        pieces = self.generator.stream(request, name) if work.ask.streaming else [self.generator.answer(request, name)]
        for piece in pieces:
            if isinstance(piece, Answer):
                answer = piece
            else:
                yield "delta", piece
        if degraded:
            answer.degraded = degraded
        self.say_language(work, answer)
        if answer.added:  # the second look's passages are shown after the others, as the search's results
            shown = len(evidence.hits)
            evidence.searches[0]["results"] += list(range(shown + 1, shown + len(answer.added) + 1))
            evidence.hits.extend(answer.added)
        yield "answer", self.result(work, evidence, answer, request.halachic)

    def say_language(self, work: Work, answer: Answer) -> None:
        """A decline to a question in a language no text of the library is in says so (checks/declines.py)."""
        if answer.declined and self.languages is not None:  # an answer needs no word on the languages
            in_other_languages(answer, work.ask.question, work.asked.language, self.languages)

    def gather(self, work: Work) -> Found:
        """The passages for the question: within the section it names, one search per subject of a two-subject
        question, else one to about rank 20 (the rest the offline writer's second look) and, for a reasoning or
        deep question, once more for the words its passages miss; with what relations bring, each gloss after its ruling."""
        ask, asked = work.ask, work.asked
        top_k = ask.top_k or QUERY_POLICIES[asked.query_type]["top_k"]
        if ask.mode == "deep":
            top_k = min(DEEP_MAX, 2 * top_k)
        if section_asked(ask.question) is not None and not (work.filters or {}).get("section"):  # "lesson 2 of it"
            scope = scope_of(ask.question, list(ask.turns), work.works())
            if scope and not (work.filters or {}).get("document_ids"):
                work.filters = {**(work.filters or {}), **scope}
        search = functools.partial(self.search, work)
        standalone, split, followup, reserve = asked.standalone_question, subjects(asked.standalone_question), None, []
        if split:  # two subjects: a search for each, their evidence kept apart for the writer
            hits, found = search_each(split, search, top_k, work.works)
        else:
            hits = search(standalone, max(top_k, SECOND_LOOK))
            hits, reserve = hits[:top_k], hits[top_k:]
            found = [(standalone, work.filters or {}, [h.chunk.id for h in hits], None)]
            if asked.query_type == "reasoning" or ask.mode == "deep":
                hits, followup = search_missing_words(standalone, hits, search)
                if followup:
                    found.append((followup["query"], work.filters or {}, [h.chunk.id for h in hits[len(found[0][2]):]],
                                  None))
        hits = self.related(work, hits, reserve)
        if self.store is not None and ask.reader is not None and not ask.reader.everything:
            hidden = self.store.hidden_documents(ask.reader)  # again: a document committed since the search began
            hits, reserve = [h for h in hits if h.chunk.doc_id not in hidden], [h for h in reserve if h.chunk.doc_id not in hidden]
        return Found(hits, reserve, found, split, followup)

    def related(self, work: Work, hits: list[Hit], reserve: list[Hit]) -> list[Hit]:
        """The hits with what their relations bring (the posek: every kind), each gloss after its ruling (search/related.py)."""
        reader, filters, hidden = work.ask.reader, work.filters, work.hidden
        if self.relations is not None:
            hits = with_related(hits, self.retriever.library.current(), self.relations, self.retriever.scope(filters, hidden),
                                RELATION_KINDS if work.ask.mode == "posek" else OPPOSING, reader.community if reader else None)
        return with_rulings(hits, lambda refs: joining(self.retriever.library.current(), refs,
                                                       self.retriever.scope(filters, hidden)), reserve)

    def request(self, work: Work, found: Found, evidence: Evidence) -> WriteRequest:
        """What the writer is given: the passages shown, those after them for a second look, the parts of a
        two-subject question, and which passages are unvouched uploads."""
        asked, hits = work.asked, found.hits
        parts = apart([(subject.label, subject.question, s["results"])
                       for (*_, subject), s in zip(found.searches, evidence.searches)]) if found.split else ()
        shown = {h.chunk.id for h in hits}
        reserve = tuple(h for h in found.reserve if h.chunk.id not in shown)
        return WriteRequest(asked.standalone_question, asked.query_type, hits, asked.language, work.ask.model,
                            is_halachic(asked.standalone_question, hits),
                            untrusted_passages([*hits, *reserve], self.store), parts, reserve)

    # the research path

    def research(self, work: Work, writer: Writer) -> tuple[Toolbox, Researched]:
        """The writer's own searches of the library (writers/research.py) and its draft; ProviderError when its
        provider fails."""
        work.restart()
        ask, asked = work.ask, work.asked
        top_k = ask.top_k or QUERY_POLICIES[asked.query_type]["top_k"]
        scope = self.retriever.scope
        toolbox = Toolbox(lambda query, more: self.search(work, query, top_k, more),
                          lambda ident: passage_hit(self.retriever.library.current(), ident, scope(work.filters, work.hidden)),
                          work.works, self.max_searches)
        done = research(writer, ask.question, list(ask.turns), toolbox, asked.language,
                        is_halachic(asked.standalone_question, []), ask.model)
        return toolbox, done

    def researched(self, work: Work, done: Researched, toolbox: Toolbox, name: str) -> Iterator[tuple[str, object]]:
        """The events of an answer the writer searched for itself: its evidence, then its draft checked (or, stopped
        at the bound, the answer written from the evidence found). A reply that searched nothing cites nothing and
        says it does not come from the library."""
        hits, asked = toolbox.hits, work.asked
        work.lap("retrieve")  # the writer's turns and its searches
        evidence = Evidence(hits, self.retriever.reranker is not None, None, toolbox.searches)
        yield "sources", evidence
        work.restart()
        request = WriteRequest(asked.standalone_question, asked.query_type, hits, asked.language, work.ask.model,
                               is_halachic(asked.standalone_question, hits), untrusted_passages(hits, self.store))
        answer = unsearched_reply(done, toolbox, asked.language, name)
        if answer is None and done.draft is not None:
            answer = self.generator.finish(done.draft, request, name)
        elif answer is None:  # stopped at the bound: written from what was found
            answer = self.generator.answer(request, name)
        yield "answer", self.result(work, evidence, answer, request.halachic)
