"""The answer log in PostgreSQL: storage/history.py's History, method for method, on the tables of schema.py.

Entries are checked and shaped by the same functions (storage/answers.py: entry_row and the checks), so both
backends refuse the same values with the same messages and return the same shapes. Text search has History's
meaning without its trigram index: every word of the normalised query occurs in the normalised searched text
(strpos, so no wildcard needs escaping; a scan of the answers, as pg_trgm is not assumed).
PostgreSQL's text and jsonb cannot hold the NUL character, nor jsonb NaN: a NUL is dropped from what is stored
and searched, NaN and infinities are stored as null, and an id or session id holding a NUL matches no answer.
Each answer keeps its question's vector in a pgvector column; similar() ranks the reviewed ones by inner product.
Feedback locks its answer's row, so concurrent buttons never pass MAX_FEEDBACK_PER_ANSWER.
The table provider_state holds each model provider's last state for every server's health; provider_settings the
keys and models an admin set (postgres/provider_settings.py).
Does not: delete answers, or hold the library (postgres/library.py).
"""
import time

from psycopg.types.json import Jsonb

from hebrew.normal import normalise
from postgres.accounts import PgAccounts
from postgres.database import Database, storable
from postgres.database import lookup_value as _key
from postgres.provider_settings import PgStoredProviders
from storage import answers, reviewed

RECORD_COLUMNS = ("id", "session_id", "question", "standalone_question", "query_type", "language", "answer",
                  "declined", "citations", "passages", "generator", "model", "degraded_reason", "timings",
                  "created_at", "review_status", "corrected_text", "reviewed_at", "user_id", "community", "tiers",
                  "mode", "reviewed_by")  # History.get's keys, in its order


