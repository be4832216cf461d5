"""The benchmark's building blocks on small sizes (figures are printed by `flask --app app bench`, not asserted)."""
import numpy as np

from benchmarks import benchmark


def test_synthetic_corpus_has_realistic_lengths_and_a_zipfian_vocabulary():
    term_ids, lengths = benchmark.synthetic_corpus(2000)
    assert len(lengths) == 2000 and lengths.sum() == len(term_ids)
    assert 115 < lengths.mean() < 125 and term_ids.max() < benchmark.VOCAB
    counts = np.bincount(term_ids)
    assert counts[0] > 10 * counts[100] > 0  # a few words are very common, most are rare


def test_bm25_side_by_side_with_rank_bm25_agrees():
    term_ids, lengths = benchmark.synthetic_corpus(1500)
    out = benchmark.bench_bm25(term_ids, lengths, benchmark.synthetic_queries(8), compare=True, log=lambda m: None)
    assert out["bm25_max_abs_diff"] < 1e-9
    assert out["bm25_speedup_vs_rank_bm25"] > 1
    assert out["rank_bm25_queries"] == 8


def test_faiss_hnsw_recall_is_measured_against_flat():
    out = benchmark.bench_faiss(3000, 32, 20, log=lambda m: None)
    assert 0.9 <= out["faiss_hnsw_recall@10"] <= 1.0
    assert out["faiss_flat_p95_ms"] >= out["faiss_flat_p50_ms"] > 0


def test_ingest_benchmark_parses_and_ingests_a_real_pdf():
    from conftest import FakeEmbedder
    from benchmarks.bench_ingest import bench_ingest, bench_pdf

    parse = bench_pdf(pages=3)
    assert parse["pages"] == 3 and parse["pages_per_minute"] > 0
    full = bench_ingest(FakeEmbedder(), pages=3)
    assert full["pages"] == 3 and full["chunks"] >= 3 and full["pages_per_minute"] > 0  # ~700 tokens a page


def test_query_stages_time_the_offline_writer_with_and_without_the_judge():
    from conftest import FakeEmbedder
    from writers.answering import JUDGED
    from writers.offline import ExtractiveWriter

    class CountingJudge:
        threshold, calls, decision = 0.5, [], None

        def score(self, question, texts):
            self.calls.append(len(texts))
            return np.linspace(0.9, 0.1, len(texts))

    judge = CountingJudge()
    out = benchmark.bench_query_stages(FakeEmbedder(), ExtractiveWriter(FakeEmbedder()), lambda m: None,
                                       judged=ExtractiveWriter(FakeEmbedder(), judge=judge))
    assert out["generate_offline_judged_p50_ms"] > 0 and out["generate_offline_p50_ms"] > 0
    assert out["judge_added_p50_ms"] == round(out["generate_offline_judged_p50_ms"] - out["generate_offline_p50_ms"], 2)
    assert judge.calls and max(judge.calls) == JUDGED  # the judge reads as many sentences as it does in an answer
    assert out["generate_offline_second_look_p95_ms"] >= out["generate_offline_second_look_p50_ms"] > 0


def test_book_benchmark_ingests_the_first_records_and_embeds_them_both_ways(tmp_path):
    import json

    from conftest import FakeEmbedder
    from benchmarks.bench_ingest import bench_book

    book = tmp_path / "sa.jsonl"
    book.write_text("\n".join(json.dumps({"ref": f"Shulchan Arukh, Orach Chayim 1:{n}", "he": "מים " * n + "בשבת:"},
                                         ensure_ascii=False) for n in range(1, 8)), encoding="utf-8")
    found = bench_book(FakeEmbedder(), book, records=5)
    assert found["records"] == 5 and found["passages"] >= 5  # a ruling each, and a gloss where there is one
    for name in ("ingest", "book_order", "by_length"):
        assert found[name]["seconds"] >= 0 and found[name]["passages_per_minute"] > 0
