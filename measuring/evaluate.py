"""Evaluation on a BEIR-layout folder: retrieval metrics per mode and, optionally, answer quality.

A document split into several chunks counts as retrieved at the rank of its best chunk. `--unanswerable`
leaves each query's gold documents out of retrieval (they stay in the BM25 statistics, a negligible
difference) and measures how often the answerer declines, as an honest one should.
The libraries and the retriever they are searched with come from libraries.py, the sets from datasets.py.
"""
import hashlib
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from measuring.datasets import (
    doc_ranking,
    in_judge_split,
    is_beir_corpus,
    judged_id,
    names_refs,
    read_qrels,
    read_queries,
    sample,
)
from measuring.libraries import (
    NoVectors,
    cached_library,
    eval_pipeline,
    in_postgres,
    ingested_library,
)
from measuring.metrics import (
    contains_gold,
    f1_score,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    recall_at_k,
)
from checks.splitting import whole_sentences
from hebrew import analyzer
from hebrew.glossary import LEARNED
from ingest.corpus import read_corpus
from ingest.questions import seif_questions
from postgres.backend import uses_postgres
from search import library
from search.embedders import revision_of
from search.embedding import Embedder

MARKER = re.compile(r"\[(\d+)\]")  # a citation's [n] in an answer
DEPTH = 100  # documents ranked per query: enough for recall@100


