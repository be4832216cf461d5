"""The Flask application factory: the one place that builds things.

`create_app()` reads the settings (defaults, then FLASK_* environment variables, then the test
config) into one typed record (configuration/settings.py, in `app.extensions["settings"]`), registers the API, the page and the CLI, and wires the parts: the answer history in
`app.extensions["history"]`, and in `app.extensions["rag"]` a Loader of the Services (the pipeline,
the library it searches and the ingest worker that changes it). They load once: in the background on
the first request under `flask run` (health answers 503 "loading" meanwhile), or before serving when
LOAD_ON_START is set, or before `flask --app app serve` (web/server.py) starts serving.
"""
import functools
import logging
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask

from accounts.commands import users_commands
from authoring.commands import commands as authoring_commands
from benchmarks.commands import commands as benchmark_commands
from configuration.settings import Settings, defaults
from ingest.chunking import max_passage_chars
from ingest.commands import commands as ingest_commands
from ingest.jobs import Ingestor
from ingest.records import Limits
from ingest.relation_import import relations_commands
from ingest.warming import Warmer
from measuring.commands import commands as measuring_commands
from pipeline import Pipeline
from postgres.backend import open_history, open_library, uses_postgres
from postgres.commands import db_commands
from postgres.database import NewerSchema as NewerDatabaseSchema
from postgres.database import SchemaMissing, Unavailable
from search.embedding import Embedder, ModelNotFound
from search.library import Library, LibraryError
from storage import provider_state
from storage.database import NewerSchema
from storage.history import History
from storage.store import Store
from training.commands import commands as training_commands
from training.lay_commands import commands as lay_commands
from training.ranking_commands import commands as ranking_commands
from web.accounts import bp as accounts_bp
from web.auth import register_auth
from web.catalog import bp as catalog_bp
from web.documents import bp as documents_bp
from web.errors import register_error_handlers
from web.guard import register_guard
from web.history import bp as history_bp
from web.logs import register_logs
from web.metrics import bp as metrics_bp
from web.protocols.mcp_http import bp as mcp_bp
from web.protocols.mcp_server import mcp_command
from web.protocols.openai_api import bp as openai_bp
from web.openapi import bp as openapi_bp
from web.providers import bp as providers_bp
from web.query import bp as query_bp
from web.relations import bp as relations_bp
from web.server import serve
from web.similar import bp as similar_bp
from web.validation import IdConverter
from writers.live import LiveWriters
from checks.sentences import forms

# Models come from local folders only; a hub is never contacted unless the user says so.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

log = logging.getLogger(__name__)

DEFAULTS = defaults()  # every setting's flat name and default (configuration/settings.py)


@dataclass
class Services:
    """What a loaded server holds: the pipeline, and the library it searches with the worker that changes it."""

    pipeline: Pipeline
    library: Library | None = None  # or a PgLibrary; None: the pipeline searches a fixed library (tests), no documents API
    ingestor: Ingestor | None = None
    info: dict = field(default_factory=dict)  # for /api/health: the library's folder, how long loading took

    @property
    def store(self) -> Store | None:
        """The library's records (documents, jobs), when the library can change."""
        return self.library.store if self.library else None


def upload_limits(settings: Settings) -> Limits:
    """What one upload may cost, from the settings: its size, and its longest passage (4 × MAX_CHARS)."""
    return Limits(max_bytes=settings.library.max_upload_bytes,
                  max_passage_chars=max_passage_chars(settings.library.max_chars))


def build(settings: Settings, history=None) -> Services:
    """Load the embedder, open the library, build the pipeline over it and the ingest worker for it; the writers
    read the providers' keys and models an admin set in the history's database."""
    started = time.perf_counter()
    library = open_library(settings, Embedder.load(settings.models.embedding_model, settings.models.runtime))
    pipeline = Pipeline.load(settings, library, stored=history.provider_settings if history is not None else None)
    where = ({"backend": "postgres", "schema": settings.database.schema} if uses_postgres(settings)
             else {"backend": "embedded", "path": str(settings.library.dir)})
    info = {"library": where, "load_seconds": round(time.perf_counter() - started, 2)}
    log.info("pipeline loaded in %.1f s", info["load_seconds"])
    warmer = Warmer(library, forms) if warms(settings) else None
    return Services(pipeline, library, Ingestor(library, upload_limits(settings), warmer), info)


def warms(settings: Settings) -> bool:
    """Whether the ingest worker warms the library's sentence vectors (WARM_SENTENCES; unset: on, except in tests)."""
    setting = settings.library.warm_sentences
    return not settings.server.testing if setting is None else setting


def share_provider_state(services: Services | None, history: History | None) -> Services | None:
    """Each model writer records how its calls go in the history file, so every worker's health says the same;
    so do those made later, when an admin changes a provider's key or model (writers/live.py), whose table a
    given pipeline's writers read from this history."""
    if services is None or history is None:
        return services
    writers = services.pipeline.generator.writers
    for name, writer in writers.items():
        publish(history, name, writer)
    if isinstance(writers, LiveWriters):
        writers.on_new.append(functools.partial(publish, history))
        if writers.stored is None:
            writers.stored = history.provider_settings
            writers.expire()
    return services


def publish(history: History, name: str, writer) -> None:
    """Have a writer's guard keep its state in the history (provider_state.py)."""
    if writer.guard is not None:
        writer.guard.publish = functools.partial(provider_state.save, history, name)


