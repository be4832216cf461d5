"""The Hebrew path end to end with the real multilingual embedder: simanim of the Shulchan Arukh imported from
../shared (rulings and the Rema's glosses as their own units), then asked in Hebrew and in English."""
import json
from pathlib import Path

import pytest

from app import create_app

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
E5 = "intfloat/multilingual-e5-small"
# Shabbat cooking and heating, with unrelated simanim around them
SIMANIM = {("Orach Chayim", s) for s in (1, 2, 3, 90, 253, 254, 257, 318, 326, 651)} | {("Yoreh De'ah", 87)}
HEATING = tuple(f"Shulchan Arukh, Orach Chayim {s}:" for s in (253, 254, 257, 318, 326))

pytestmark = pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")


@pytest.fixture(scope="module")
def hebrew_app(tmp_path_factory):
    from ingest.jobs import Ingestor
    from search.embedding import Embedder
    from search.library import Library

    folder = tmp_path_factory.mktemp("sa")
    records = [line for line in SHARED_SA.read_text(encoding="utf-8").splitlines()
               if (json.loads(line)["part"], json.loads(line)["siman"]) in SIMANIM]
    source = folder / "shulchan_arukh.jsonl"
    source.write_text("\n".join(records), encoding="utf-8")
    library = Library.open(folder / "library", Embedder.load(E5), create=True)
    ingestor = Ingestor(library)
    job = ingestor.submit_file(source, source.name, {"language": "he"})
    ingestor.run(*ingestor.claim(job.id))
    assert library.store.job(job.id).status == "done"
    return create_app({"TESTING": True, "LIBRARY_DIR": str(folder / "library"), "EMBEDDING_MODEL": E5,
                       "LOAD_ON_START": True, "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": ""})


def test_heating_water_on_shabbat_cites_the_simanim_by_ref(hebrew_app):
    body = hebrew_app.test_client().post("/api/query", json={"question": "האם מותר לחמם מים בשבת?"}).json
    assert body["language"] == "he" and not body["declined"]
    refs = [c["ref"] for c in body["citations"]]
    assert refs and all(ref.startswith(HEATING) for ref in refs), refs
    assert all(c["ref_he"].startswith('שו"ע או"ח') for c in body["citations"])
    assert body["passages"][0]["ref"].startswith(HEATING)


def test_the_glosses_of_the_rema_are_passages_of_their_own(hebrew_app):
    body = hebrew_app.test_client().post("/api/query", json={"question": "מה אומר הרמ\"א על חזרה לכירה בשבת?",
                                                             "top_k": 10}).json
    glosses = [p for p in body["passages"] if p["ref"].endswith(", Rema")]
    assert glosses and all(p["chunk"].startswith(("הגה", "(")) and p["ref_he"].endswith('רמ"א') for p in glosses)


def test_an_english_question_finds_the_hebrew_seif(hebrew_app):
    body = hebrew_app.test_client().post("/api/query", json={"question": "May I heat water on the Sabbath?",
                                                             "top_k": 5}).json
    assert any(p["ref"].startswith(HEATING) for p in body["passages"][:3])


def test_hebrew_queries_weigh_dense_search_by_how_well_the_embedder_reads_hebrew(hebrew_app, real_app):
    assert hebrew_app.extensions["rag"].pipeline.retriever.config.alpha_he == 0.9  # multilingual-e5: mostly dense
    assert real_app.extensions["rag"].pipeline.retriever.config.alpha_he == 0.5  # MiniLM reads Hebrew poorly


def test_each_embedder_checks_support_at_its_own_calibrated_threshold(hebrew_app, real_app):
    assert hebrew_app.extensions["rag"].pipeline.generator.check.verifier.threshold == 0.88
    assert real_app.extensions["rag"].pipeline.generator.check.verifier.threshold == 0.61
