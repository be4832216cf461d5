"""The library on disk: build, load, and refusal of a missing or mismatched library."""
import json

import numpy as np
import pytest

import library
from conftest import CORPUS, FakeEmbedder


def test_build_then_load_gives_the_same_index(tmp_path):
    chunks, bm25, index, manifest = library.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    assert manifest["chunks"] == len(chunks) == 4 and manifest["embedding_model"] == "fake-embedder"
    assert [c.id for c in chunks] == ["fleming#0", "everest#0", "photosynthesis#0", "rome#0"]
    loaded_chunks, loaded_bm25, loaded_index, _ = library.load(tmp_path, "fake-embedder", 64)
    assert loaded_chunks == chunks
    np.testing.assert_array_equal(loaded_bm25.scores(["penicillin"]), bm25.scores(["penicillin"]))
    assert loaded_index.ntotal == 4
    np.testing.assert_array_equal(loaded_index.reconstruct(2), index.reconstruct(2))


def test_chunk_offsets_point_into_the_document():
    doc = CORPUS[0]
    for chunk in library.chunk_documents([doc], 40, 10):
        assert doc.text[chunk.start:chunk.end] == chunk.text


def test_missing_library_says_how_to_build_it(tmp_path):
    with pytest.raises(library.LibraryError, match="ingest-default"):
        library.load(tmp_path, "fake-embedder", 64)


def test_mismatched_embedding_model_is_refused(tmp_path):
    library.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    with pytest.raises(library.LibraryError, match="built with the embedding model fake-embedder.*ingest-default"):
        library.load(tmp_path, "sentence-transformers/all-MiniLM-L6-v2", 384)


def test_inconsistent_library_is_refused(tmp_path):
    library.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["chunks"] = 5
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(library.LibraryError, match="inconsistent"):
        library.load(tmp_path, "fake-embedder", 64)


def test_content_hash_changes_with_the_text():
    changed = [CORPUS[0].__class__(CORPUS[0].id, CORPUS[0].title, CORPUS[0].text + " More.")] + CORPUS[1:]
    assert library.content_hash(CORPUS) == library.content_hash(list(CORPUS))
    assert library.content_hash(changed) != library.content_hash(CORPUS)