class Loader:
    """Builds the services once, now or in a background thread, and remembers the result or the failure."""

    def __init__(self, build, services: Services | None = None):
        self.build = build
        self.services = services
        self.error: str | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.run_jobs = True

    @property
    def pipeline(self) -> Pipeline | None:
        """The loaded pipeline, or None."""
        return self.services.pipeline if self.services else None

    def start(self) -> None:
        """Begin loading in the background, unless it has begun or is done."""
        with self._lock:
            if self.services is None and self._thread is None:
                self._thread = threading.Thread(target=self.load, name="pipeline-loader", daemon=True)
                self._thread.start()

    def start_ingestor(self) -> None:
        """Run queued and interrupted ingest jobs in this process once the library is open (unless INGEST_WORKER is off)."""
        if self.services is not None and self.services.ingestor is not None and self.run_jobs:
            self.services.ingestor.start()

    def stop_ingestor(self, timeout: float = 30.0) -> bool:
        """Stop this process's ingest worker between two steps, and wait for it (a clean exit: no native thread of
        the models left running); whether it stopped in time."""
        if self.services is None or self.services.ingestor is None:
            return True
        return self.services.ingestor.stop(timeout)

    def load(self) -> None:
        """Load now, in this thread; a failure is kept as a message for /api/health."""
        try:
            self.services = self.build()
        except (LibraryError, ModelNotFound, NewerSchema, NewerDatabaseSchema, SchemaMissing, Unavailable,
                FileNotFoundError, ValueError) as exc:
            self.error = str(exc)
            log.error("could not load the pipeline: %s", exc)
        except Exception:  # noqa: BLE001 - a background thread must record every failure, or health says "loading" forever
            self.error = "loading failed; the server log has the details"
            log.exception("could not load the pipeline")


# settings also read without the FLASK_ prefix, as their providers' own tools name them (the first set wins)
PLAIN_ENVIRONMENT = {"GEMINI_API_KEY": ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "ANTHROPIC_API_KEY": ("ANTHROPIC_API_KEY",),
                     "OPENAI_API_KEY": ("OPENAI_API_KEY",), "DATABASE_URL": ("DATABASE_URL",)}


def plain_environment() -> dict:
    """The settings the environment gives under their plain names (PLAIN_ENVIRONMENT)."""
    found = {}
    for setting, names in PLAIN_ENVIRONMENT.items():
        value = next((os.environ[n] for n in names if os.environ.get(n)), None)
        if value is not None:
            found[setting] = value
    return found


def create_app(config=None, pipeline=None, library=None) -> Flask:
    """Create the Flask app; the pipeline and its library are built from the config unless a pipeline is given.

    library: the library a given pipeline searches, when the documents API should manage it.
    """
    app = Flask(__name__, static_folder="static", static_url_path="/static")
    app.config.from_mapping(DEFAULTS)
    app.config.update(plain_environment())  # read now, not when this module is imported
    app.config.from_prefixed_env()
    if config:
        app.config.update(config)
    settings = app.extensions["settings"] = Settings.of(app.config)  # what the code reads (configuration/)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    # tests that name no history file get a fresh one, so they never write into data/
    testing_default = settings.server.testing and not (config or {}).get("HISTORY_DB")
    app.extensions["history"] = open_history(settings, Path(tempfile.mkdtemp(prefix="evidenz-history-")) /
                                             "history.sqlite3" if testing_default else None)
    given = (Services(pipeline, library, Ingestor(library, upload_limits(settings)) if library else None)
             if pipeline is not None else None)
    history = app.extensions["history"]
    loader = Loader(lambda: share_provider_state(build(app.extensions["settings"], history), history),
                    share_provider_state(given, history))
    loader.run_jobs = settings.library.ingest_worker
    app.extensions["rag"] = loader
    app.extensions["sentence_forms"] = forms  # what the worker commands warm (ingest/warming.py)
    if pipeline is None and settings.server.load_on_start:
        loader.load()
        if loader.error:
            raise SystemExit(f"Evidenz cannot start: {loader.error}")
    register_logs(app)  # first of all: every request, refused ones too, gets an id, a time and a log line
    register_guard(app)  # then the Host check: a refused request starts nothing
    register_auth(app)  # then who is asking: a 401 starts nothing either
    app.before_request(loader.start)
    app.before_request(loader.start_ingestor)
    # gunicorn loads the app once and forks workers, which do not inherit threads: each worker starts its
    # ingest thread at once, so jobs interrupted by a restart resume without waiting for a request.
    os.register_at_fork(after_in_child=loader.start_ingestor)

    register_error_handlers(app)
    app.url_map.converters["id"] = IdConverter  # <id:...> in the routes: an id past MAX_ID is a 404 for every method
    for blueprint in (query_bp, documents_bp, history_bp, similar_bp, accounts_bp, openai_bp, relations_bp, metrics_bp,
                      mcp_bp, openapi_bp, catalog_bp, providers_bp):
        app.register_blueprint(blueprint)
    for command in (ingest_commands + measuring_commands + training_commands + lay_commands + ranking_commands
                    + benchmark_commands
                    + authoring_commands
                    + [serve, db_commands, users_commands, relations_commands, mcp_command]):
        app.cli.add_command(command)
    return app
