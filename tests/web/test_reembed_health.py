"""A server on a library embedded before the models' form (search/reembed.py), with the real MiniLM: /api/health
says a re-embed is pending, the ingest worker does it, and then a pointed passage is found by its unpointed words
and quoted as the book has it, points and all."""
import numpy as np

from app import create_app
from hebrew.normal import without_points
from ingest import corpus
from models import Document

VERSE = "וַיֹּ֤אמֶר אֱלֹהִים֙ יְהִ֣י א֔וֹר וַֽיְהִי־אֽוֹר׃ וַיַּ֧רְא אֱלֹהִ֛ים אֶת־הָא֖וֹר כִּי־ט֑וֹב"
DOCS = [Document("genesis", "בראשית", VERSE),
        Document("moon", "Moon", "The Moon is Earth's only natural satellite. It orbits the Earth every 27 days."),
        Document("everest", "Mount Everest", "Mount Everest is the highest mountain on Earth above sea level.")]


def test_health_shows_a_pending_re_embed_until_the_worker_has_done_it(tmp_path, _real_embedder):
    folder = tmp_path / "library"
    built = corpus.build(DOCS, _real_embedder, folder, 1200, 200)
    pointed = [r for r, c, _ in built.store.chunk_rows() if c.doc_id == "genesis"]
    as_written = _real_embedder.model.encode_document([f"בראשית\n{VERSE}"], normalize_embeddings=True)[0]
    with built.store.transaction() as db:  # as a library built before the form was: the pointed text embedded as written
        db.execute("UPDATE chunks SET embedding = ? WHERE rowid = ?", (np.float32(as_written).tobytes(), pointed[0]))
        db.execute("DELETE FROM meta WHERE key = 'model_form'")
    app = create_app({"TESTING": True, "LIBRARY_DIR": str(folder), "LOAD_ON_START": True, "INGEST_WORKER": False,
                      "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": "", "GENERATOR": "offline"})
    client = app.test_client()

    health = client.get("/api/health").get_json()
    assert health["status"] == "ok"
    assert health["library"]["reembed"] == {**health["library"]["reembed"], "state": "pending", "passages": 1, "done": 0}

    app.extensions["rag"].services.ingestor.run_pending()  # what the server's worker thread runs first
    assert "reembed" not in client.get("/api/health").get_json()["library"]

    stored = next(v for r, _, v in built.store.chunk_rows() if r == pointed[0])
    fresh = _real_embedder.embed([f"בראשית\n{VERSE}"])[0]
    assert float(stored @ fresh) > 0.9999 and float(stored @ as_written) < 0.99  # new vectors, from the unpointed text

    question = "ויאמר אלהים יהי אור ויהי אור"
    reply = client.post("/api/query", json={"question": question}).get_json()
    first = reply["passages"][0]
    assert first["doc_id"] == "genesis" and first["chunk"] == VERSE  # shown exactly as stored, with its points
    before = float(as_written @ _real_embedder.embed_queries([question])[0])
    assert first["dense_score"] > before + 0.1  # the unpointed question now reads as the same words
    # the offline answer quotes the verse as the book has it, and the check finds the quote supported
    assert VERSE.split("׃")[0] in reply["answer"] and without_points(VERSE) not in reply["answer"]
    assert [c["verified"] for c in reply["citations"]] == [True] and reply["citations"][0]["support"] > 0.9
