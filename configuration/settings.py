"""The server's settings as one typed record, nested by concern (as PaperQA2's Settings are).

A setting is given by its flat name: `FLASK_TOP_K=8` in the environment, {"TOP_K": 8} in a test's config, and
app.config holds them so (Flask's way). `create_app` reads them once into a Settings (`Settings.of(app.config)`),
which is what the code reads: `settings.search.top_k`. Each field names its flat name, so DEFAULTS, the
environment and docs/configuration.md (tests/test_settings_documented.py) agree with the record.
Does not: read the environment itself (create_app does, when an app is created, not when a module is imported).
"""
import dataclasses
import typing
from dataclasses import dataclass, field

MAX_BODY_BYTES = 64 * 1024  # a question is at most 2,000 characters; nothing needs more
FALSE = (False, 0, "0", "false", "no", "off", "")


def setting(name: str, default, note: str = ""):
    """A field of the record, read from the flat setting `name`."""
    return field(default=default, metadata={"name": name, "note": note})


@dataclass(frozen=True)
class LibrarySettings:
    dir: str = setting("LIBRARY_DIR", "data/library")
    download_dir: str = setting("DOWNLOAD_DIR", "data/downloads")
    max_chars: int = setting("MAX_CHARS", 1200)
    overlap_chars: int = setting("OVERLAP_CHARS", 200)
    max_upload_bytes: int = setting("MAX_UPLOAD_BYTES", 50 * 1024 * 1024)  # /api/documents only
    max_library_bytes: int = setting("MAX_LIBRARY_BYTES", 2 * 1024**3)  # the uploaded files together; past it 413
    max_queued_jobs: int = setting("MAX_QUEUED_JOBS", 20)  # ingest and re-index jobs waiting at once; past it 429
    # the documents a corpus build made (the default library), not uploads: off, the API refuses to remove them
    builtin_removable: bool = setting("BUILTIN_REMOVABLE", False)
    ingest_worker: bool = setting("INGEST_WORKER", True)  # off: jobs are left to `flask --app app ingest-worker`
    # between jobs, the worker keeps each passage's sentence vectors; None: on, except in tests (TESTING)
    warm_sentences: bool | None = setting("WARM_SENTENCES", None)


@dataclass(frozen=True)
class ModelSettings:
    classifier_dir: str = setting("CLASSIFIER_DIR", "query_classifier_model")
    judge_dir: str = setting("JUDGE_DIR", "data/models/answerability")  # empty: no judge (answers by score alone)
    embedding_model: str = setting("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")
    reranker_model: str = setting("RERANKER_MODEL", "")  # no pretrained cross-encoder installs offline: off
    torch_threads: int = setting("TORCH_THREADS", 0)  # a model call's threads; 0: every core, calls taking turns
    runtime: str = setting("MODEL_RUNTIME", "onnx")  # what runs the judge's layers: "onnx" (ONNX Runtime) or "torch"

    def __post_init__(self):
        if self.runtime not in ("onnx", "torch"):
            raise ValueError(f"the setting MODEL_RUNTIME is onnx or torch, not {self.runtime!r}")


@dataclass(frozen=True)
class SearchSettings:
    alpha: float = setting("ALPHA", 0.7)  # tuned on scifact-dev and squad-dev (docs/measurements.md)
    alpha_he: float | None = setting("ALPHA_HE", None)  # None: what heq-dev chose for the embedder
    candidates: int = setting("CANDIDATES", 200)
    rerank_depth: int = setting("RERANK_DEPTH", 32)
    top_k: int = setting("TOP_K", 5)
    community_boost: bool = setting("COMMUNITY_BOOST", False)
    section_weight: float = setting("SECTION_WEIGHT", 0.5)  # the second look over books with refs; 0: off
    fusion: str = setting("FUSION", "weighted")  # "weighted" (alpha) or "rrf" (reciprocal rank fusion)
    rrf_k: int = setting("RRF_K", 60)
    # the weight of the questions written beside passages (search/asked.py), chosen on the lay questions' dev split
    asked_weight: float = setting("ASKED_WEIGHT", 2.0)
    # the cosine from which an earlier question is the same one asked again (web/similar.py); None: the embedder's
    similar_threshold: float | None = setting("SIMILAR_THRESHOLD", None)

    def __post_init__(self):
        if self.similar_threshold is not None and not -1 <= self.similar_threshold <= 1:
            raise ValueError(f"the setting SIMILAR_THRESHOLD is a cosine, from -1 to 1, not {self.similar_threshold}")


