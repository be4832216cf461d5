"""The interfaces both storage backends implement, declared: the embedded one (SQLite, FAISS, BM25 files) and
PostgreSQL's. tests/test_protocols.py checks that each backend's class has every method here with the same
parameters, and that real instances of both pass isinstance().

Store      documents and ingest jobs (storage/store.py, postgres/store.py)
History    the logged answers, their feedback and reviews (storage/history.py, postgres/history.py)
Accounts   users, tokens, sessions, usage counts (storage/accounts.py, postgres/accounts.py)
StoredProviders  the providers' keys and models an admin set (storage/ and postgres/provider_settings.py)
Relations  relations between passages (storage/relation_store.py, postgres/relation_store.py)
Library    the store with its search indexes, files and kept sentence vectors (search/library.py, postgres/library.py);
           both subclass it for the one method they share
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from models import DocumentInfo, Job, Relation

@runtime_checkable
class Store(Protocol):
    def add_job(self, job_id: str, kind: str, document_id: str | None, filename: str | None,
                stored_path: str | None, options: dict) -> None:
        ...

    def catalog_rows(self, reader=None) -> tuple[list[DocumentInfo], list[tuple[str, list[str], str | None]]]:
        """The documents reader sees (None: all), and the (doc_id, section path, ref) of each of their passages in"""

    def document(self, doc_id: str) -> DocumentInfo | None:
        ...

    def document_text(self, doc_id: str) -> str | None:
        ...

    def documents(self, limit: int = 100, offset: int = 0, search: str = '',
                  reader=None) -> tuple[list[DocumentInfo], int]:
        """A page of the documents reader sees (None: all), newest first, optionally those whose title contains"""

    def generation(self) -> int:
        """A counter bumped by every change to documents or chunks."""

    def hidden_documents(self, reader) -> frozenset[str]:
        """Ids of the documents reader may not see (none for None or the personal owner)."""

    def job(self, job_id: str) -> Job | None:
        ...

    def job_counts(self) -> dict[str, int]:
        """How many jobs are in each status."""

    def largest_documents(self, limit: int = 50, reader=None) -> list[dict]:
        """The documents reader sees with the most chunks: id, title, chunks."""

    def matching_documents(self, filters: dict) -> set[str]:
        """Ids of documents whose metadata equals every given filter (document_ids, language, work, tier, community)."""

    def queued_jobs(self, owner: int) -> int:
        """Jobs a user submitted that are waiting or running."""

    def section_rows(self, doc_ids=None) -> list[tuple[int, list[str], str | None]]:
        """(rowid, section path, ref) of every passage of the documents (None: all), for the section filter."""

    def languages(self) -> set[str]:
        """The languages the library's documents are written in: as recorded, else as their titles' letters say."""

    def asked_languages(self) -> set[str]:
        """The languages of the questions kept beside the library's passages."""

    def holds_built_in(self, reader=None) -> bool:
        """Whether reader sees a document of the built-in library."""

    def vouch(self, doc_id: str, by: int | None) -> bool:
        """Record that a reviewer or admin vouches for an upload's tier; whether the document exists."""

    def same_file(self, file_sha256: str, reader=None) -> DocumentInfo | None:
        """The document reader sees that was made from a file with these bytes (metadata.file_sha256), if any."""

    def source_path(self, doc_id: str) -> str | None:
        ...

    def stats(self, reader=None) -> dict:
        """Documents and chunks that reader sees (None: all), and the generation."""

    def update_job(self, job_id: str, **fields) -> None:
        ...


@runtime_checkable
class History(Protocol):
    @property
    def accounts(self):
        """The users, tokens, sessions and usage counts kept in the same file."""

    def add_feedback(self, answer_id: str, rating: str, comment: str | None = None, user: int | None = None,
                     entry: int | None = None, keep_comment: bool = False) -> dict:
        """Record an up or down rating with an optional comment, given by user; with entry, change that entry of
        theirs instead. Returns {"entry": its id, "up": n, "down": n}."""

    def get(self, answer_id: str, reader=None) -> dict | None:
        """The full record of one answer with its feedback list, or None if there is none with that id that"""

    def load_provider_states(self) -> dict[str, dict]:
        """The providers' last states by name."""

    @property
    def provider_settings(self):
        """The providers' keys and models an admin set, kept in the same file."""

    def log(self, entry: dict) -> str:
        """Store one answer; returns its new id."""

    def review(self, answer_id: str, status: str, corrected_text: str | None = None,
               reviewer: int | None = None) -> dict:
        """Set an answer's review status; returns {"review_status", "corrected_text", "reviewed_at"}."""

    def save_provider_state(self, name: str, state: dict) -> None:
        """Keep a model provider's last state (storage/provider_state.py)."""

    def search(self, text: str = '', session_id: str | None = None, status: str | None = None, limit: int = 20,
               offset: int = 0, reader=None, hidden: frozenset[str] = frozenset()) -> tuple[list[dict], int]:
        """A page of the summaries of the answers reader may read, newest first, and how many match in all."""

    def similar(self, vector, model: str, threshold: float, limit: int = 3, reader=None,
                hidden: frozenset[str] = frozenset(), exclude: str | None = None) -> list[dict]:
        """Reviewed answers reader may read, nearest first, their question's cosine with vector >= threshold."""

    def turns(self, session_id: str, limit: int = 3, reader=None) -> list[dict]:
        """The session's last `limit` turns that reader asked (None: anyone), oldest first:"""


