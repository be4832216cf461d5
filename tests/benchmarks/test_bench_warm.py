"""The warming benchmark warms a library's first passages into a table of its own and leaves the library cold."""
from conftest import CORPUS, FakeEmbedder

from benchmarks.bench_warm import bench_warm
from checks.sentences import forms
from ingest import corpus


def test_the_warming_benchmark_times_both_batch_sizes_and_leaves_the_library_as_it_was(tmp_path):
    library = corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200)
    found = bench_warm(library, forms, passages=3)
    assert found["passages"] == 3 and found["library_passages"] == len(CORPUS) and found["texts"] >= 6
    assert found["build"]["batch"] > found["background"]["batch"]
    assert found["build"]["library_minutes"] >= 0 and found["background"]["passages_per_minute"] > 0
    assert library.sentences.table.count() == 0  # its own table, not the library's