@dataclass(frozen=True)
class ProviderSettings:
    api_key: str = field(default="", repr=False)  # a secret: never in a repr, so never in a log line
    model: str = ""
    base_url: str = ""
    models: tuple[str, ...] = ()  # the names a request may choose besides model


def provider(prefix: str, key: str, model: str, base_url: str, models: str) -> ProviderSettings:
    """A provider's settings, its fields read from these flat names."""
    return field(default=ProviderSettings(), metadata={"provider": (key, f"{prefix}_MODEL", base_url,
                                                                   f"{prefix}_MODELS"), "defaults": (model, models)})


@dataclass(frozen=True)
class WriterSettings:
    generator: str = setting("GENERATOR", "")  # "": gemini, then claude, then openai, then offline, by keys set
    support_threshold: float | None = setting("SUPPORT_THRESHOLD", None)  # None: the embedder's
    max_searches: int = setting("MAX_SEARCHES", 3)  # a model writer's own searches a question; 0: given passages
    llm_timeout: float = setting("LLM_TIMEOUT", 30.0)
    llm_retries: int = setting("LLM_RETRIES", 2)
    gemini: ProviderSettings = provider("GEMINI", "GEMINI_API_KEY", "gemini-2.5-flash", "GEMINI_BASE_URL",
                                        "gemini-2.5-flash,gemini-2.5-pro,gemini-2.5-flash-lite")
    claude: ProviderSettings = provider("CLAUDE", "ANTHROPIC_API_KEY", "claude-sonnet-4-5", "ANTHROPIC_BASE_URL",
                                        "claude-sonnet-4-5,claude-opus-4-1,claude-haiku-4-5")
    openai: ProviderSettings = provider("OPENAI", "OPENAI_API_KEY", "", "OPENAI_BASE_URL", "")


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = setting("DATABASE_URL", "")  # postgresql://...: the PostgreSQL backend instead of the files
    schema: str = setting("DATABASE_SCHEMA", "evidenz")
    pool: int = setting("DATABASE_POOL", 10)
    timeout_ms: int = setting("DATABASE_TIMEOUT_MS", 30_000)
    # "skip": BM25 in PostgreSQL leaves out the words of more than half the chunks, whose weight rank_bm25 floors
    # (a large library's cost; docs/postgres.md); "score": every word, the embedded engine's scores
    bm25_common: str = setting("DATABASE_BM25_COMMON", "score")


@dataclass(frozen=True)
class ServerSettings:
    history_db: str = setting("HISTORY_DB", "data/history.sqlite3")
    allowed_hosts: tuple[str, ...] = setting("ALLOWED_HOSTS", ())  # names besides localhost and the bind address
    bind_host: str = setting("BIND_HOST", "")  # set by `serve`
    auth: str = setting("AUTH", "")  # "required": sign-in even on the loopback
    trusted_proxy: str = setting("TRUSTED_PROXY", "")
    log_questions: bool = setting("LOG_QUESTIONS", False)
    load_on_start: bool = setting("LOAD_ON_START", False)
    max_content_length: int = setting("MAX_CONTENT_LENGTH", MAX_BODY_BYTES)
    testing: bool = setting("TESTING", False)  # Flask's own


