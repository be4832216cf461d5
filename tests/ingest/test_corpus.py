"""Corpora of short documents as library passages: exact offsets, a digest of the texts, and re-adding a corpus."""
from builders import assert_view_matches_a_fresh_build, entry
from conftest import CORPUS, FakeEmbedder
from ingest import corpus


def test_chunk_offsets_point_into_the_document():
    doc = CORPUS[0]
    for chunk in corpus.chunk_documents([doc], 40, 10):
        assert doc.text[chunk.start:chunk.end] == chunk.text


def test_content_hash_changes_with_the_text():
    changed = [CORPUS[0].__class__(CORPUS[0].id, CORPUS[0].title, CORPUS[0].text + " More.")] + CORPUS[1:]
    assert corpus.content_hash(CORPUS) == corpus.content_hash(list(CORPUS))
    assert corpus.content_hash(changed) != corpus.content_hash(CORPUS)


def test_adding_a_corpus_keeps_other_documents_and_skips_unchanged_ones(tmp_path):
    (tmp_path / "chunks.jsonl").write_text("{}\n")  # an old-format library is replaced
    lib, changed = corpus.add_corpus(CORPUS[:2], FakeEmbedder(), tmp_path, 1200, 200)
    assert changed == 2 and not (tmp_path / "chunks.jsonl").exists()
    lib.replace_documents([entry("kettle", ["A kettle boils water."])])  # an upload
    edited = [CORPUS[0].__class__("fleming", "Alexander Fleming", "Fleming found penicillin in 1928.")]
    lib, changed = corpus.add_corpus(edited + CORPUS[1:], FakeEmbedder(), tmp_path, 1200, 200)
    assert changed == 3  # fleming changed, photosynthesis and rome are new, everest is skipped
    assert {c.doc_id for c in lib.view.chunks} == {"fleming", "everest", "photosynthesis", "rome", "kettle"}
    assert lib.store.document_text("fleming") == "Fleming found penicillin in 1928."
    assert_view_matches_a_fresh_build(lib)
