"""The library store's tables in SQLite, as numbered migrations (storage/database.migrate applies them).

1. documents, their chunks with embeddings, ingest jobs, and the generation counter;
2. readers and relations: a document's owner; a passage's community, era and authority; relations between passages;
3. the questions written beside a document's passages, each naming its passage's ref (search/asked.py).
The PostgreSQL backend's twin is postgres/schema.py.
"""
from models import RELATION_KINDS

MIGRATIONS = [  # each a tuple of statements, applied by storage/database.migrate
    (
        """CREATE TABLE documents (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            author TEXT,
            language TEXT,
            format TEXT NOT NULL,
            work TEXT,
            tier TEXT,
            community TEXT,
            filename TEXT,
            source_path TEXT,
            content_hash TEXT NOT NULL,
            status TEXT NOT NULL,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            metadata TEXT NOT NULL DEFAULT '{}',
            text TEXT NOT NULL
        )""",
        """CREATE TABLE chunks (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            section_path TEXT NOT NULL DEFAULT '[]',
            ref TEXT,
            parent_ref TEXT,
            embedding BLOB NOT NULL
        )""",
        "CREATE INDEX chunks_doc ON chunks(doc_id, seq)",
        """CREATE TABLE jobs (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            document_id TEXT,
            filename TEXT,
            stored_path TEXT,
            options TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL,
            stage TEXT NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            total INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            warnings TEXT NOT NULL DEFAULT '[]',
            owner INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        "CREATE INDEX jobs_status ON jobs(status, created_at)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO meta VALUES ('generation', '0')",
    ),
    (  # readers and relations (issue 16): a document's owner; a passage's community, era and authority; relations
        "ALTER TABLE documents ADD COLUMN owner INTEGER",
        "ALTER TABLE chunks ADD COLUMN community TEXT",
        "ALTER TABLE chunks ADD COLUMN era TEXT",
        "ALTER TABLE chunks ADD COLUMN authority_weight REAL NOT NULL DEFAULT 0",
        # a passage's community is its document's unless it says otherwise (as PostgreSQL's chunks always held it)
        "UPDATE chunks SET community = (SELECT d.community FROM documents d WHERE d.id = chunks.doc_id)",
        # what the Sefaria reader now writes, for libraries read before it did: the Rema's gloss is Ashkenazi,
        # and a canonical text's passages carry full authority
        "UPDATE chunks SET community = 'Ashkenazi' WHERE ref LIKE '%, Rema' AND parent_ref IS NOT NULL",
        # and in a document whose glosses were read apart from the rulings (ingest/json_reader.py), a ruling of the
        # Shulchan Arukh is the Mechaber's (Sephardi); both are of the Acharonim
        "UPDATE chunks SET community = coalesce(community, 'Sephardi'), era = 'Acharonim' WHERE parent_ref IS NOT NULL"
        " AND (ref LIKE '%, Rema' OR ref LIKE 'Shulchan Arukh, %')"
        " AND doc_id IN (SELECT doc_id FROM chunks WHERE ref LIKE '%, Rema')",
        "UPDATE chunks SET authority_weight = 1 WHERE doc_id IN (SELECT id FROM documents WHERE tier = 'canonical')",
        "CREATE INDEX chunks_ref ON chunks(ref)",
        f"""CREATE TABLE relations (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL,
            target TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN {RELATION_KINDS}),
            confidence REAL NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
            notes TEXT,
            created_by INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            UNIQUE (source, target, kind)
        )""",
        "CREATE INDEX relations_target ON relations(target)",
    ),
    (  # questions readers ask, written beside the passages that answer them (issue 46); they go with their document
        """CREATE TABLE asked (
            id INTEGER PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            ref TEXT NOT NULL,
            language TEXT NOT NULL,
            text TEXT NOT NULL,
            embedding BLOB NOT NULL,
            UNIQUE (doc_id, ref, text)
        )""",
    ),
]