@dataclass(frozen=True)
class LimitSettings:  # per user and address of a shared server (accounts/limits.py); 0: off
    queries_per_minute: int = setting("LIMIT_QUERIES_PER_MINUTE", 30)
    address_queries_per_minute: int = setting("LIMIT_ADDRESS_QUERIES_PER_MINUTE", 120)
    model_calls_per_day: int = setting("LIMIT_MODEL_CALLS_PER_DAY", 500)
    upload_bytes_per_day: int = setting("LIMIT_UPLOAD_BYTES_PER_DAY", 500 * 2**20)
    queued_jobs_per_user: int = setting("LIMIT_QUEUED_JOBS_PER_USER", 5)


@dataclass(frozen=True)
class Settings:
    library: LibrarySettings = field(default_factory=LibrarySettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    writers: WriterSettings = field(default_factory=WriterSettings)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)

    @classmethod
    def of(cls, flat: typing.Mapping) -> "Settings":
        """The settings a mapping of flat names gives (app.config); a name it lacks keeps its default.
        ValueError names a setting whose value is not of its type."""
        return cls(**{group.name: read(group.type, flat) for group in dataclasses.fields(cls)})


def provider_names(f: dataclasses.Field) -> list[tuple[str, str, str]]:
    """(flat name, field of ProviderSettings, default) of each part of a provider's settings field."""
    default_model, default_models = f.metadata["defaults"]
    return list(zip(f.metadata["provider"], ("api_key", "model", "base_url", "models"),
                    ("", default_model, "", default_models)))


def read(kind, flat: typing.Mapping):
    """One group of settings from the flat names."""
    hints = typing.get_type_hints(kind)
    values = {}
    for f in dataclasses.fields(kind):
        if "provider" in f.metadata:
            given = {part: flat.get(name, default) for name, part, default in provider_names(f)}
            values[f.name] = ProviderSettings(**{part: str(value or "") for part, value in given.items()
                                                 if part != "models"}, models=names(given["models"]))
        elif f.metadata["name"] in flat:
            values[f.name] = typed(hints[f.name], flat[f.metadata["name"]], f.metadata["name"])
    return kind(**values)


def typed(hint, value, name: str):
    """value as the field's type: "off" a False, "8" an 8, "a, b" a tuple of names; None stays None where allowed."""
    optional = type(None) in typing.get_args(hint)
    kind = next((a for a in typing.get_args(hint) if a is not type(None)), hint) if optional else hint
    if value is None and optional:
        return None
    try:
        if kind is bool:
            return value not in FALSE
        if typing.get_origin(kind) is tuple:
            return names(value)
        return kind(value)
    except (TypeError, ValueError):
        raise ValueError(f"the setting {name} must be {getattr(kind, '__name__', kind)}, not {value!r}") from None


def names(value) -> tuple[str, ...]:
    """A list setting as a tuple of its names: from "a, b" (the environment) or a list (a test's config)."""
    return tuple(n.strip() for n in (value.split(",") if isinstance(value, str) else value or ()) if n.strip())


def defaults() -> dict:
    """Every setting's flat name with its default, as app.config starts (the providers' own included)."""
    flat = {}
    for group in dataclasses.fields(Settings):
        for f in dataclasses.fields(group.type):
            if "provider" in f.metadata:
                flat.update({name: default for name, _, default in provider_names(f)})
            elif f.metadata["name"] != "TESTING":
                value = f.default
                flat[f.metadata["name"]] = ",".join(value) if isinstance(value, tuple) else value
    return flat


def current() -> Settings:
    """The settings of the app a command or request runs in (create_app read them)."""
    from flask import current_app

    return current_app.extensions["settings"]


def paths() -> dict[str, str]:
    """Each flat name's place in the record: {"TOP_K": "search.top_k", "GEMINI_MODEL": "writers.gemini.model"}."""
    found = {}
    for group in dataclasses.fields(Settings):
        for f in dataclasses.fields(group.type):
            if "provider" in f.metadata:
                found.update({name: f"{group.name}.{f.name}.{part}" for name, part, _ in provider_names(f)})
            else:
                found[f.metadata["name"]] = f"{group.name}.{f.name}"
    return found
