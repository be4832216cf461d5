"""Evidenz's tables in PostgreSQL, after the Halacha AI schema of the seeds, as numbered migrations.

Each migration is a list of statements, formatted with the schema's name and the embedder's dimension (the
`vector(dim)` column is fixed when the schema is made). `flask --app app db upgrade` applies them
(database.upgrade); a server refuses a schema newer than MIGRATIONS.

- corpora: each with its tier, license and source URL. A document belongs to one; a chunk's tier is its corpus's
  (a foreign key on (corpus_id, corpus_tier), which follows a corpus that changes tier).
- documents and chunks: the embedded store's columns, plus the seed's work, section_ref, parent_ref, language,
  author, era, community, minhag_scope, authority_weight, corpus_tier, tags and topics. A chunk that is not
  canonical has authority_weight 0 (a check).
- terms, postings and bm25: BM25's term statistics, kept in the same transaction as the chunks they count, so
  search computes the embedded engine's scores in SQL (postgres/search.py).
- relations between chunks; jobs, and the files they read; answers with their feedback and review, and their
  question's vector (`vector(dim)`, matched against the reviewed answers: storage/reviewed.py); providers' last state,
  and the keys and models an admin set for them.
"""
from models import RELATION_KINDS

OLD_RELATION_KINDS = ("disputes", "overrides", "explains", "cites", "parallels", "quotes")  # migration 1's, never used
STATUSES = ("unreviewed", "approved", "corrected", "rejected")