def evaluate_retrieval(retriever, queries: list[dict], qrels: dict, mode: str | None,
                       ranks: dict | None = None) -> dict:
    """nDCG@10, recall@5/10/100, MRR@10 and latency of the retriever in mode; for qrels naming refs
    ("Shulchan Arukh, Orach Chayim 318:1"), also how often a seif of a right siman is in the top 10. ranks, when
    given, gets each query's best rank of a gold document (1 is first; None beyond DEPTH)."""
    totals = {"ndcg@10": 0.0, "recall@5": 0.0, "recall@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0}
    latencies = []
    chunks_needed = 2 * DEPTH  # a document may have several chunks among the best
    for query in tqdm(queries, desc=f"retrieval ({mode or 'default'})", file=sys.stderr):
        started = time.perf_counter()
        hits = retriever.search(query["text"], top_k=chunks_needed, candidates=max(chunks_needed, retriever.config.candidates), mode=mode)
        latencies.append((time.perf_counter() - started) * 1000)
        ranking, judged = doc_ranking(hits)[:DEPTH], qrels[query["id"]]
        if ranks is not None:
            ranks[query["id"]] = next((k for k, d in enumerate(ranking, start=1) if judged.get(d, 0) > 0), None)
        if names_refs(judged):  # qrels naming refs: is the right section (a siman) in the top 10 at all?
            sections = {d.rsplit(":", 1)[0] for d, g in judged.items() if g > 0}
            totals["section_hit@10"] = totals.get("section_hit@10", 0.0) + any(
                d.rsplit(":", 1)[0] in sections for d in ranking[:10])
        totals["ndcg@10"] += ndcg_at_k(ranking, judged, 10)
        totals["mrr@10"] += mrr_at_k(ranking, judged, 10)
        for k in (5, 10, 100):
            totals[f"recall@{k}"] += recall_at_k(ranking, judged, k)
    n = max(1, len(queries))
    return {
        **{name: round(value / n, 4) for name, value in totals.items()},
        "latency_ms_p50": round(percentile(latencies, 50), 2),
        "latency_ms_p95": round(percentile(latencies, 95), 2),
    }


def evaluate_answers(pipeline, queries: list[dict], qrels: dict, unanswerable: bool) -> dict:
    """Answer quality of the whole pipeline; with unanswerable, gold documents are left out of retrieval.

    pipeline.retriever must be an EvalRetriever (libraries.py), which can leave documents out.
    """
    answered = contains = f1 = hits_gold = first = quoting = 0.0
    valid = given = 0
    retriever = pipeline.retriever
    for query in tqdm(queries, desc="answers" + (" (gold removed)" if unanswerable else ""), file=sys.stderr):
        gold_docs = frozenset(d for d, g in qrels[query["id"]].items() if g > 0)
        with retriever.excluding(gold_docs if unanswerable else frozenset()):
            result = pipeline.ask(query["text"])
        answer = result.answer
        valid += len(answer.citations)
        given += len(answer.citations) + len(answer.invalid_citations)
        if answer.declined:  # "the sources do not answer", then what they do say: is the answer in it?
            quoting += bool(query["answers"]) and not unanswerable and contains_gold(answer.text, query["answers"])
            continue
        answered += 1
        passages = {h.chunk.id: judged_id(h.chunk.doc_id, h.chunk.ref) for h in result.evidence.hits}
        hits_gold += any(passages[c.passage_id] in gold_docs for c in answer.citations)
        if query["answers"]:
            contains += contains_gold(answer.text, query["answers"])
            first += contains_gold(first_sentence(answer.text), query["answers"])
            f1 += f1_score(answer.text, query["answers"])
        elif names_refs(gold_docs):  # a seif's question (qrels naming refs): the gold is its seif, cited
            cited = {c.n: passages[c.passage_id] for c in answer.citations}
            contains += any(d in gold_docs for d in cited.values())
            first += any(cited.get(int(n)) in gold_docs for n in MARKER.findall(first_sentence(answer.text)))
    n = max(1, len(queries))
    prefix = "unanswerable_" if unanswerable else ""
    metrics = {
        f"{prefix}abstain_rate": round(1 - answered / n, 4),
        f"{prefix}answered_rate": round(answered / n, 4),
        f"{prefix}citation_valid": round(valid / given, 4) if given else 1.0,
    }
    if not unanswerable:
        metrics.update({
            "answer_contains_gold": round(contains / n, 4),
            "answered_fact_first": round(first / n, 4),  # answered, the gold in the answer's first sentence
            "answer_f1": round(f1 / n, 4),
            "citation_hits_gold": round(hits_gold / max(1, answered), 4),
            "declined_quoting_gold": round(quoting / n, 4),  # declined, though what it quotes holds the answer
        })
    return metrics


def evaluate_declines(pipeline, queries: list[dict]) -> dict:
    """How often the pipeline declines questions whose answer the library does not hold (marked unanswerable)."""
    declined = sum(pipeline.ask(q["text"]).answer.declined
                   for q in tqdm(queries, desc="answers (not in the library)", file=sys.stderr))
    return {"unanswerable_questions": len(queries), "declined_rate": round(declined / max(1, len(queries)), 4)}


def first_sentence(text: str) -> str:
    """An answer's first sentence, where the question's fact should stand (issue 45: the fact first)."""
    sentences = whole_sentences(text.strip())
    return sentences[0] if sentences else text


def learned_glossary() -> str | None:
    """The learned glossary the questions were expanded with (hebrew/glossary.py): its hash's start, or None."""
    return hashlib.sha256(LEARNED.read_bytes()).hexdigest()[:12] if LEARNED.exists() else None


def evaluate_set(settings, folder: Path, mode=None, limit=None, seed=0, split="test", answers=False,
                 unanswerable=False, cache=Path("data/cache/eval"), corpus=None, library_dir=None, plain=False,
                 text_field=None, judge_split=None, community_boost=None, community=None, half=None,
                 questions=None, no_questions=False, asked_weight=None, found_within=None) -> dict:
    """What `flask --app app eval` prints: retrieval figures, and answer figures when asked (see the command's help).

    How often the answer-or-decline judgement is right is balanced accuracy: the mean of the share answered with
    the gold present and the share declined without it (the gold removed, or questions marked unanswerable).
    community_boost overrides COMMUNITY_BOOST (None: the settings'); community is the reader's every search is for.
    A book is searched with the questions written beside it (questions; by default ingest/questions.seif_questions)
    unless no_questions; asked_weight overrides ASKED_WEIGHT. found_within: answers are scored only for the questions whose
    gold search ranks within this top K (found_within_questions says how many). A seif's question (qrels naming refs,
    no answer strings) holds its gold when the answer cites its seif, the fact first when its first sentence does.
    """
    if community_boost is not None:
        settings = replace(settings, search=replace(settings.search, community_boost=community_boost))
    if asked_weight is not None:
        settings = replace(settings, search=replace(settings.search, asked_weight=asked_weight))
    corpus = corpus or folder / "corpus.jsonl"
    if not library_dir and not corpus.exists():
        raise ValueError(f"{folder}/ has no corpus.jsonl; name the corpus its qrels refer to with --corpus PATH")
    book = not library_dir and not is_beir_corpus(corpus)
    if found_within is not None and found_within < 1:
        raise ValueError("--found-within takes a rank of 1 or more (5: the questions whose gold is in the top 5)")
    queries, qrels = read_queries(folder, text_field), read_qrels(folder, split)
    if judge_split:
        queries = in_judge_split(queries, qrels, corpus, judge_split)
    if half:
        queries = [q for q in queries if q["half"] == half]
        if not queries:
            raise ValueError(f"{folder.name} marks no question of the {half!r} half; --half needs a set that has halves")
    queries = sample(queries, qrels, limit, seed)
    answerable, not_held = [q for q in queries if q["answerable"]], [q for q in queries if not q["answerable"]]
    embedder = Embedder.load(settings.models.embedding_model, settings.models.runtime)
    bm25_only = mode == "bm25" and not (answers or unanswerable)  # nothing reads the vectors: embed nothing
    indexed_with = NoVectors(embedder.dim) if bm25_only else embedder
    if library_dir:
        searched = library.load(library_dir, embedder)
    elif book:
        questions = None if no_questions else questions or seif_questions()
        searched = ingested_library(corpus, indexed_with, cache, questions)
        questions = questions if searched.current().asked is not None else None  # none names this book's passages
    else:
        searched = cached_library(read_corpus(corpus), indexed_with, settings.library.max_chars,
                                  settings.library.overlap_chars, cache)
    if uses_postgres(settings):
        if plain:
            raise ValueError("--plain measures the embedded baseline; unset DATABASE_URL to run it")
        searched = in_postgres(settings, searched)
    pipeline = eval_pipeline(settings, searched, embedder, plain)
    pipeline.retriever.community = community
    ranks = {}
    result = {"queries": len(answerable), **evaluate_retrieval(pipeline.retriever, answerable, qrels, mode, ranks)}
    if found_within:
        answerable = [q for q in answerable if ranks[q["id"]] is not None and ranks[q["id"]] <= found_within]
        result["found_within_questions"] = len(answerable)
    if answers or unanswerable:
        result.update(evaluate_answers(pipeline, answerable, qrels, unanswerable=False))
    if unanswerable:
        result.update(evaluate_answers(pipeline, answerable, qrels, unanswerable=True))
        result["answer_or_decline_balanced_accuracy"] = round(
            (result["answered_rate"] + result["unanswerable_abstain_rate"]) / 2, 4)
        result["balanced_accuracy_fact_first"] = round(
            (result["answered_fact_first"] + result["unanswerable_abstain_rate"]) / 2, 4)
    if (answers or unanswerable) and not_held:
        result.update(evaluate_declines(pipeline, not_held))
        result["decline_balanced_accuracy"] = round((result["answered_rate"] + result["declined_rate"]) / 2, 4)
        result["decline_balanced_accuracy_fact_first"] = round(
            (result["answered_fact_first"] + result["declined_rate"]) / 2, 4)
    result["config"] = {
        "dataset": folder.name, "corpus": str(library_dir or corpus), "split": split, "text_field": text_field,
        "mode": mode or ("rerank" if pipeline.retriever.reranker else "hybrid"), "limit": limit, "seed": seed,
        "judge_split": judge_split, "half": half, "found_within": found_within,
        "embedding_model": settings.models.embedding_model,
        "embedding_revision": revision_of(embedder), "learned_glossary": learned_glossary(),
        "reranker": settings.models.reranker_model or None, "alpha": settings.search.alpha,
        "alpha_he": pipeline.retriever.config.alpha_he, "candidates": settings.search.candidates,
        "community_boost": pipeline.retriever.config.community_boost, "community": community,
        "section_weight": pipeline.retriever.config.section_weight, "fusion": pipeline.retriever.config.fusion,
        "questions": str(questions) if book and questions else None,
        "asked_weight": pipeline.retriever.config.asked_weight if book and questions else None,
        "rerank_depth": settings.search.rerank_depth, "max_chars": settings.library.max_chars,
        "overlap": settings.library.overlap_chars,
        "generator": pipeline.generator.default if answers or unanswerable else None,
        "judge": settings.models.judge_dir or None, "backend": "postgres" if uses_postgres(settings) else "embedded",
        "analyzer": "plain (hebrew.words.tokenize, no glossary)" if plain else analyzer.version(),
    }
    return result
