"""The PostgreSQL benchmark at size, run small against a real PostgreSQL with pgvector: a library loaded in bulk
into Evidenz's own schema is searched by the app's statements, its HNSW recall measured against exact search
(ids and vectors must line up for it to be near 1), a write timed; the vectors beyond the real ones are mixtures."""
import numpy as np

from benchmarks import bench_pg_scale, real_vectors
from benchmarks.commands import scale_lines
from benchmarks.pg_scale_build import vectors_at
from conftest import WIKI_SAMPLE, FakeEmbedder
from ingest import corpus



def test_vectors_beyond_the_real_ones_are_unit_mixtures():
    pool = np.eye(4, dtype=np.float32)
    vectors = vectors_at(pool, 10)
    assert vectors.shape == (10, 4) and np.allclose(vectors[:4], pool)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert (np.sort(vectors[4:], axis=1)[:, -2:] > 0.2).all()  # each mixes two real ones


def test_a_small_library_is_loaded_searched_and_measured(pg_server, tmp_path, monkeypatch):
    monkeypatch.setattr(real_vectors, "CACHE", tmp_path / "cache")  # the questions' vectors, kept for a next run
    monkeypatch.setattr(bench_pg_scale, "REAL", 20)  # the library's own vectors are enough: nothing embedded
    library = corpus.build(WIKI_SAMPLE, FakeEmbedder(), tmp_path / "lib", 300, 50)
    sizes = [200]  # more chunks than real vectors: the rest are mixtures
    figures = bench_pg_scale.report(pg_server.get_uri(), library, sizes, [(8, 32)], log=lambda line: None)
    row = figures["sizes"][0]
    assert row["chunks"] == sizes[0] and row["real_vectors"] == figures["real_vectors"] < sizes[0]
    assert row["build_s"]["total"] > 0 and {"postings", "postings index", "hnsw"} <= set(row["build_s"])
    assert row["disk_mb"]["hnsw"] > 0 and row["disk_mb"]["postings_index"] > 0
    assert 0 < row["search"]["p50_ms"] <= row["search"]["p95_ms"] and row["nearest_filtered_rows"] <= 200
    assert set(row["hnsw"]) == {"m16_efc64", "m8_efc32"}
    assert row["hnsw"]["m16_efc64"]["ef400"]["recall@10"] >= 0.9  # near exact on a small graph at a wide ef_search
    assert row["write"]["add_s"] > 0 and row["write"]["remove_s"] > 0
    assert f"{sizes[0]:,} chunks" in scale_lines(row)
    schemas = pg_server.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'bench_%';")
    assert schemas.split()[2] == "0"  # the scratch schema is dropped
