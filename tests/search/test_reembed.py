"""One form of text for every model (hebrew.normal.for_models), and libraries that re-embed when it changes: only
their pointed passages, in one transaction, on both backends, with a progress bar and /api/health saying so."""
import numpy as np
import pytest

from conftest import FakeEmbedder
from hebrew.normal import MODEL_FORM, for_models
from models import Document
from postgres.library import PgLibrary
from search import library
from search.view import Scope

POINTED = "בְּרֵאשִׁ֖ית בָּרָ֣א אֱלֹהִ֑ים אֵ֥ת הַשָּׁמַ֖יִם וְאֵ֥ת הָאָֽרֶץ׃ וְהָאָ֗רֶץ הָיְתָ֥ה תֹ֙הוּ֙ וָבֹ֔הוּ וְחֹ֖שֶׁךְ עַל־פְּנֵ֥י תְה֑וֹם"
UNPOINTED = "בראשית ברא אלהים את השמים ואת הארץ  והארץ היתה תהו ובהו וחשך על פני תהום"
DOCS = [Document("genesis", "בראשית א", POINTED),
        Document("plain", "שבת", "אסור לבשל בשבת ומותר לחמם מים שהוחמו מערב שבת"),
        Document("moon", "Moon", "The Moon is Earth's only natural satellite.")]


class ReadingEmbedder(FakeEmbedder):
    """The fake embedder reading as the real one does (for_models), recording what it was given."""

    form = MODEL_FORM

    def __init__(self):
        self.embedded: list[str] = []

    def embed(self, texts, batch_size=32, progress=False):
        self.embedded += list(texts)
        return super().embed([for_models(t) for t in texts])


def test_models_read_hebrew_without_points_and_maqaf_as_a_space():
    assert for_models(POINTED).split() == UNPOINTED.split()
    assert for_models("עַל־פְּנֵ֥י") == "על פני"
    assert for_models("The Moon — 384,400 km") == "The Moon — 384,400 km"  # nothing else changes
    assert for_models("שַׁבָּת") == for_models("שׁבּת") == "שבת"  # precomposed letters taken apart first


def test_the_real_embedder_reads_a_pointed_passage_as_its_unpointed_text(real_embedder):
    for role in ("passage", "query"):
        pointed, plain = real_embedder.embed([POINTED, UNPOINTED], role=role)
        assert float(pointed @ plain) > 0.999
    assert real_embedder.form == MODEL_FORM


def made_before_the_form(backend, built, rng=np.random.default_rng(0)):
    """The library as one built before the form: vectors of the text as written (here: others), no form recorded."""
    if backend.db is None:
        rows = [(r, c) for r, c, _ in built.store.chunk_rows()]
        old = {r: rng.normal(size=64).astype(np.float32) for r, _ in rows}
        with built.store.transaction() as db:
            db.executemany("UPDATE chunks SET embedding = ? WHERE rowid = ?", [(v.tobytes(), r) for r, v in old.items()])
            db.execute("DELETE FROM meta WHERE key = 'model_form'")
    else:
        keys = [r[0] for r in backend.db.execute("SELECT id FROM chunks ORDER BY id")]
        old = {k: rng.normal(size=64).astype(np.float32) for k in keys}
        for key, vector in old.items():
            backend.db.execute("UPDATE chunks SET embedding = %s WHERE id = %s", (vector, key))
        backend.db.execute("DELETE FROM library_meta WHERE key = 'model_form'")
    return old


def reopen(backend, embedder):
    if backend.db is None:
        return library.Library.open(backend.folder, embedder)
    return PgLibrary.open(backend.db, embedder)


def stored(backend, opened) -> dict:
    """key -> (passage text, stored vector) of every passage."""
    if backend.db is None:
        return {r: (c.passage_text, v) for r, c, v in opened.store.chunk_rows()}
    from postgres.search import CHUNK_COLUMNS, chunk
    rows = backend.db.execute(f"SELECT {CHUNK_COLUMNS}, embedding FROM chunks")
    return {r[0]: (chunk(r[:-1]).passage_text, np.asarray(r[-1].to_numpy() if hasattr(r[-1], "to_numpy") else r[-1],
                                                             dtype=np.float32)) for r in rows}


