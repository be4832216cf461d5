"""The answer log in its own SQLite file: every answer, its feedback and its review, searchable.

One row per answer (the question, the standalone question it was rewritten to, the answer, its citations, the
passages it was given, which writer and model wrote it, timings) plus a feedback table (up/down and a comment).
A reviewer sets a status per answer: unreviewed, approved, corrected (with the corrected text) or rejected.
`turns()` gives the last turns of a session, which question/rewrite.py uses to rewrite follow-up questions.
Each answer keeps its question's vector, so similar() finds reviewed answers to like questions (storage/reviewed.py).
The file also holds the table of each model provider's last state (storage/provider_state.py), and the keys and
models an admin set (storage/provider_settings.py).
Text search is over question, standalone question and answer, in any script: the searched text is kept in a
normalised form (NFKC, case-folded, Hebrew vowel points and cantillation removed, punctuation as spaces), so
"שָׁבַּת" finds "שבת" and "Shabbat?" finds "shabbat". Every word of the query must occur (as a substring); words of
three or more characters go through an FTS5 trigram index when this SQLite has the trigram tokenizer (3.34+),
shorter ones (and all of them without FTS5) through LIKE with escaped wildcards.
Opened and migrated as store.py is (database.py: WAL, a busy timeout, a connection per thread and process).
Does not: delete answers, or hold the library's documents (store.py does).
"""
import json
import re
import sqlite3
import time
from pathlib import Path

from hebrew.normal import normalise
from storage.answers import (  # noqa: F401 - the limits, SESSION_ID and the errors are imported from here too
    JSON_COLUMNS,
    MAX_COMMENT_CHARS,
    MAX_CORRECTED_CHARS,
    MAX_PAGE,
    MAX_SEARCH_CHARS,
    PASSAGE_FIELDS,
    RATINGS,
    SESSION_ID,
    STATUSES,
    SUMMARY_CHARS,
    SUMMARY_COLUMNS,
    HistoryError,
    UnknownAnswer,
    UnknownFeedback,
    check_entry,
    check_feedback_room,
    check_search,
    checked_comment,
    checked_correction,
    entry_row,
    own,
    readable_by,
    summary,
)
from storage import reviewed
from storage.accounts import Accounts
from storage.database import Connections, NewerSchema, Transaction, migrate
from storage.history_schema import FTS_TABLE, MIGRATIONS  # noqa: F401 - MIGRATIONS is imported from here too
from storage.provider_settings import StoredProviders

def trigram_available() -> bool:
    """Whether this SQLite has FTS5 with the trigram tokenizer."""
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
    except sqlite3.OperationalError:
        return False
    return True


