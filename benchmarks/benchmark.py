"""Speed and memory of every stage on synthetic corpora: the `flask --app app bench` command.

A corpus of n chunks of about 120 tokens with a Zipfian vocabulary is indexed with our BM25 and
with rank_bm25 side by side (same tokens, so the scores must agree), and with FAISS on random unit
vectors (the embedder's cost is measured on real queries, not on a million synthetic chunks).
Per stage it reports p50/p95 latency; for FAISS it compares flat search with HNSW and reports
HNSW's recall@10 against flat; for the cross-encoder it compares depth, sequence length, threads
and int8 weights on a MiniLM-sized model (the cost depends on the architecture, not the weights).
"""
import gc
import resource
import sys
import time

import faiss
import numpy as np
import torch

from measuring.metrics import percentile
from hebrew.words import tokenize
from search.bm25 import BM25

VOCAB = 50_000
MEAN_TOKENS = 120
QUERY_WORDS = (3, 9)


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic_corpus(n_docs: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(term ids of all chunks concatenated, chunk lengths): Zipf(1.1) words, Poisson(120) lengths."""
    rng = np.random.default_rng(seed)
    lengths = np.maximum(rng.poisson(MEAN_TOKENS, n_docs), 10).astype(np.int64)
    ranks = rng.zipf(1.1, int(lengths.sum()))
    return np.where(ranks <= VOCAB, ranks - 1, rng.integers(0, VOCAB, len(ranks))).astype(np.int64), lengths


def synthetic_queries(n: int, seed: int = 1) -> list[list[int]]:
    """Queries of 3-8 words, drawn like the corpus but skipping the 50 most common words."""
    rng = np.random.default_rng(seed)
    queries = []
    for _ in range(n):
        ranks = rng.zipf(1.1, rng.integers(*QUERY_WORDS))
        queries.append([int(50 + (r - 1) % (VOCAB - 50)) for r in ranks])
    return queries


def timed(fn, repeats: list) -> dict:
    """p50/p95 in ms of fn over the items of repeats, and the last result."""
    times, result = [], None
    for item in repeats:
        started = time.perf_counter()
        result = fn(item)
        times.append((time.perf_counter() - started) * 1000)
    return {"p50_ms": round(percentile(times, 50), 3), "p95_ms": round(percentile(times, 95), 3), "last": result}


def bench_bm25(term_ids, lengths, queries, compare: bool, log) -> dict:
    """Our BM25 against rank_bm25 on the same corpus: build time, query latency, speed-up, score difference."""
    vocab = {str(i): i for i in range(VOCAB)}
    started = time.perf_counter()
    ours = BM25.from_ids(term_ids, lengths, vocab)
    out = {"bm25_build_s": round(time.perf_counter() - started, 2)}
    search = timed(lambda q: np.argpartition(-ours.scores([str(t) for t in q]), 100)[:100], queries)
    out["bm25_p50_ms"], out["bm25_p95_ms"] = search["p50_ms"], search["p95_ms"]
    if not compare:
        return out
    from rank_bm25 import BM25Okapi

    log("  building rank_bm25 on the same tokens ...")
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    started = time.perf_counter()
    reference = BM25Okapi([term_ids[offsets[i]:offsets[i + 1]].tolist() for i in range(len(lengths))])
    out["rank_bm25_build_s"] = round(time.perf_counter() - started, 2)
    sample = queries[: max(5, min(len(queries), int(2e6 // len(lengths))))]  # rank_bm25 is slow: fewer queries
    theirs = timed(lambda q: reference.get_scores(q), sample)
    mine = timed(lambda q: ours.scores([str(t) for t in q]), sample)
    diff = max(float(np.abs(ours.scores([str(t) for t in q]) - reference.get_scores(q)).max()) for q in sample[:5])
    out.update({
        "rank_bm25_p50_ms": theirs["p50_ms"], "bm25_scores_p50_ms": mine["p50_ms"],
        "bm25_speedup_vs_rank_bm25": round(theirs["p50_ms"] / max(mine["p50_ms"], 1e-6), 1),
        "bm25_max_abs_diff": diff, "rank_bm25_queries": len(sample),
    })
    del reference
    gc.collect()
    return out


def bench_faiss(n_docs: int, dim: int, queries: int, log) -> dict:
    """Flat and HNSW search on random unit vectors; HNSW recall@10 against flat."""
    rng = np.random.default_rng(2)
    vectors = rng.standard_normal((n_docs, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    # queries near stored vectors, as real questions are near their passages
    picks = rng.integers(0, n_docs, queries)
    q = vectors[picks] + 0.5 * rng.standard_normal((queries, dim), dtype=np.float32) / np.sqrt(dim)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    flat = faiss.IndexFlatIP(dim)
    flat.add(vectors)
    exact = timed(lambda i: flat.search(q[i:i + 1], 200)[1], range(queries))
    truth = flat.search(q, 10)[1]
    log("  building HNSW ...")
    started = time.perf_counter()
    hnsw = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = 80
    hnsw.add(vectors)
    build = time.perf_counter() - started
    hnsw.hnsw.efSearch = 128
    approx = timed(lambda i: hnsw.search(q[i:i + 1], 200)[1], range(queries))
    found = hnsw.search(q, 10)[1]
    recall = np.mean([len(set(found[i]) & set(truth[i])) / 10 for i in range(queries)])
    return {
        "faiss_flat_p50_ms": exact["p50_ms"], "faiss_flat_p95_ms": exact["p95_ms"],
        "faiss_hnsw_p50_ms": approx["p50_ms"], "faiss_hnsw_p95_ms": approx["p95_ms"],
        "faiss_hnsw_build_s": round(build, 1), "faiss_hnsw_recall@10": round(float(recall), 4),
    }


def bench_rerank(model_path: str, log) -> dict:
    """Cross-encoder latency for 32 or 16 pairs at 256 or 128 tokens, 1 or 2 threads, fp32 or int8."""
    from sentence_transformers import CrossEncoder

    query = "what causes the seasons on earth and why are they reversed in the southern hemisphere"
    passage = " ".join(["the axial tilt of the earth changes how directly sunlight falls on each hemisphere"] * 20)
    results = {}
    threads_before = torch.get_num_threads()
    for precision in ("fp32", "int8"):
        model = CrossEncoder(model_path, num_labels=1, device="cpu")
        if precision == "int8":
            torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
        for max_length in (256, 128):
            model.max_length = max_length
            for threads in (1, 2):
                torch.set_num_threads(threads)
                for depth in (32, 16):
                    pairs = [(query, passage)] * depth
                    model.predict(pairs[:2], show_progress_bar=False)  # warm up
                    run = timed(lambda _: model.predict(pairs, batch_size=32, show_progress_bar=False), range(3))
                    key = f"rerank_{precision}_len{max_length}_threads{threads}_depth{depth}_ms"
                    results[key] = run["p50_ms"]
                    log(f"  {key}: {run['p50_ms']:.0f}")
    torch.set_num_threads(threads_before)
    return results


def bench_query_stages(embedder, writer, log, judged=None) -> dict:
    """Tokenize and embed real questions, and the offline writer on real-sized passages: without the answerability
    judge (as before it) and, when given, with it (judged: an ExtractiveWriter that has one), also with fifteen more
    passages for the second look that a question its five passages do not answer takes."""
    from models import Chunk, Hit, WriteRequest

    questions = ["Who discovered penicillin?", "How does photosynthesis work in desert plants?",
                 "Why did the Western Roman Empire fall?", "How many years passed between 1492 and 1776?"] * 5
    tok = timed(tokenize, questions)
    emb = timed(lambda q: embedder.embed_queries([q]), questions)
    sentences = ["Penicillin was discovered in {j}928 by Alexander Fleming in laboratory {i}.",
                 "It was the first antibiotic used in hospital {i} against infection number {j}.",
                 "Mass production began during the Second World War in factory {i}{j}."]
    hits = []
    for i in range(20):  # passages of about 1,000 characters, every sentence distinct, as retrieval gives them
        text = " ".join(s.format(i=i, j=j) for j in range(1, 5) for s in sentences)
        hits.append(Hit(Chunk(f"c{i}", f"d{i}", f"Title {i}", text, 0, len(text)), 1.0, 0.5, 0.5))
    hits, reserve = hits[:5], tuple(hits[5:])  # five shown, fifteen for a second look
    figures = {"tokenize_p50_ms": tok["p50_ms"], "tokenize_p95_ms": tok["p95_ms"],
               "embed_query_p50_ms": emb["p50_ms"], "embed_query_p95_ms": emb["p95_ms"]}
    for name, offline in (("generate_offline", writer), ("generate_offline_judged", judged)):
        if offline is not None:
            offline.write(WriteRequest(questions[0], "explanation", hits))  # warm-up
            gen = timed(lambda q: offline.write(WriteRequest(q, "explanation", hits)), questions[:12])
            figures.update({f"{name}_p50_ms": gen["p50_ms"], f"{name}_p95_ms": gen["p95_ms"]})
    if judged is not None:
        figures["judge_added_p50_ms"] = round(figures["generate_offline_judged_p50_ms"] - figures["generate_offline_p50_ms"], 2)
        # the whole answer with fifteen more passages to look at when the five shown hold no answer
        gen = timed(lambda q: judged.write(WriteRequest(q, "explanation", hits, reserve=reserve)), questions[:12])
        figures.update({"generate_offline_second_look_p50_ms": gen["p50_ms"],
                        "generate_offline_second_look_p95_ms": gen["p95_ms"]})
    return figures


def bench_size(n_docs: int, embedder, queries: int, compare: bool, log) -> dict:
    """Every per-corpus figure at one size."""
    log(f"size {n_docs:,}: generating the corpus ...")
    term_ids, lengths = synthetic_corpus(n_docs)
    qs = synthetic_queries(queries)
    out = {"chunks": n_docs, "mean_tokens": round(float(lengths.mean()), 1)}
    out.update(bench_bm25(term_ids, lengths, qs, compare, log))
    del term_ids
    gc.collect()
    out.update(bench_faiss(n_docs, embedder.dim, queries, log))
    # fusion over the union of two candidate lists of 200, as retrieval.py does it
    from retrieval import fuse

    rng = np.random.default_rng(3)
    fusion = timed(lambda _: fuse(rng.random(400), rng.random(400) * 20, 20.0, 0.6).argsort()[::-1][:32], range(50))
    out["fusion_p50_ms"] = fusion["p50_ms"]
    out["retrieval_p50_ms_estimate"] = round(out["bm25_p50_ms"] + out["faiss_flat_p50_ms"] + out["fusion_p50_ms"], 2)
    out["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return out


def run(sizes: list[int], embedder, writer, reranker_base: str, queries: int = 50, compare: bool = True,
        log=lambda m: print(m, file=sys.stderr), judged=None) -> dict:
    """Every figure, for printing as one JSON object."""
    report = {"machine": {"cores": torch.get_num_threads(), "torch_threads": torch.get_num_threads()}}
    report["query_stages"] = bench_query_stages(embedder, writer, log, judged)
    report["rerank"] = bench_rerank(reranker_base, log)
    report["sizes"] = {str(n): bench_size(n, embedder, queries, compare, log) for n in sizes}
    report["peak_rss_mb"] = round(peak_rss_mb(), 1)
    return report


def _worker_rss(n_docs: int, embedding_model: str, classifier_dir: str, queue) -> None:
    """In a fresh process: load what a worker holds (models, n_docs chunks, BM25, flat FAISS); report RSS."""
    from models import Chunk
    from question.classifier import QueryClassifier
    from search.embedding import Embedder

    embedder = Embedder.load(embedding_model)
    classifier = QueryClassifier.load(classifier_dir)
    term_ids, lengths = synthetic_corpus(n_docs)
    bm25 = BM25.from_ids(term_ids, lengths, {str(i): i for i in range(VOCAB)})
    del term_ids
    text = "x" * 600  # the mean chunk length of the default library is about 480 characters
    chunks = [Chunk(f"d{i}#0", f"d{i}", f"Title {i}", text[: 300 + i % 600], 0, 600) for i in range(n_docs)]
    index = faiss.IndexFlatIP(embedder.dim)
    index.add(np.random.default_rng(0).standard_normal((n_docs, embedder.dim), dtype=np.float32))
    embedder.embed(["warm up the embedder"]), classifier.classify("warm up?")
    gc.collect()
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    queue.put({"chunks": len(chunks), "bm25_terms": len(bm25.vocab), "faiss": index.ntotal, "rss_mb": round(rss / 1024, 1)})


def worker_memory(n_docs: int, embedding_model: str, classifier_dir: str) -> dict:
    """Resident memory of one worker with the models and an n_docs-chunk index, measured in a clean process."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_worker_rss, args=(n_docs, embedding_model, classifier_dir, queue))
    process.start()
    result = queue.get(timeout=900)
    process.join()
    return result