class PgHistory:
    """The answer log of one schema."""

    def __init__(self, db: Database):
        self.db = db

    @property
    def accounts(self) -> PgAccounts:
        """The users, tokens, sessions and usage counts kept in the same schema."""
        return PgAccounts(self.db)

    @property
    def provider_settings(self) -> PgStoredProviders:
        """The providers' keys and models an admin set, kept in the same schema."""
        return PgStoredProviders(self.db)

    def log(self, entry: dict) -> str:
        """Store one answer (History.log's entry); returns its new id."""
        row = {k: storable(v) for k, v in answers.entry_row(entry).items()}
        row.update({k: Jsonb(row[k]) for k in answers.JSON_COLUMNS})
        # a retry after a commit whose answer was lost finds its row there already
        self.db.execute(f"INSERT INTO answers ({', '.join(row)}) VALUES ({', '.join(['%s'] * len(row))}) "
                        "ON CONFLICT (id) DO NOTHING", list(row.values()))
        return row["id"]

    def turns(self, session_id: str, limit: int = 3, reader=None) -> list[dict]:
        """The session's last `limit` turns that reader asked (History.turns)."""
        user = answers.own(reader)
        rows = self.db.execute("SELECT question, standalone_question, answer FROM answers WHERE session_id = %s "
                               "AND (%s::integer IS NULL OR user_id = %s) ORDER BY seq DESC LIMIT %s",
                               (_key(session_id), user, user, limit))
        return [dict(zip(("question", "standalone_question", "answer"), r)) for r in reversed(rows)]

    def search(self, text: str = "", session_id: str | None = None, status: str | None = None,
               limit: int = 20, offset: int = 0, reader=None, hidden: frozenset[str] = frozenset()
               ) -> tuple[list[dict], int]:
        """A page of the summaries of the answers reader may read, newest first, and how many match (History.search;
        text never finds another user's answer that rests on a document hidden from reader)."""
        answers.check_search(text, status, limit, offset)
        where, args = [], []
        for word in storable(normalise(text)).split():
            where.append("strpos(a.search_text, %s) > 0")
            args.append(word)
        if where and hidden and reader is not None:  # the reader's own answers too, as storage/history.py
            where.append("NOT EXISTS (SELECT 1 FROM jsonb_array_elements(a.passages) p WHERE p->>'doc_id' = ANY(%s))")
            args.append(sorted(hidden))
        for column, value in (("session_id", session_id), ("review_status", status)):
            if value is not None:
                where.append(f"a.{column} = %s")
                args.append(_key(value))
        if answers.readable_by(reader) is not None:
            where.append("a.user_id = %s")
            args.append(reader.id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""

        def page(conn):
            total = conn.execute(f"SELECT count(*) FROM answers a {clause}", args).fetchone()[0]
            rows = conn.execute(f"SELECT {answers.SUMMARY_COLUMNS} FROM answers a {clause} ORDER BY a.seq DESC "
                                "LIMIT %s OFFSET %s", [*args, limit, offset]).fetchall()
            return rows, total

        rows, total = self.db.run(page)
        return [answers.summary(dict(zip(answers.SUMMARY_NAMES, r))) for r in rows], total

    def similar(self, vector, model: str, threshold: float, limit: int = 3, reader=None,
                hidden: frozenset[str] = frozenset(), exclude: str | None = None) -> list[dict]:
        """Reviewed answers reader may read, nearest first, their question's cosine with vector >= threshold
        (History.similar), ranked by pgvector."""
        vector = reviewed.check_similar(vector, threshold, limit)
        rows = self.db.execute(reviewed.POSTGRES, reviewed.postgres_args(vector, model, threshold, limit, reader,
                                                                         hidden, _key(exclude)))
        return [reviewed.item(row[:-1], row[-1]) for row in rows]

    def get(self, answer_id: str, reader=None) -> dict | None:
        """The full record of one answer with its feedback list, or None if there is none that reader may read."""
        def read(conn):
            found = conn.execute(f"SELECT {', '.join(RECORD_COLUMNS)} FROM answers WHERE id = %s",
                                 (_key(answer_id),)).fetchone()
            record = dict(zip(RECORD_COLUMNS, found)) if found is not None else None
            if record is None or answers.readable_by(reader) not in (None, record["user_id"]):
                return None
            feedback = conn.execute("SELECT id, rating, comment, created_at, user_id FROM feedback WHERE answer_id = %s "
                                    "ORDER BY id", (answer_id,)).fetchall()
            record["feedback"] = [dict(zip(("id", "rating", "comment", "created_at", "user_id"), f)) for f in feedback]
            return record

        return self.db.run(read)

    def add_feedback(self, answer_id: str, rating: str, comment: str | None = None, user: int | None = None,
                     entry: int | None = None, keep_comment: bool = False) -> dict:
        """Record or change a rating (History.add_feedback): {"entry": its id, "up": n, "down": n}."""
        comment = storable(answers.checked_comment(rating, comment))
        entry = answers.check_entry(entry)

        def add(conn):
            if conn.execute("SELECT 1 FROM answers WHERE id = %s FOR UPDATE", (_key(answer_id),)).fetchone() is None:
                raise answers.UnknownAnswer(answer_id)
            if entry is not None:
                changed = conn.execute("UPDATE feedback SET rating = %s, comment = CASE WHEN %s THEN comment ELSE %s END "
                                       "WHERE id = %s AND answer_id = %s AND user_id IS NOT DISTINCT FROM %s",
                                       (rating, keep_comment, comment or None, entry, answer_id, user)).rowcount
                if not changed:
                    raise answers.UnknownFeedback(entry)
                given = entry
            else:
                count = conn.execute("SELECT count(*) FROM feedback WHERE answer_id = %s", (answer_id,)).fetchone()[0]
                answers.check_feedback_room(count)
                given = conn.execute("INSERT INTO feedback (answer_id, rating, comment, created_at, user_id) VALUES "
                                     "(%s, %s, %s, %s, %s) RETURNING id",
                                     (answer_id, rating, comment or None, time.time(), user)).fetchone()[0]
            counts = dict(conn.execute("SELECT rating, count(*) FROM feedback WHERE answer_id = %s GROUP BY rating",
                                       (answer_id,)).fetchall())
            return given, counts

        given, counts = self.db.run(add)
        return {"entry": given, **{r: counts.get(r, 0) for r in answers.RATINGS}}

    def review(self, answer_id: str, status: str, corrected_text: str | None = None,
               reviewer: int | None = None) -> dict:
        """Set an answer's review status (History.review): {"review_status", "corrected_text", "reviewed_at"}."""
        corrected_text = storable(answers.checked_correction(status, corrected_text))
        reviewed_at = None if status == "unreviewed" else time.time()
        updated = self.db.execute("UPDATE answers SET review_status = %s, corrected_text = %s, reviewed_at = %s, "
                                  "reviewed_by = %s WHERE id = %s RETURNING id",
                                  (status, corrected_text, reviewed_at, reviewer, _key(answer_id)))
        if not updated:
            raise answers.UnknownAnswer(answer_id)
        return {"review_status": status, "corrected_text": corrected_text, "reviewed_at": reviewed_at}

    def save_provider_state(self, name: str, state: dict) -> None:
        """Keep a model provider's last state (storage/provider_state.py)."""
        self.db.execute("INSERT INTO provider_state (name, state, updated_at) VALUES (%s, %s, %s) ON CONFLICT (name) "
                        "DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
                        (storable(name), Jsonb(storable(state)), time.time()))

    def load_provider_states(self) -> dict[str, dict]:
        """The providers' last states by name."""
        return dict(self.db.execute("SELECT name, state FROM provider_state"))