@runtime_checkable
class Accounts(Protocol):
    def add_session(self, session_hash: str, user_id: int, csrf: str, expires_at: float) -> None:
        ...

    def add_token(self, user_id: int, token_hash: str, name: str | None, expires_at: float | None) -> int:
        ...

    def count(self) -> int:
        ...

    def count_use(self, key: str, window: int, amount: int = 1, since: int | None = None) -> int:
        """Add amount to key's count in a window and return the new count (atomic across processes)."""

    def create(self, name: str, role: str, password_hash: str | None, tiers=None) -> dict:
        ...

    def end_session(self, session_hash: str) -> None:
        ...

    def revoke(self, token_id: int | None = None, user_id: int | None = None) -> int:
        """Revoke one token, or every token and session of a user; returns how many tokens were revoked."""

    def session(self, session_hash: str) -> tuple[dict, str] | None:
        """(the enabled user, the CSRF token) of a live session."""

    def token_user(self, token_hash: str) -> dict | None:
        """The enabled user of a live (unrevoked, unexpired) token, marking the token used."""

    def tokens(self, user_id: int) -> list[dict]:
        ...

    def update(self, user_id: int, **fields) -> dict | None:
        """Set some of: role, tiers (None: the role's), password_hash, disabled and the profile fields."""

    def user(self, user_id: int) -> dict | None:
        ...

    def user_named(self, name: str) -> dict | None:
        ...

    def users(self) -> list[dict]:
        ...


@runtime_checkable
class StoredProviders(Protocol):
    def all(self) -> dict[str, dict]:
        """Each stored provider's row by name: {"api_key", "model" (None: not set), "updated_at", "updated_by"}."""

    def clear(self, name: str) -> bool:
        """Remove a provider's row (the environment's settings stand again); whether there was one."""

    def put(self, name: str, changes: dict, by: str | None) -> None:
        """Set the given fields of a provider's row (a value of None clears it), leaving the others as they are."""


@runtime_checkable
class Relations(Protocol):
    def add(self, source, target, kind, confidence=1.0, notes=None, created_by=None) -> tuple[Relation, bool]:
        """Record a relation, or update the one with the same (source, target, kind); (it, whether it is new)."""

    def delete(self, relation_id: int) -> bool:
        ...

    def get(self, relation_id: int) -> Relation | None:
        ...

    def holders(self, keys) -> dict[str, set[str]]:
        """For each passage key that is in the library, the ids of the documents holding it."""

    def list(self, limit: int = 100, offset: int = 0, passage: str | None = None) -> tuple[list[Relation], int]:
        """A page of the relations (those touching passage, when given), oldest first; and their total."""

    def of(self, keys, kinds=None) -> list[Relation]:
        """The relations that touch any of the passage keys, in either direction (of the given kinds only)."""

    def update(self, relation_id: int, changes: dict) -> Relation | None:
        """Change a relation's kind, confidence or notes; None when there is no such relation."""


@runtime_checkable
class Library(Protocol):
    store: Store
    embedder: object  # search/embedding.Embedder: embeds passages and questions
    files: object  # where uploads and the documents' sources are kept
    leases: object  # which process runs which ingest job
    sentences: object  # search/sentence_vectors.SentenceVectors: kept sentence vectors
    closed = False  # a PostgreSQL library is closed with its pool; the embedded one never is

    def health(self) -> dict | None:
        """Whether the library's database can be reached, and at which schema version; None: it has none."""
        return None

    def current(self):
        """The newest view, reloading the saved indexes when another process changed the library."""

    def delete_document(self, doc_id: str) -> int:
        """Remove a document and its chunks from the store and the indexes; returns how many chunks went."""

    def matching_documents(self, filters: dict) -> set[str]:
        """Ids of the documents whose metadata equals every given filter (the store's)."""
        return self.store.matching_documents(filters)

    def passage_pages(self, size: int):
        """Every passage of the library, size at a time, in library order (what the worker warms)."""

    def reembed(self, progress: bool = False) -> int:
        """Embed again the passages whose vectors were made from another form of text; returns how many."""

    def reembed_status(self) -> dict | None:
        """What /api/health says of a re-embed waiting or running; None when there is none."""

    @property
    def relations(self):
        """The relations between passages (storage/relation_store.py), kept in the library's store."""

    def replace_documents(self, entries: list[tuple]) -> None:
        """Add or replace documents: (info, text, chunks, embeddings, source path) each, in one transaction."""
