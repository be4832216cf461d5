"""Shared fixtures: fakes for the models, a small real library, and real models loaded once per session."""
import copy
import json
import re
import threading
import time
import zlib

import faiss
import numpy as np
import pytest

from app import create_app
from measuring.libraries import FixedLibrary
from generator import Generator
from hebrew.words import tokenize
from ingest.corpus import chunk_documents
from models import Document, Draft
from pipeline import Pipeline
from retrieval import Retriever
from search.library import View, index_bm25
from writers.writer import Writer

CORPUS = [
    Document("fleming", "Alexander Fleming", "Alexander Fleming was a Scottish physician. He discovered penicillin in 1928."),
    Document("everest", "Mount Everest", "Mount Everest is Earth's highest mountain above sea level. It lies in the Himalayas."),
    Document("photosynthesis", "Photosynthesis", "Photosynthesis is how plants turn light into chemical energy. It releases oxygen."),
    Document("rome", "Ancient Rome", "Rome was founded, by tradition, in 753 BC. It grew into an empire around the Mediterranean."),
]


class FakeEmbedder:
    """Bag of hashed words: texts that share words get similar unit vectors."""

    name = "fake-embedder"
    dim = 64

    def embed(self, texts, batch_size=32, progress=False):
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in tokenize(text):
                vectors[row, zlib.crc32(word.encode()) % self.dim] += 1.0
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    embed_queries = embed


class FakeClassifier:
    """Always answers the label it was given."""

    encoder_name = "fake-encoder"

    def __init__(self, label="factual_lookup"):
        self.label = label

    def classify(self, question):
        return self.label, 0.9


class FakeWriter(Writer):
    """Replays queued answers (text, or Drafts), then a fixed one; records what it was asked.
    stream() gives the text word by word, `delay` seconds apart."""

    model = None

    def __init__(self, name="fake", answers=None, delay=0.0):
        self.name = name
        self.answers = list(answers or [])
        self.delay = delay
        self.calls = []

    def write(self, request):
        self.last_request = request
        self.calls.append((request.question, request.query_type, [h.chunk.id for h in request.hits]))
        answer = self.answers.pop(0) if self.answers else "Fleming discovered penicillin [1]."
        return answer if isinstance(answer, Draft) else Draft(answer)

    def stream(self, request):
        draft = self.write(request)
        for word in re.findall(r"\S+\s*", draft.text):
            time.sleep(self.delay)
            yield word
        yield draft


class EndlessWriter(FakeWriter):
    """Streams words 20 ms apart for a long time; records how many it produced and whether it was closed."""

    def __init__(self, name="offline", words=400):
        super().__init__(name)
        self.words = words
        self.produced = []
        self.closed = threading.Event()

    def stream(self, request):
        try:
            for i in range(self.words):
                self.produced.append(i)
                yield f"word{i} "
                time.sleep(0.02)
            yield Draft("never")
        finally:
            self.closed.set()


def make_retriever(docs=CORPUS, embedder=None, reranker=None):
    """A Retriever over docs with real BM25 and FAISS, and the fake embedder by default."""
    embedder = embedder or FakeEmbedder()
    chunks = chunk_documents(docs, 1200, 200)
    texts = [c.passage_text for c in chunks]
    index = faiss.IndexFlatIP(embedder.dim)
    index.add(embedder.embed(texts))
    return Retriever(FixedLibrary(View.of(chunks, index_bm25(chunks), index)), embedder, reranker)


def make_pipeline(writer=None, label="factual_lookup"):
    """A pipeline with real retrieval and fake models."""
    writer = writer or FakeWriter("offline")
    generator = Generator({writer.name: writer}, writer.name)
    info = {"embedder": "fake-embedder", "classifier": {"encoder": "fake"}, "library": {"chunks": 4}}
    return Pipeline(FakeClassifier(label), make_retriever(), generator, info)


@pytest.fixture
def standin():
    """A local stand-in for a model provider's HTTP API (tests/standin.py)."""
    from standin import StandIn

    server = StandIn()
    yield server
    server.close()


@pytest.fixture
def request_():
    """A question with three passages, as a writer gets it."""
    from models import WriteRequest
    from standin import make_hits

    return WriteRequest("Who discovered penicillin?", "factual_lookup", make_hits())


@pytest.fixture
def app():
    return create_app({"TESTING": True}, pipeline=make_pipeline())


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def _real_embedder():
    from search.embedding import Embedder

    return Embedder.load("sentence-transformers/all-MiniLM-L6-v2")


@pytest.fixture
def real_embedder(_real_embedder):
    """The shipped MiniLM embedder, loaded once per session and copied per test."""
    return copy.deepcopy(_real_embedder)


@pytest.fixture(scope="session")
def real_classifier():
    """The trained query classifier shipped in query_classifier_model/ (read-only in tests)."""
    from question.classifier import QueryClassifier

    return QueryClassifier.load("query_classifier_model")