def test_a_library_made_before_the_form_embeds_its_pointed_passages_again(backend, capsys):
    embedder = ReadingEmbedder()
    built = backend.build(DOCS, embedder)
    old = made_before_the_form(backend, built)
    opened = reopen(backend, embedder)
    before = stored(backend, opened)
    pointed = [k for k, (text, _) in before.items() if for_models(text) != text]
    assert len(pointed) == 1 and opened.reembedding.keys == pointed
    assert opened.reembed_status() == {**opened.reembed_status(), "state": "pending", "passages": 1, "done": 0}
    generation = opened.store.generation()

    embedder.embedded = []
    assert opened.reembed(progress=True) == 1
    assert "re-embedding pointed passages" in capsys.readouterr().err  # the command line's progress bar
    assert embedder.embedded == [before[pointed[0]][0]]  # only the pointed passage was embedded
    after = stored(backend, opened)
    np.testing.assert_allclose(after[pointed[0]][1], ReadingEmbedder().embed([after[pointed[0]][0]])[0], atol=1e-6)
    for key in after.keys() - set(pointed):  # the rest were made from the same text: kept
        np.testing.assert_allclose(after[key][1], old[key], atol=1e-6)
    assert opened.store.generation() == generation + 1 and opened.reembed_status() is None

    # dense search finds the pointed passage by its unpointed words, and a reopened library has nothing to do
    view = opened.current()
    assert view.key_of(view.nearest(embedder.embed(["בראשית א\n" + UNPOINTED])[0], 1, Scope())[0]) == pointed[0]
    again = reopen(backend, embedder)
    assert again.reembedding is None and again.reembed() == 0


def test_a_library_without_pointed_text_only_records_the_form(backend):
    embedder = ReadingEmbedder()
    built = backend.build(DOCS[1:], embedder)
    old = made_before_the_form(backend, built)
    generation = built.store.generation()
    embedder.embedded = []
    opened = reopen(backend, embedder)
    assert opened.reembedding is None and embedder.embedded == []
    assert opened.store.generation() == generation  # nothing changed, so nothing reloads
    for key, (_, vector) in stored(backend, opened).items():
        np.testing.assert_allclose(vector, old[key], atol=1e-6)
    if backend.db is None:
        assert opened.store.model_form() == MODEL_FORM
    else:
        assert backend.db.execute("SELECT value FROM library_meta WHERE key = 'model_form'") == [(MODEL_FORM,)]


def test_a_passage_deleted_while_re_embedding_is_skipped(backend):
    embedder = ReadingEmbedder()
    made_before_the_form(backend, backend.build(DOCS, embedder))
    opened = reopen(backend, embedder)
    opened.delete_document("genesis")
    assert opened.reembed() == 1  # its passage is gone: no row to write, no error
    assert reopen(backend, embedder).reembedding is None
    assert {d.id for d in opened.store.documents()[0]} == {"plain", "moon"} and opened.current().size() == 2


def test_load_re_embeds_before_a_command_uses_the_library(tmp_path):
    from ingest import corpus

    embedder = ReadingEmbedder()
    built = corpus.build(DOCS, embedder, tmp_path, 1200, 200)
    with built.store.transaction() as db:
        db.execute("DELETE FROM meta WHERE key = 'model_form'")
    embedder.embedded = []
    loaded = library.load(tmp_path, embedder, progress=False)
    assert loaded.reembedding is None and len(embedder.embedded) == 1
    assert loaded.store.model_form() == MODEL_FORM


def test_another_server_sees_the_worker_finish(backend):
    if backend.db is None:
        pytest.skip("one process holds an embedded library's worker")
    embedder = ReadingEmbedder()
    made_before_the_form(backend, backend.build(DOCS, embedder))
    app_server, worker = reopen(backend, embedder), reopen(backend, embedder)
    assert app_server.reembed_status()["state"] == "pending"
    worker.reembed()
    assert app_server.reembed_status() is None