MIGRATIONS = [
    [
        "CREATE TABLE {schema}.library_meta (key text PRIMARY KEY, value text NOT NULL)",
        """CREATE TABLE {schema}.corpora (
            id text PRIMARY KEY,
            title text NOT NULL,
            tier text NOT NULL DEFAULT 'public',
            license text,
            source_url text,
            created_at double precision NOT NULL DEFAULT extract(epoch FROM now()),
            UNIQUE (id, tier)
        )""",
        """CREATE TABLE {schema}.documents (
            id text PRIMARY KEY,
            corpus_id text NOT NULL REFERENCES {schema}.corpora(id),
            title text NOT NULL,
            author text,
            language text,
            format text NOT NULL,
            work text,
            tier text,
            community text,
            filename text,
            source_path text,
            content_hash text NOT NULL,
            status text NOT NULL,
            chunk_count integer NOT NULL DEFAULT 0,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL,
            metadata jsonb NOT NULL DEFAULT '{{}}',
            text text NOT NULL
        )""",
        "CREATE INDEX documents_updated ON {schema}.documents (updated_at DESC, id)",
        """CREATE TABLE {schema}.chunks (
            id bigserial PRIMARY KEY,
            chunk_id text NOT NULL UNIQUE,
            doc_id text NOT NULL REFERENCES {schema}.documents(id) ON DELETE CASCADE,
            corpus_id text NOT NULL,
            corpus_tier text NOT NULL,
            seq integer NOT NULL,
            title text NOT NULL,
            text text NOT NULL,
            start_offset integer NOT NULL,
            end_offset integer NOT NULL,
            section_path jsonb NOT NULL DEFAULT '[]',
            section_ref text,
            parent_ref text,
            work text,
            language text,
            author text,
            era text,
            community text,
            minhag_scope text,
            authority_weight real NOT NULL DEFAULT 0 CHECK (authority_weight BETWEEN 0 AND 1),
            tags text[] NOT NULL DEFAULT '{{}}',
            topics text[] NOT NULL DEFAULT '{{}}',
            length integer NOT NULL,
            embedding vector({dim}) NOT NULL,
            FOREIGN KEY (corpus_id, corpus_tier) REFERENCES {schema}.corpora(id, tier) ON UPDATE CASCADE,
            CONSTRAINT authority_is_canonical CHECK (corpus_tier = 'canonical' OR authority_weight = 0)
        )""",
        "CREATE INDEX chunks_doc ON {schema}.chunks (doc_id, seq)",
        "CREATE INDEX chunks_embedding ON {schema}.chunks USING hnsw (embedding vector_cosine_ops) "
        "WITH (m = 16, ef_construction = 64)",
        "CREATE TABLE {schema}.terms (id serial PRIMARY KEY, term text NOT NULL UNIQUE, df integer NOT NULL)",
        """CREATE TABLE {schema}.postings (
            term_id integer NOT NULL,
            chunk bigint NOT NULL REFERENCES {schema}.chunks(id) ON DELETE CASCADE,
            tf integer NOT NULL,
            length integer NOT NULL,  -- the chunk's, so scoring reads postings alone
            PRIMARY KEY (term_id, chunk)
        )""",
        "CREATE INDEX postings_chunk ON {schema}.postings (chunk)",
        """CREATE TABLE {schema}.bm25 (
            one boolean PRIMARY KEY DEFAULT true CHECK (one),
            n bigint NOT NULL DEFAULT 0,
            total_length bigint NOT NULL DEFAULT 0,
            mean_idf double precision NOT NULL DEFAULT 0,
            k1 double precision NOT NULL DEFAULT 1.5,
            b double precision NOT NULL DEFAULT 0.75,
            epsilon double precision NOT NULL DEFAULT 0.25
        )""",
        "INSERT INTO {schema}.bm25 DEFAULT VALUES",
        f"""CREATE TABLE {{schema}}.relations (
            id bigserial PRIMARY KEY,
            from_chunk text NOT NULL REFERENCES {{schema}}.chunks(chunk_id) ON DELETE CASCADE,
            to_chunk text NOT NULL REFERENCES {{schema}}.chunks(chunk_id) ON DELETE CASCADE,
            kind text NOT NULL CHECK (kind IN {OLD_RELATION_KINDS}),
            note text,
            created_at double precision NOT NULL DEFAULT extract(epoch FROM now())
        )""",
        "CREATE INDEX relations_from ON {schema}.relations (from_chunk)",
        "CREATE INDEX relations_to ON {schema}.relations (to_chunk)",
        """CREATE TABLE {schema}.jobs (
            id text PRIMARY KEY,
            kind text NOT NULL,
            document_id text,
            filename text,
            stored_path text,
            options jsonb NOT NULL DEFAULT '{{}}',
            status text NOT NULL,
            stage text NOT NULL,
            done integer NOT NULL DEFAULT 0,
            total integer NOT NULL DEFAULT 0,
            error text,
            warnings jsonb NOT NULL DEFAULT '[]',
            owner integer,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL
        )""",
        "CREATE INDEX jobs_status ON {schema}.jobs (status, created_at)",
        """CREATE TABLE {schema}.files (
            key text PRIMARY KEY,
            size bigint NOT NULL,
            data bytea NOT NULL,
            created_at double precision NOT NULL DEFAULT extract(epoch FROM now())
        )""",
        f"""CREATE TABLE {{schema}}.answers (
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            session_id text,
            question text NOT NULL,
            standalone_question text NOT NULL,
            query_type text,
            language text,
            answer text NOT NULL,
            declined boolean NOT NULL DEFAULT false,
            citations jsonb NOT NULL DEFAULT '[]',
            passages jsonb NOT NULL DEFAULT '[]',
            generator text,
            model text,
            degraded_reason text,
            timings jsonb NOT NULL DEFAULT '{{{{}}}}',
            created_at double precision NOT NULL,
            review_status text NOT NULL DEFAULT 'unreviewed' CHECK (review_status IN {STATUSES}),
            corrected_text text,
            reviewed_at double precision,
            search_text text NOT NULL
        )""",
        "CREATE INDEX answers_session ON {schema}.answers (session_id, seq)",
        "CREATE INDEX answers_status ON {schema}.answers (review_status, seq)",
        """CREATE TABLE {schema}.feedback (
            id bigserial PRIMARY KEY,
            answer_id text NOT NULL REFERENCES {schema}.answers(id) ON DELETE CASCADE,
            rating text NOT NULL CHECK (rating IN ('up', 'down')),
            comment text,
            created_at double precision NOT NULL
        )""",
        "CREATE INDEX feedback_answer ON {schema}.feedback (answer_id, id)",
        "CREATE TABLE {schema}.provider_state (name text PRIMARY KEY, state jsonb NOT NULL,"
        " updated_at double precision NOT NULL)",
    ],
    [  # readers and relations (issue 16), as storage/store.py's and storage/history.py's latest migrations
        "ALTER TABLE {schema}.documents ADD COLUMN owner integer",
        "UPDATE {schema}.chunks SET community = 'Ashkenazi' "
        "WHERE section_ref LIKE '%, Rema' AND parent_ref IS NOT NULL",
        "UPDATE {schema}.chunks SET community = coalesce(community, 'Sephardi'), era = 'Acharonim' "
        "WHERE parent_ref IS NOT NULL AND (section_ref LIKE '%, Rema' OR section_ref LIKE 'Shulchan Arukh, %') "
        "AND doc_id IN (SELECT doc_id FROM {schema}.chunks WHERE section_ref LIKE '%, Rema')",
        "UPDATE {schema}.chunks SET authority_weight = 1 WHERE corpus_tier = 'canonical'",
        "CREATE INDEX chunks_ref ON {schema}.chunks (section_ref)",
        "DROP TABLE {schema}.relations",
        f"""CREATE TABLE {{schema}}.relations (
            id bigserial PRIMARY KEY,
            source text NOT NULL,
            target text NOT NULL,
            kind text NOT NULL CHECK (kind IN {RELATION_KINDS}),
            confidence real NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
            notes text,
            created_by integer,
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL,
            UNIQUE (source, target, kind)
        )""",
        "CREATE INDEX relations_target ON {schema}.relations (target)",
        "ALTER TABLE {schema}.answers ADD COLUMN user_id integer",
        "ALTER TABLE {schema}.answers ADD COLUMN community text",
        "ALTER TABLE {schema}.answers ADD COLUMN tiers jsonb",
        "ALTER TABLE {schema}.answers ADD COLUMN mode text",
        "ALTER TABLE {schema}.answers ADD COLUMN reviewed_by integer",
        "CREATE INDEX answers_user ON {schema}.answers (user_id, seq)",
        """CREATE TABLE {schema}.users (
            id serial PRIMARY KEY,
            name text NOT NULL UNIQUE,
            password_hash text,
            role text NOT NULL,
            tiers jsonb,
            display_name text,
            community text,
            customs jsonb NOT NULL DEFAULT '[]',
            poskim jsonb NOT NULL DEFAULT '[]',
            answer_language text,
            created_at double precision NOT NULL,
            disabled boolean NOT NULL DEFAULT false
        )""",
        """CREATE TABLE {schema}.tokens (
            id serial PRIMARY KEY,
            user_id integer NOT NULL REFERENCES {schema}.users(id) ON DELETE CASCADE,
            name text,
            hash text NOT NULL UNIQUE,
            created_at double precision NOT NULL,
            expires_at double precision,
            revoked_at double precision,
            last_used_at double precision
        )""",
        """CREATE TABLE {schema}.sessions (
            hash text PRIMARY KEY,
            user_id integer NOT NULL REFERENCES {schema}.users(id) ON DELETE CASCADE,
            csrf text NOT NULL,
            created_at double precision NOT NULL,
            expires_at double precision NOT NULL
        )""",
        "CREATE TABLE {schema}.usage (key text NOT NULL, window_start bigint NOT NULL, count integer NOT NULL, "
        "PRIMARY KEY (key, window_start))",
    ],
    [  # passage sentences' vectors, computed once (search/sentence_vectors.py), and the passages warmed
        "CREATE TABLE {schema}.sentence_vectors (key bytea PRIMARY KEY, vector bytea NOT NULL)",
        "CREATE TABLE {schema}.warmed_passages (key bytea PRIMARY KEY)",
    ],
    [  # similar questions (issue 34): each answer's standalone question as a vector, and its embedder; no index,
        # as the reviewed answers a question is matched against are few (storage/reviewed.py)
        "ALTER TABLE {schema}.answers ADD COLUMN question_vector vector({dim})",
        "ALTER TABLE {schema}.answers ADD COLUMN question_model text",
    ],
    [  # feedback that sticks (issue 34): who gave it, as storage/history.py's latest migration
        "ALTER TABLE {schema}.feedback ADD COLUMN user_id integer",
    ],
    [  # the providers' keys and models an admin set (issue 34; storage/provider_settings.py)
        """CREATE TABLE {schema}.provider_settings (
            name text PRIMARY KEY,
            api_key text,
            model text,
            updated_at double precision NOT NULL,
            updated_by text
        )""",
    ],
    [  # one statement a search (issue 37): BM25 read from the postings' index alone (it carries tf and length), and
        # each chunk's vector kept in its row, not out of line, so an exact scan reads no TOAST (chunks stored before
        # keep theirs out of line until `VACUUM FULL chunks` rewrites them: docs/postgres.md)
        "ALTER TABLE {schema}.postings DROP CONSTRAINT postings_pkey",
        "ALTER TABLE {schema}.postings ADD PRIMARY KEY (term_id, chunk) INCLUDE (tf, length)",
        "ALTER TABLE {schema}.chunks ALTER COLUMN embedding SET STORAGE MAIN",
    ],
    [  # questions readers ask, written beside the passages that answer them (issue 46; search/asked.py): they go
        # with their document, and every server keeps them in memory (postgres/asked.py)
        """CREATE TABLE {schema}.asked (
            id bigserial PRIMARY KEY,
            doc_id text NOT NULL REFERENCES {schema}.documents(id) ON DELETE CASCADE,
            ref text NOT NULL,
            language text NOT NULL,
            text text NOT NULL,
            embedding vector({dim}) NOT NULL,
            UNIQUE (doc_id, ref, text)
        )""",
    ],
]
