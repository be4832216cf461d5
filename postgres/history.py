"""The answer log in PostgreSQL: storage/history.py's History, method for method, on the tables of schema.py.

Entries are checked and shaped by the same functions (storage/history.entry_row and the checks), so both backends
refuse the same values with the same messages. Text search has History's meaning without its trigram index:
every word of the normalised query occurs in the normalised searched text (strpos, so no wildcard needs escaping).
The table provider_state holds each model provider's last state for every server's health.
Does not: delete answers, or hold the library (postgres/library.py).
"""
import json
import time

from psycopg.types.json import Jsonb

from hebrew.normal import normalise
from postgres.database import Database
from storage.answers import (
    RATINGS,
    SUMMARY_CHARS,
    UnknownAnswer,
    check_room,
    check_search,
    checked_comment,
    checked_correction,
    entry_row,
)

SUMMARY_COLUMNS = f"""a.id, a.session_id, a.question, left(a.answer, {SUMMARY_CHARS}) AS answer, a.query_type,
    a.generator, a.declined, a.review_status, a.created_at,
    (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id AND f.rating = 'up') AS up,
    (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id AND f.rating = 'down') AS down"""
SUMMARY_NAMES = ("id", "session_id", "question", "answer", "query_type", "generator", "declined", "review_status",
                 "created_at", "up", "down")
RECORD_COLUMNS = ("id", "session_id", "question", "standalone_question", "query_type", "language", "answer",
                  "declined", "citations", "passages", "generator", "model", "degraded_reason", "timings",
                  "created_at", "review_status", "corrected_text", "reviewed_at")


class PgHistory:
    """The answer log of one schema."""

    def __init__(self, db: Database):
        self.db = db

    def log(self, entry: dict) -> str:
        """Store one answer (History.log's entry); returns its new id."""
        row = entry_row(entry)
        for key in ("citations", "passages", "timings"):
            row[key] = Jsonb(json.loads(row[key]))
        self.db.execute(f"INSERT INTO answers ({', '.join(row)}) VALUES ({', '.join(['%s'] * len(row))})",
                        list(row.values()))
        return row["id"]

    def turns(self, session_id: str, limit: int = 3) -> list[dict]:
        """The session's last `limit` turns, oldest first: [{"question", "standalone_question", "answer"}]."""
        rows = self.db.execute("SELECT question, standalone_question, answer FROM answers WHERE session_id = %s "
                               "ORDER BY seq DESC LIMIT %s", (session_id, limit))
        return [dict(zip(("question", "standalone_question", "answer"), r)) for r in reversed(rows)]

    def search(self, text: str = "", session_id: str | None = None, status: str | None = None,
               limit: int = 20, offset: int = 0) -> tuple[list[dict], int]:
        """A page of answer summaries, newest first, and how many match in all (History.search)."""
        check_search(text, status, limit, offset)
        where, args = [], []
        for word in normalise(text).split():
            where.append("strpos(a.search_text, %s) > 0")
            args.append(word)
        if session_id is not None:
            where.append("a.session_id = %s")
            args.append(session_id)
        if status is not None:
            where.append("a.review_status = %s")
            args.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.db.execute(f"SELECT count(*) FROM answers a {clause}", args)[0][0]
        rows = self.db.execute(f"SELECT {SUMMARY_COLUMNS} FROM answers a {clause} ORDER BY a.seq DESC LIMIT %s OFFSET %s",
                               [*args, limit, offset])
        items = [dict(zip(SUMMARY_NAMES, r)) for r in rows]
        for item in items:
            item["feedback"] = {"up": item.pop("up"), "down": item.pop("down")}
        return items, total

    def get(self, answer_id: str) -> dict | None:
        """The full record of one answer with its feedback list, or None if there is none with that id."""
        rows = self.db.execute(f"SELECT {', '.join(RECORD_COLUMNS)} FROM answers WHERE id = %s", (answer_id,))
        if not rows:
            return None
        record = dict(zip(RECORD_COLUMNS, rows[0]))
        feedback = self.db.execute("SELECT rating, comment, created_at FROM feedback WHERE answer_id = %s ORDER BY id",
                                   (answer_id,))
        record["feedback"] = [dict(zip(("rating", "comment", "created_at"), f)) for f in feedback]
        return record

    def add_feedback(self, answer_id: str, rating: str, comment: str | None = None) -> dict:
        """Record an up or down rating with an optional comment; returns the answer's counts {"up": n, "down": n}."""
        comment = checked_comment(rating, comment)

        def add(conn):
            if conn.execute("SELECT 1 FROM answers WHERE id = %s FOR UPDATE", (answer_id,)).fetchone() is None:
                raise UnknownAnswer(answer_id)
            check_room(conn.execute("SELECT count(*) FROM feedback WHERE answer_id = %s", (answer_id,)).fetchone()[0])
            conn.execute("INSERT INTO feedback (answer_id, rating, comment, created_at) VALUES (%s, %s, %s, %s)",
                         (answer_id, rating, comment or None, time.time()))
            return dict(conn.execute("SELECT rating, count(*) FROM feedback WHERE answer_id = %s GROUP BY rating",
                                     (answer_id,)).fetchall())

        counts = self.db.run(add)
        return {r: counts.get(r, 0) for r in RATINGS}

    def review(self, answer_id: str, status: str, corrected_text: str | None = None) -> dict:
        """Set an answer's review status (History.review)."""
        corrected_text = checked_correction(status, corrected_text)
        reviewed_at = None if status == "unreviewed" else time.time()
        updated = self.db.execute("UPDATE answers SET review_status = %s, corrected_text = %s, reviewed_at = %s "
                                  "WHERE id = %s RETURNING id", (status, corrected_text, reviewed_at, answer_id))
        if not updated:
            raise UnknownAnswer(answer_id)
        return {"review_status": status, "corrected_text": corrected_text, "reviewed_at": reviewed_at}

    def save_provider_state(self, name: str, state: dict) -> None:
        self.db.execute("INSERT INTO provider_state (name, state, updated_at) VALUES (%s, %s, %s) ON CONFLICT (name) "
                        "DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
                        (name, Jsonb(state), time.time()))

    def provider_states(self) -> dict[str, dict]:
        return dict(self.db.execute("SELECT name, state FROM provider_state"))
