"""Builders shared by tests in several folders: a store entry from chunk texts, a check that an edited view scores
exactly as one rebuilt from the store, an answer as the history logs it, a real PDF, an app over a real library, and
the offline pipeline over simanim of the Shulchan Arukh from ../shared, and a client of the history's API alone."""
import json
from pathlib import Path

import numpy as np
from conftest import CORPUS, FakeClassifier, FakeEmbedder, FakeWriter

from app import create_app
from generator import Generator
from hebrew import analyzer
from ingest import corpus
from models import Chunk, DocumentInfo
from pipeline import Pipeline
from retrieval import Retriever
from search.bm25 import BM25


def entry(doc_id: str, texts: list[str], embedder=FakeEmbedder()):
    """A store entry for a document made of the given chunk texts."""
    chunks, at, text = [], 0, "\n\n".join(texts)
    for n, t in enumerate(texts):
        chunks.append(Chunk(f"{doc_id}#{n}", doc_id, doc_id.title(), t, at, at + len(t), ("Part 1",), f"{doc_id} 1:{n + 1}", f"{doc_id} 1"))
        at += len(t) + 2
    info = DocumentInfo(doc_id, doc_id.title(), "txt", f"hash-{text}")
    return info, text, chunks, embedder.embed([c.passage_text for c in chunks]), None


def assert_view_matches_a_fresh_build(lib):
    """The incrementally edited view scores exactly like one rebuilt from the store."""
    view = lib.view
    fresh = BM25.index([analyzer.analyze(c.passage_text) for c in view.chunks])
    for query in (["penicillin"], ["sun", "light", "water"], ["empire", "rome"], ["kettle"]):
        np.testing.assert_allclose(view.bm25.scores(query), fresh.scores(query), atol=1e-12)
    assert view.index.ntotal == len(view.chunks) == view.bm25.n_docs
    for i, chunk in enumerate(view.chunks):
        expected = FakeEmbedder().embed([chunk.passage_text])[0]
        np.testing.assert_allclose(view.index.reconstruct(int(view.labels[i])), expected, atol=1e-6)


def logged_answer(question="Who discovered penicillin?", answer="Alexander Fleming discovered penicillin in 1928 [1].",
          **fields) -> dict:
    """An /api/query response body as the web layer hands it to History.log."""
    body = {
        "question": question, "standalone_question": question, "rewritten": False, "query_type": "factual_lookup",
        "query_type_confidence": 0.9, "language": "en", "answer": answer, "declined": False,
        "citations": [{"n": 1, "passage_id": "fleming#0", "title": "Alexander Fleming", "ref": None, "valid": True,
                       "quote_verified": None, "support": 0.8, "verified": True, "spans": [[0, 20]]}],
        "passages": [{"n": 1, "id": "fleming#0", "doc_id": "fleming", "title": "Alexander Fleming", "ref": None,
                      "chunk": "Alexander Fleming was a Scottish physician.", "bm25_score": 3.2}],
        "generator": "offline", "model": None, "degraded": False,
        "timings_ms": {"classify": 1.5, "retrieve": 2.5, "total": 9.0}, "session_id": "s1",
    }
    body.update(fields)
    return body


def english_pdf(path: Path, pages: list[str], password: str | None = None) -> Path:
    """A real PDF with one page per text, a title and an author."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_title("The Test Book")
    pdf.set_author("Ada Writer")
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text=text)
    if password:
        pdf.set_encryption(owner_password=password, user_password=password)
    pdf.output(str(path))
    return path


# A course script with every field of the format (ingest/course.py)
COURSE = """Course Title: Kettles and Tea
Course Link: https://tea.example.org/course
Course Instructor: Miriam Cohen

Lesson 1: Boiling water
Lesson Link: https://tea.example.org/course/1

A kettle boils water on the stove. The whistle tells you the water is ready.

Lesson 2: Brewing
Lesson Link: https://tea.example.org/course/2

Green tea wants water below boiling, about eighty degrees, for two minutes.
"""


BOOK = """Course Title: Kettles and Tea

Lesson 1: Boiling water

A kettle boils water on the stove. The whistle tells you the water is ready.

Lesson 2: Brewing

