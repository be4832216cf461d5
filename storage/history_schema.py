"""The answer log's SQLite schema (storage/history.py): its migrations, in order, and the trigram index over its
searched text. A migration is a tuple of statements; a file records how many it has (PRAGMA user_version).
"""
from storage.accounts import ACCOUNT_TABLES
from storage.answers import RATINGS, STATUSES
from storage.provider_settings import TABLE as PROVIDER_SETTINGS_TABLE

MIGRATIONS = [
    (
        f"""CREATE TABLE answers (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            session_id TEXT,
            question TEXT NOT NULL,
            standalone_question TEXT NOT NULL,
            query_type TEXT,
            language TEXT,
            answer TEXT NOT NULL,
            declined INTEGER NOT NULL DEFAULT 0,
            citations TEXT NOT NULL DEFAULT '[]',
            passages TEXT NOT NULL DEFAULT '[]',
            generator TEXT,
            model TEXT,
            degraded_reason TEXT,
            timings TEXT NOT NULL DEFAULT '{{}}',
            created_at REAL NOT NULL,
            review_status TEXT NOT NULL DEFAULT 'unreviewed' CHECK (review_status IN {STATUSES}),
            corrected_text TEXT,
            reviewed_at REAL,
            search_text TEXT NOT NULL
        )""",
        "CREATE INDEX answers_session ON answers(session_id, rowid)",
        "CREATE INDEX answers_status ON answers(review_status, rowid)",
        f"""CREATE TABLE feedback (
            id INTEGER PRIMARY KEY,
            answer_id TEXT NOT NULL REFERENCES answers(id) ON DELETE CASCADE,
            rating TEXT NOT NULL CHECK (rating IN {RATINGS}),
            comment TEXT,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX feedback_answer ON feedback(answer_id, id)",
    ),
    (  # storage/provider_state.py
        "CREATE TABLE provider_state (name TEXT PRIMARY KEY, state TEXT NOT NULL, updated_at REAL NOT NULL)",
    ),
    (  # readers (issue 16): who asked, as whom, in which mode; who reviewed; the users (storage/accounts.py)
        "ALTER TABLE answers ADD COLUMN user_id INTEGER",
        "ALTER TABLE answers ADD COLUMN community TEXT",
        "ALTER TABLE answers ADD COLUMN tiers TEXT",
        "ALTER TABLE answers ADD COLUMN mode TEXT",
        "ALTER TABLE answers ADD COLUMN reviewed_by INTEGER",
        "CREATE INDEX answers_user ON answers(user_id, rowid)",
        *ACCOUNT_TABLES,
    ),
    ("ALTER TABLE answers ADD COLUMN question_vector BLOB",  # similar questions (issue 34): storage/reviewed.py
     "ALTER TABLE answers ADD COLUMN question_model TEXT"),
    (  # feedback that sticks (issue 34): who gave it, so that they can change it and see it again
        "ALTER TABLE feedback ADD COLUMN user_id INTEGER",
    ),
    (PROVIDER_SETTINGS_TABLE,),  # the providers' keys and models an admin set (issue 34)
]

# Derived from answers.search_text (external content), so it can be dropped and rebuilt at any time.
FTS_TABLE = ("CREATE VIRTUAL TABLE IF NOT EXISTS answers_fts USING fts5("
             "search_text, content='answers', content_rowid='rowid', tokenize='trigram')")
