"""Evaluation on a BEIR-layout folder: retrieval metrics per mode and, optionally, answer quality.

The folder's corpus (or another folder's, for a set of queries written against it) is indexed with the
configured embedder and chunking into a cache keyed by corpus hash plus configuration, so a second run
starts at once; BM25-only runs embed nothing. A document split into several chunks counts as retrieved
at the rank of its best chunk. Queries written against a book (the Shulchan Arukh's jsonl, say) are run
against the library a user gets by ingesting that file, and their qrels name refs: a passage counts as
its ref, a gloss ("..., Rema") as the seif it glosses. `--unanswerable` leaves each query's gold
documents out of retrieval (they stay in the BM25 statistics, a negligible difference) and measures how
often the answerer declines, as an honest one should.
"""
import hashlib
import json
import logging
import random
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from evaluation.metrics import contains_gold, f1_score, mrr_at_k, ndcg_at_k, percentile, recall_at_k
from ingest import corpus
from search import library

log = logging.getLogger(__name__)

DEPTH = 100  # documents ranked per query: enough for recall@100


def read_queries(folder: Path, text_field: str | None = None) -> list[dict]:
    """Queries of queries.jsonl as {"id", "text", "answers"}; with text_field, each asked as its metadata[text_field]
    instead (halacha-he's questions in English: "en"), and those without one left out."""
    queries = []
    with open(folder / "queries.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                metadata = row.get("metadata") or {}
                text = metadata.get(text_field) if text_field else row["text"]
                if isinstance(text, str) and text.strip():
                    queries.append({"id": str(row["_id"]), "text": text, "answers": metadata.get("answers", [])})
    return queries


def read_qrels(folder: Path, split: str = "test") -> dict[str, dict[str, int]]:
    """query id -> {document id: relevance} from qrels/<split>.tsv (header line first)."""
    path = folder / "qrels" / f"{split}.tsv"
    if not path.exists():
        raise FileNotFoundError(f"{path} not found; choose a split that {folder}/qrels/ has with --split")
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            query, doc, score = line.split("\t")
            qrels.setdefault(query, {})[doc] = int(score)
    return qrels


class NoVectors:
    """The embedder of a library evaluated with BM25 alone: every passage gets a zero vector, nothing is embedded.

    Its name keys a cache of its own, so such a library is never opened for dense search.
    """

    name = "none (bm25 only)"

    def __init__(self, dim: int):
        self.dim = dim

    def embed(self, texts: list[str], batch_size: int = 32, progress: bool = False) -> np.ndarray:
        """Zero vectors, one per text."""
        return np.zeros((len(texts), self.dim), dtype=np.float32)

    embed_queries = embed


def cached_library(docs, embedder, max_chars: int, overlap: int, cache_root: Path):
    """The library of docs, built once per corpus and configuration."""
    key = json.dumps([corpus.content_hash(docs), embedder.name, max_chars, overlap, library.FORMAT_VERSION])
    folder = cache_root / hashlib.sha256(key.encode()).hexdigest()[:16]
    try:
        return library.load(folder, embedder)
    except library.LibraryError:
        what = "BM25 only" if isinstance(embedder, NoVectors) else f"embedded with {embedder.name}"
        print(f"indexing {len(docs):,} documents ({what}) into {folder}/ (cached for next time)", file=sys.stderr)
        return corpus.build(docs, embedder, folder, max_chars, overlap, progress=True)


def ingested_library(path: Path, embedder, cache_root: Path):
    """The library of the one book at path as `flask ingest` builds it, cached by its passages and the embedder."""
    from ingest.jobs import Ingestor
    from ingest.parsers import Limits, parse_file
    from ingest.structure import split

    parsed = parse_file(path, path.name, Limits())
    pieces = [(p.ref, p.text, p.section_path) for p in split(parsed.text, parsed.title or path.stem, parsed.units, parsed.section_names)]
    key = json.dumps([pieces, embedder.name, library.FORMAT_VERSION], ensure_ascii=False)
    folder = cache_root / ("book-" + hashlib.sha256(key.encode()).hexdigest()[:16])
    try:
        return library.load(folder, embedder)
    except library.LibraryError:
        print(f"ingesting {path} ({len(pieces):,} passages, {embedder.name}) into {folder}/ (cached for next time)", file=sys.stderr)
        book = library.Library.open(folder, embedder, create=True)
        ingestor = Ingestor(book)
        ingestor.run(*ingestor.claim(ingestor.submit_file(path, path.name, {}).id))
        return book


def plain_baseline(retriever) -> None:
    """Make retriever the baseline the analyzer is measured against: BM25 over plain words (bm25.tokenize) of what
    the library indexes, questions as plain words without the glossary, and embedded as asked."""
    from dataclasses import replace

    from hebrew.words import tokenize
    from search.bm25 import BM25

    view = retriever.library.current()
    retriever.library = replace(view, bm25=BM25.index([tokenize(c.passage_text) for c in view.chunks]))
    retriever.config = replace(retriever.config, plain=True)


def is_beir_corpus(path: Path) -> bool:
    """Whether path is a BEIR corpus.jsonl (records with "_id" and "text"), not a book to ingest."""
    with open(path, encoding="utf-8") as lines:
        first = next((line for line in lines if line.strip()), "{}")
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        return False
    return path.suffix == ".jsonl" and isinstance(record, dict) and {"_id", "text"} <= record.keys()


def judged_id(doc_id: str, ref: str | None) -> str:
    """What qrels name a passage by: its document, or in an ingested book its ref (a gloss by its seif's)."""
    return ref.removesuffix(", Rema") if ref else doc_id


def doc_ranking(hits) -> list[str]:
    """Judged ids in the order of their best chunk."""
    seen: dict[str, None] = {}
    for hit in hits:
        seen.setdefault(judged_id(hit.chunk.doc_id, hit.chunk.ref), None)
    return list(seen)


def sample(queries: list[dict], qrels: dict, limit: int | None, seed: int) -> list[dict]:
    """The judged queries, or a seeded random sample of limit of them."""
    judged = [q for q in queries if any(g > 0 for g in qrels.get(q["id"], {}).values())]
    if limit and limit < len(judged):
        judged = random.Random(seed).sample(judged, limit)
    return judged


def evaluate_retrieval(retriever, queries: list[dict], qrels: dict, mode: str | None) -> dict:
    """nDCG@10, recall@5/10/100, MRR@10 and latency of the retriever in mode; for qrels naming refs
    ("Shulchan Arukh, Orach Chayim 318:1"), also how often a seif of a right siman is in the top 10."""
    totals = {"ndcg@10": 0.0, "recall@5": 0.0, "recall@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0}
    latencies = []
    chunks_needed = 2 * DEPTH  # a document may have several chunks among the best
    for query in tqdm(queries, desc=f"retrieval ({mode or 'default'})", file=sys.stderr):
        started = time.perf_counter()
        hits = retriever.search(query["text"], top_k=chunks_needed, candidates=max(chunks_needed, retriever.config.candidates), mode=mode)
        latencies.append((time.perf_counter() - started) * 1000)
        ranking, judged = doc_ranking(hits)[:DEPTH], qrels[query["id"]]
        if all(":" in d for d in judged):  # qrels naming refs: is the right section (a siman) in the top 10 at all?
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
    """Answer quality of the whole pipeline; with unanswerable, gold documents are left out of retrieval."""
    answered = contains = f1 = hits_gold = 0.0
    valid = given = 0
    for query in tqdm(queries, desc="answers" + (" (gold removed)" if unanswerable else ""), file=sys.stderr):
        gold_docs = frozenset(d for d, g in qrels[query["id"]].items() if g > 0)
        result = pipeline.ask(query["text"], exclude_docs=gold_docs if unanswerable else frozenset())
        valid += len(result["citations"])
        given += len(result["citations"]) + len(result["invalid_citations"])
        if result["declined"]:
            continue
        answered += 1
        contains += contains_gold(result["answer"], query["answers"]) if query["answers"] else 0
        f1 += f1_score(result["answer"], query["answers"]) if query["answers"] else 0
        passages = {p["id"]: judged_id(p["doc_id"], p["ref"]) for p in result["passages"]}
        hits_gold += any(passages[c["passage_id"]] in gold_docs for c in result["citations"])
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
            "answer_f1": round(f1 / n, 4),
            "citation_hits_gold": round(hits_gold / max(1, answered), 4),
        })
    return metrics