Green tea wants water below boiling, about eighty degrees, for two minutes.
"""


def library_app(config, folder, writer=None, backend=None):
    """The app over a real library built in folder (or on backend, tests/pg.py), managed by the documents API;
    writer answers (a FakeWriter)."""
    lib = backend.build(CORPUS) if backend else corpus.build(CORPUS, FakeEmbedder(), folder, 1200, 200)
    config = {**config, **(backend.config if backend else {})}
    writer = writer or FakeWriter("offline")
    pipeline = Pipeline(FakeClassifier(), Retriever(lib, FakeEmbedder()), Generator({writer.name: writer}, writer.name),
                        store=lib.store, relations=lib.relations)
    return create_app(config, pipeline=pipeline, library=lib)


def upload(client, name, data, headers=None, **fields):
    """POST one file to /api/documents with metadata fields."""
    from io import BytesIO

    return client.post("/api/documents", data={"file": (BytesIO(data), name), **fields},
                       content_type="multipart/form-data", headers=headers or {})


def wait_for(client, job, timeout=60, headers=None):
    """The job once done or failed, polled through its URL."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(job["url"], headers=headers or {}).get_json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job did not finish: {job}")


SEIF, GLOSS, OTHER = ("Shulchan Arukh, Orach Chayim 318:5", "Shulchan Arukh, Orach Chayim 318:5, Rema",
                      "Shulchan Arukh, Orach Chayim 318:14")
RULINGS = [  # (ref, parent ref, community, text): a ruling, the Rema's gloss on it, and another seif
    (SEIF, "Shulchan Arukh, Orach Chayim 318", "Sephardi",
     "Some say that baked bread is cooked again in a second vessel while it scalds. Others permit the bread."),
    (GLOSS, SEIF, "Ashkenazi",
     "The custom is to take care not to put bread even into a second vessel while it scalds."),
    (OTHER, "Shulchan Arukh, Orach Chayim 318", "Sephardi",
     "One may set a jug of water near the fire, far enough that it cannot become scalding."),
]


def ruled_entry(doc_id="sa", rulings=RULINGS, tier=None, embedder=FakeEmbedder()):
    """A store entry of passages with canonical refs and communities (a seif, its gloss, another seif)."""
    chunks, at, text = [], 0, "\n\n".join(t for *_, t in rulings)
    for n, (ref, parent, community, t) in enumerate(rulings):
        chunks.append(Chunk(f"{doc_id}#{n}", doc_id, "Shulchan Arukh", t, at, at + len(t), ("סימן שיח",), ref, parent,
                            community))
        at += len(t) + 2
    info = DocumentInfo(doc_id, "Shulchan Arukh", "json", f"hash-{text}", tier=tier)
    return info, text, chunks, embedder.embed([c.passage_text for c in chunks]), None


def ruled_library(backend, entries=None):
    """A library on backend (tests/pg.py) of ruled_entry() (or the given entries)."""
    from postgres.library import PgLibrary
    from search.library import Library

    library = (Library.open(backend.folder, FakeEmbedder(), create=True) if backend.db is None
               else PgLibrary.open(backend.db, FakeEmbedder()))
    library.replace_documents(entries or [ruled_entry()])
    return library


SHARED_SA = Path(__file__).resolve().parents[2] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"


def halacha_pipeline(folder: Path, simanim: set[str]) -> tuple[Retriever, Pipeline, object]:
    """The offline pipeline (fake embedder and classifier, the real answerability judge) over the seifim of simanim
    ("Shulchan Arukh, Orach Chayim 318") from ../shared, ingested as an upload is: (retriever, pipeline, library)."""
    from checks.judge import AnswerabilityJudge
    from checks.verify import Verifier
    from ingest.jobs import Ingestor
    from search.library import Library
    from writers.offline import ExtractiveWriter

    source = folder / "simanim.jsonl"
    source.write_text("".join(line for line in SHARED_SA.open(encoding="utf-8")
                              if json.loads(line)["ref"].rsplit(":", 1)[0] in simanim), encoding="utf-8")
    library = Library.open(folder / "library", FakeEmbedder(), create=True)
    ingestor = Ingestor(library)
    ingestor.run(*ingestor.claim(ingestor.submit_file(source, source.name, {"language": "he"}).id))
    retriever = Retriever(library, FakeEmbedder())
    writer = ExtractiveWriter(FakeEmbedder(), judge=AnswerabilityJudge.load())
    pipeline = Pipeline(FakeClassifier("explanation"), retriever,
                        Generator({"offline": writer}, "offline", verifier=Verifier(FakeEmbedder(), 0.0)),
                        store=library.store, relations=library.relations)
    return retriever, pipeline, library


def history_client(history):
    """A test client of a Flask app that serves the answer history's API (web/history.py) over history alone (None:
    an app without a history)."""
    from flask import Flask

    from configuration.settings import ServerSettings, Settings
    from web.auth import register_auth
    from web.errors import register_error_handlers
    from web.history import bp

    app = Flask(__name__)
    app.config["TESTING"] = True
    app.extensions["settings"] = Settings(server=ServerSettings(testing=True))
    if history is not None:
        app.extensions["history"] = history
    register_error_handlers(app)
    register_auth(app)
    app.register_blueprint(bp)
    return app.test_client()