WIKI_SAMPLE = [
    Document("Alexander_Fleming", "Alexander Fleming", "Sir Alexander Fleming was a Scottish physician and microbiologist. "
             "He discovered penicillin in 1928, the first antibiotic substance. He shared the 1945 Nobel Prize in "
             "Physiology or Medicine with Howard Florey and Ernst Chain."),
    Document("Penicillin", "Penicillin", "Penicillins are a group of antibiotics derived from Penicillium moulds. "
             "They were among the first medications effective against bacterial infections caused by staphylococci."),
    Document("Mount_Everest", "Mount Everest", "Mount Everest is the highest mountain on Earth above sea level. "
             "It lies in the Himalayas on the China–Nepal border. Its height is 8,849 metres."),
    Document("Photosynthesis", "Photosynthesis", "Photosynthesis is the process by which plants, algae and cyanobacteria "
             "convert light energy into chemical energy. It releases oxygen as a byproduct of splitting water."),
    Document("Ancient_Rome", "Ancient Rome", "Ancient Rome was a civilisation that began as a city on the Tiber in the "
             "8th century BC. By tradition, Rome was founded in 753 BC. It grew into an empire around the Mediterranean."),
    Document("Berlin_Wall", "Berlin Wall", "The Berlin Wall was a guarded barrier that divided Berlin from 1961 to 1989. "
             "It fell on 9 November 1989, opening the border between East and West Germany."),
    Document("Moon", "Moon", "The Moon is Earth's only natural satellite. Neil Armstrong became the first person to walk "
             "on the Moon in 1969, during the Apollo 11 mission."),
    Document("Mona_Lisa", "Mona Lisa", "The Mona Lisa is a half-length portrait painting by the Italian artist Leonardo "
             "da Vinci. It hangs in the Louvre in Paris."),
]


@pytest.fixture(scope="session")
def real_library(tmp_path_factory, _real_embedder):
    """WIKI_SAMPLE indexed with the real embedder, saved as a library folder."""
    from ingest import corpus
    folder = tmp_path_factory.mktemp("library")
    corpus.build(WIKI_SAMPLE, _real_embedder, folder, 1200, 200)
    return folder


@pytest.fixture(scope="session")
def real_app(real_library):
    """The app as `make run` builds it: Pipeline.load with the real models on the sample library."""
    return create_app({"TESTING": True, "LIBRARY_DIR": str(real_library), "LOAD_ON_START": True,
                       "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": ""})


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory):
    """A real two-layer BERT with random weights and MiniLM's tokenizer, saved to disk (fast to load and train)."""
    from transformers import AutoTokenizer, BertConfig, BertModel

    from search.embedding import resolve_model

    folder = tmp_path_factory.mktemp("tiny-bert")
    tokenizer = AutoTokenizer.from_pretrained(resolve_model("sentence-transformers/all-MiniLM-L6-v2"))
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64)
    BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


QUERIES = [
    ("q1", "Who discovered penicillin?", "Alexander_Fleming", ["Alexander Fleming"]),
    ("q2", "What is the highest mountain on Earth?", "Mount_Everest", ["Mount Everest"]),
    ("q3", "When was Rome founded?", "Ancient_Rome", ["753 BC"]),
    ("q4", "When did the Berlin Wall fall?", "Berlin_Wall", ["9 November 1989"]),
]


@pytest.fixture
def beir(tmp_path):
    """WIKI_SAMPLE as a BEIR folder, with QUERIES and their qrels."""
    folder = tmp_path / "tiny-beir"
    (folder / "qrels").mkdir(parents=True)
    with open(folder / "corpus.jsonl", "w") as out:
        for doc in WIKI_SAMPLE:
            out.write(json.dumps({"_id": doc.id, "title": doc.title, "text": doc.text}) + "\n")
    with open(folder / "queries.jsonl", "w") as out:
        for qid, text, _, answers in QUERIES:
            out.write(json.dumps({"_id": qid, "text": text, "metadata": {"answers": answers}}) + "\n")
    lines = ["query-id\tcorpus-id\tscore"] + [f"{qid}\t{doc}\t1" for qid, _, doc, _ in QUERIES]
    (folder / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return folder


# The browser tests' Chromium, page and loopback server (tests/browser.py has the rest they share).
@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, launched once per test module (tests/browser.py names it and its flags)."""
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh page whose dialogs are recorded and dismissed; an uncaught script error fails the test."""
    context = browser.new_context(viewport={"width": 1100, "height": 650})
    page = context.new_page()
    page.dialogs, page.errors = [], []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()
    assert page.errors == []  # no uncaught script error on any page


@pytest.fixture
def serve():
    """start(app) serves an app on a free loopback port in a thread until the test ends."""
    from browser import Server

    servers = []

    def start(app):
        servers.append(Server(app))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


from pg import any_history, backend, pg_db, pg_server  # noqa: E402, F401 - PostgreSQL fixtures (tests/pg.py)
from standin import standins  # noqa: E402, F401 - the hosted providers' stand-ins (tests/standin.py)