def corpus_bm25(folder: Path):
    """A BEIR folder's corpus with BM25 over each document's title and text: (docs, texts, bm25, index by id)."""
    from hebrew.analyzer import analyze
    from search.bm25 import BM25

    docs = corpus.read_corpus(folder / "corpus.jsonl")
    texts = [f"{d.title}\n{d.text}" for d in docs]
    return docs, texts, BM25.index([analyze(t) for t in texts]), {d.id: i for i, d in enumerate(docs)}


def hard_negatives(bm25, question: str, gold: set[int], n: int) -> list[int]:
    """The n documents BM25 ranks highest for question that are not gold."""
    from hebrew.analyzer import analyze_query

    ranked = (int(i) for i in np.argsort(-bm25.scores_any(analyze_query(question))))
    return [i for i, _ in zip((i for i in ranked if i not in gold), range(n))]


def calibrate_support(verifier, folder: Path, limit: int, seed: int = 0) -> dict:
    """The support threshold that best separates claims their passage supports from claims it does not.

    A claim is a question joined to its gold answer ("Who discovered penicillin? Alexander Fleming"): a
    paraphrase of a fact, as a model writes one. Its gold paragraph supports it; the paragraph BM25 ranks
    highest among the others (usually a sibling paragraph of the same article) does not.
    """
    docs, _, bm25, index_of = corpus_bm25(folder)
    qrels = read_qrels(folder)
    queries = sample([q for q in read_queries(folder) if q["answers"]], qrels, limit, seed)
    positive, negative = [], []
    for query in tqdm(queries, desc="support calibration", file=sys.stderr):
        gold = {index_of[d] for d, g in qrels[query["id"]].items() if g > 0 and d in index_of}
        if not gold:
            continue
        claim = f"{query['text'].rstrip('?')}: {query['answers'][0]}."
        [other] = hard_negatives(bm25, query["text"], gold, 1)
        positive.append(float(verifier.support([claim], docs[min(gold)].text)[0]))
        negative.append(float(verifier.support([claim], docs[other].text)[0]))
    pos, neg = np.array(positive), np.array(negative)
    candidates = np.round(np.arange(0.20, 0.95, 0.01), 2)
    balanced = [((pos >= t).mean() + (neg < t).mean()) / 2 for t in candidates]
    best = int(np.argmax(balanced))
    return {"claims": len(pos), "threshold": float(candidates[best]), "balanced_accuracy": round(balanced[best], 4),
            "supported_kept": round(float((pos >= candidates[best]).mean()), 4),
            "unsupported_removed": round(float((neg < candidates[best]).mean()), 4),
            "support_mean_gold": round(float(pos.mean()), 4), "support_mean_other": round(float(neg.mean()), 4)}