class History:
    """The answer log: one SQLite file, a connection per thread."""

    def __init__(self, path: Path, use_fts: bool = True):
        self.path = Path(path)
        self._connections = Connections(self.path, private=True)  # it holds the providers' keys and users' answers
        self.migrate()
        self.fts = use_fts and trigram_available()
        if self.fts:
            self._index()

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (autocommit; transactions are explicit)."""
        return self._connections.db

    @property
    def accounts(self) -> Accounts:
        """The users, tokens, sessions and usage counts kept in the same file."""
        return Accounts(self._connections)

    @property
    def provider_settings(self) -> StoredProviders:
        """The providers' keys and models an admin set, kept in the same file."""
        return StoredProviders(self._connections)

    def migrate(self) -> None:
        """Apply the migrations this file has not seen (storage/database.py); a newer file is refused."""
        try:
            migrate(self.db, MIGRATIONS, self.path, "FLASK_HISTORY_DB")
        except NewerSchema as exc:
            raise HistoryError(str(exc)) from None

    def _index(self) -> None:
        """Create the trigram index if missing, and rebuild it if it lags (it was off while answers were logged)."""
        with Transaction(self.db) as db:
            db.execute(FTS_TABLE)
            indexed = db.execute("SELECT count(*) FROM answers_fts_docsize").fetchone()[0]
            if indexed != db.execute("SELECT count(*) FROM answers").fetchone()[0]:
                db.execute("INSERT INTO answers_fts(answers_fts) VALUES ('rebuild')")

    def log(self, entry: dict) -> str:
        """Store one answer; returns its new id.

        Args:
            entry: the /api/query response body (keys it does not use are ignored) with "session_id" added.
                Required: "question", "answer". Optional: "session_id", "standalone_question" (default: question),
                "query_type", "language", "declined", "citations" (list of dicts), "passages" (list of dicts, kept as
                {n, id, doc_id, title, ref, ref_he, chunk}), "generator", "model", "degraded_reason", "timings" or "timings_ms",
                "question_vector" and "question_model" (the standalone question's vector and embedder: similar()).
        """
        row = entry_row(entry)
        row["question_vector"] = reviewed.blob(row["question_vector"])
        row.update({k: json.dumps(row[k], ensure_ascii=False) for k in JSON_COLUMNS})  # Hebrew stays readable
        with Transaction(self.db) as db:
            cursor = db.execute(f"INSERT INTO answers ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                                list(row.values()))
            if self.fts:
                db.execute("INSERT INTO answers_fts(rowid, search_text) VALUES (?, ?)",
                           (cursor.lastrowid, row["search_text"]))
        return row["id"]

    def turns(self, session_id: str, limit: int = 3, reader=None) -> list[dict]:
        """The session's last `limit` turns that reader asked (None: anyone), oldest first:
        [{"question", "standalone_question", "answer"}]."""
        user = own(reader)
        rows = self.db.execute(
            "SELECT question, standalone_question, answer FROM answers WHERE session_id = ?"
            " AND (? IS NULL OR user_id = ?) ORDER BY rowid DESC LIMIT ?", (session_id, user, user, limit),
        ).fetchall()
        return [dict(r) for r in reversed(rows)]

    def search(self, text: str = "", session_id: str | None = None, status: str | None = None,
               limit: int = 20, offset: int = 0, reader=None, hidden: frozenset[str] = frozenset()
               ) -> tuple[list[dict], int]:
        """A page of the summaries of the answers reader may read, newest first, and how many match in all.

        Args:
            text: words that must all occur in the question, standalone question or answer (any order, any script).
            session_id, status: only that session's answers, only answers with that review status.
            reader: who reads (accounts/roles.Reader): their own answers, or all for reviewers; None: all.
            limit, offset: the page (1..MAX_PAGE rows, skipping offset).
            hidden: documents hidden from reader. An answer that rests on any, the reader's own as another's, is
                withheld from reader, so text never finds it (its matches and its count would tell the withheld text
                word by word); the reader's own, when tiers they no longer have were searched for it.
        Returns:
            (items, total); an item has id, session_id, question, answer (its first SUMMARY_CHARS characters),
            query_type, generator, declined, review_status, created_at and feedback {"up": n, "down": n}.
        """
        check_search(text, status, limit, offset)
        where, args = self._text_filter(text)
        if where and hidden and reader is not None:  # the reader's own answers too: access is checked as they are read
            where.append("NOT EXISTS (SELECT 1 FROM json_each(a.passages) p "
                         "WHERE json_extract(p.value, '$.doc_id') IN (SELECT value FROM json_each(?)))")
            args.append(json.dumps(sorted(hidden)))
        if session_id is not None:
            where.append("a.session_id = ?")
            args.append(session_id)
        if status is not None:
            where.append("a.review_status = ?")
            args.append(status)
        if readable_by(reader) is not None:
            where.append("a.user_id = ?")
            args.append(reader.id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.db.execute(f"SELECT count(*) FROM answers a {clause}", args).fetchone()[0]
        rows = self.db.execute(f"SELECT {SUMMARY_COLUMNS} FROM answers a {clause} ORDER BY a.rowid DESC LIMIT ? OFFSET ?",
                               [*args, limit, offset]).fetchall()
        return [summary(r) for r in rows], total

    def _text_filter(self, text: str) -> tuple[list[str], list]:
        """SQL conditions (and their arguments) that every word of text occurs in an answer's search text."""
        words = normalise(text).split()  # no NUL: check_search refuses it (it would end an FTS5 query early)
        where, args = [], []
        if self.fts and any(len(w) >= 3 for w in words):  # a trigram index finds substrings of 3 characters and more
            where.append("a.rowid IN (SELECT rowid FROM answers_fts WHERE answers_fts MATCH ?)")
            args.append(" AND ".join('"' + w.replace('"', '""') + '"' for w in words if len(w) >= 3))
            words = [w for w in words if len(w) < 3]
        for word in words:
            where.append("a.search_text LIKE ? ESCAPE '\\'")
            args.append("%" + re.sub(r"([\\%_])", r"\\\1", word) + "%")
        return where, args

    def similar(self, vector, model: str, threshold: float, limit: int = 3, reader=None,
                hidden: frozenset[str] = frozenset(), exclude: str | None = None) -> list[dict]:
        """Reviewed answers reader may read, nearest first, their question's cosine with vector >= threshold."""
        vector = reviewed.check_similar(vector, threshold, limit)
        rows = self.db.execute(reviewed.SQLITE, reviewed.sqlite_args(model, reader, hidden, exclude)).fetchall()
        return reviewed.nearest(rows, vector, threshold, limit)

    def get(self, answer_id: str, reader=None) -> dict | None:
        """The full record of one answer with its feedback list, or None if there is none with that id that
        reader may read (another user's answer is as absent as one never logged)."""
        row = self.db.execute("SELECT * FROM answers WHERE id = ?", (answer_id,)).fetchone()
        if row is None or readable_by(reader) not in (None, row["user_id"]):
            return None
        record = {k: row[k] for k in row.keys() if k not in ("rowid", "search_text", *reviewed.VECTOR_COLUMNS)}
        record["declined"] = bool(record["declined"])
        for key in JSON_COLUMNS:  # tiers is NULL in answers logged before readers were recorded
            record[key] = json.loads(record[key]) if record[key] is not None else None
        feedback = self.db.execute("SELECT id, rating, comment, created_at, user_id FROM feedback WHERE answer_id = ? "
                                   "ORDER BY id", (answer_id,)).fetchall()
        record["feedback"] = [dict(f) for f in feedback]
        return record

    def add_feedback(self, answer_id: str, rating: str, comment: str | None = None, user: int | None = None,
                     entry: int | None = None, keep_comment: bool = False) -> dict:
        """Record an up or down rating with an optional comment, given by user (None: a personal server's owner);
        with entry, change that entry of theirs instead (a comment written after the thumb, or the other thumb;
        keep_comment: its comment stays as it was). Returns {"entry": its id, "up": n, "down": n}."""
        comment, entry = checked_comment(rating, comment), check_entry(entry)
        with Transaction(self.db) as db:
            self._require(db, answer_id)
            if entry is not None:
                changed = db.execute("UPDATE feedback SET rating = ?, comment = CASE WHEN ? THEN comment ELSE ? END "
                                     "WHERE id = ? AND answer_id = ? AND user_id IS ?",
                                     (rating, keep_comment, comment or None, entry, answer_id, user)).rowcount
                if not changed:
                    raise UnknownFeedback(entry)
            else:
                count = db.execute("SELECT count(*) FROM feedback WHERE answer_id = ?", (answer_id,)).fetchone()[0]
                check_feedback_room(count)
                entry = db.execute("INSERT INTO feedback (answer_id, rating, comment, created_at, user_id) "
                                   "VALUES (?, ?, ?, ?, ?)", (answer_id, rating, comment or None, time.time(),
                                                              user)).lastrowid
            counts = dict(db.execute("SELECT rating, count(*) FROM feedback WHERE answer_id = ? GROUP BY rating",
                                     (answer_id,)).fetchall())
        return {"entry": entry, **{r: counts.get(r, 0) for r in RATINGS}}

    def review(self, answer_id: str, status: str, corrected_text: str | None = None,
               reviewer: int | None = None) -> dict:
        """Set an answer's review status; returns {"review_status", "corrected_text", "reviewed_at"}.

        Any status may follow any other. "corrected" needs corrected_text; the other statuses take none and clear
        a previous correction; "unreviewed" also clears reviewed_at. reviewer: the user who reviewed (recorded).
        """
        corrected_text = checked_correction(status, corrected_text)
        reviewed_at = None if status == "unreviewed" else time.time()
        with Transaction(self.db) as db:
            self._require(db, answer_id)
            db.execute("UPDATE answers SET review_status = ?, corrected_text = ?, reviewed_at = ?, reviewed_by = ? "
                       "WHERE id = ?", (status, corrected_text, reviewed_at, reviewer, answer_id))
        return {"review_status": status, "corrected_text": corrected_text, "reviewed_at": reviewed_at}

    def save_provider_state(self, name: str, state: dict) -> None:
        """Keep a model provider's last state (storage/provider_state.py)."""
        self.db.execute("INSERT INTO provider_state (name, state, updated_at) VALUES (?, ?, ?) ON CONFLICT(name) "
                        "DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
                        (name, json.dumps(state), time.time()))

    def load_provider_states(self) -> dict[str, dict]:
        """The providers' last states by name."""
        return {name: json.loads(state) for name, state in self.db.execute("SELECT name, state FROM provider_state")}

    @staticmethod
    def _require(db, answer_id: str) -> None:
        """Raise UnknownAnswer unless answer_id is in the history."""
        if db.execute("SELECT 1 FROM answers WHERE id = ?", (answer_id,)).fetchone() is None:
            raise UnknownAnswer(answer_id)