def calibrate_decline(pipeline, folder: Path, limit: int, seed: int = 0) -> dict:
    """The offline writer's decline thresholds that best tell questions whose gold passage was retrieved from the
    same questions asked with their gold documents left out (which it should decline).

    Each question is retrieved twice; the writer's best sentence cosine and best combined score are kept for
    both, and every pair of thresholds on a grid is scored by balanced accuracy (answered with the gold present,
    declined without it). Only questions whose gold passage is retrieved count as answerable.
    """
    writer, retriever = pipeline.generator.writers["offline"], pipeline.retriever
    qrels = read_qrels(folder)
    queries = sample(read_queries(folder), qrels, limit, seed)
    best = {True: [], False: []}  # gold retrieved -> [(best cosine, best score)]; False: gold left out
    for query in tqdm(queries, desc="decline calibration", file=sys.stderr):
        gold = frozenset(d for d, g in qrels[query["id"]].items() if g > 0)
        for answerable in (True, False):
            hits = retriever.search(query["text"], exclude_docs=frozenset() if answerable else gold)
            if answerable and not any(judged_id(h.chunk.doc_id, h.chunk.ref) in gold for h in hits):
                break  # retrieval missed: neither outcome says anything about the writer
            _, similarity, score = writer.scores(query["text"], "factual_lookup", hits)
            best[answerable].append((similarity.max(initial=0.0), score.max(initial=0.0)))
    pos, neg = np.array(best[True]), np.array(best[False])

    def rates(min_similarity: float, min_score: float) -> tuple[float, float]:
        """(share answered with the gold present, share declined without it) at these thresholds."""
        return (float(((pos[:, 0] >= min_similarity) & (pos[:, 1] >= min_score)).mean()),
                float(((neg[:, 0] < min_similarity) | (neg[:, 1] < min_score)).mean()))

    grid = np.round(np.arange(0.20, 0.96, 0.01), 2)
    s, t = max(((s, t) for s in grid for t in grid), key=lambda pair: sum(rates(*pair)))
    (answered, declined), current = rates(s, t), (writer.min_similarity, writer.min_score)
    return {"questions": len(pos), "min_similarity": float(s), "min_score": float(t),
            "balanced_accuracy": round((answered + declined) / 2, 4), "answered_with_gold": round(answered, 4),
            "declined_without_gold": round(declined, 4), "current": list(current),
            "current_balanced_accuracy": round(sum(rates(*current)) / 2, 4),
            "mean_best_score_gold": round(float(pos[:, 1].mean()), 4), "mean_best_score_without": round(float(neg[:, 1].mean()), 4)}
