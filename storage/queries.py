"""What both backends read the same way: the document columns and filters, the row mappers, and the queries that
differ only in how a value is written into the SQL.

Each backend's store says how it speaks: `_rows(sql, args)` runs one query (`_write(work)` a transaction) written with `?` placeholders and returns
its rows (storage/database.SqliteSql, postgres/database.PgSql), and `visible_clause(reader)` is the SQL for the
documents a reader sees. Everything else is written once
here, so the embedded store (storage/store.py) and PostgreSQL's (postgres/store.py) cannot drift apart.
"""
import json
import time

from hebrew.script import detect_language
from models import DocumentInfo

DOCUMENT_COLUMNS = ("id", "title", "author", "language", "format", "work", "tier", "community", "filename",
                    "owner", "content_hash", "status", "chunk_count", "created_at", "updated_at", "metadata")
FILTER_FIELDS = ("language", "work", "tier", "community")
DOCUMENT_SELECT = f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents"
# The book manager's order: the reader's own uploads, then other uploads, then the built-in library (a corpus
# build's documents, which have no file name); the argument is the reader's id (None: personal, no owner).
OWN_FIRST = "CASE WHEN owner = ? THEN 0 WHEN filename IS NOT NULL THEN 1 ELSE 2 END"


def reader_id(reader) -> int | None:
    """The reader's user id, or None (personal server, or no reader)."""
    return getattr(reader, "id", None)


def from_json(value):
    """A JSON column's value: SQLite gives the text, PostgreSQL the value already read."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def document_of(row) -> DocumentInfo:
    """A documents row (DOCUMENT_COLUMNS, in order) as a DocumentInfo."""
    values = dict(zip(DOCUMENT_COLUMNS, row))
    values["metadata"] = from_json(values["metadata"])
    return DocumentInfo(**values)


class StoreQueries:
    """The queries both stores share; a store gives `_rows`, `_write`, `_json` and `visible_clause`."""

    def document(self, doc_id: str) -> DocumentInfo | None:
        rows = self._rows(f"{DOCUMENT_SELECT} WHERE id = ?", (doc_id,))
        return document_of(rows[0]) if rows else None

    def document_text(self, doc_id: str) -> str | None:
        rows = self._rows("SELECT text FROM documents WHERE id = ?", (doc_id,))
        return rows[0][0] if rows else None

    def source_path(self, doc_id: str) -> str | None:
        rows = self._rows("SELECT source_path FROM documents WHERE id = ?", (doc_id,))
        return rows[0][0] if rows else None

    def stats(self, reader=None) -> dict:
        """Documents and chunks that reader sees (None: all), and the generation."""
        visible, args = self.visible_clause(reader)
        docs, chunks = self._rows(f"SELECT count(*), coalesce(sum(chunk_count), 0) FROM documents WHERE {visible}",
                                  args)[0]
        return {"documents": docs, "chunks": int(chunks), "generation": self.generation()}

    def largest_documents(self, limit: int = 50, reader=None) -> list[dict]:
        """The documents reader sees with the most chunks: id, title, chunks."""
        visible, args = self.visible_clause(reader)
        rows = self._rows(f"SELECT id, title, chunk_count FROM documents WHERE {visible} "
                          "ORDER BY chunk_count DESC, id LIMIT ?", (*args, limit))
        return [{"id": r[0], "title": r[1], "chunks": r[2]} for r in rows]

    def catalog_rows(self, reader=None) -> tuple[list[DocumentInfo], list[tuple[str, list[str], str | None]]]:
        """The documents reader sees (None: all), and the (doc_id, section path, ref) of each of their passages in
        document order: what search/catalog.py makes the catalog of."""
        visible, args = self.visible_clause(reader)
        docs = [document_of(r) for r in self._rows(f"{DOCUMENT_SELECT} WHERE {visible}", args)]
        rows = self._rows(f"SELECT doc_id, section_path, {self.REF_COLUMN} FROM chunks WHERE doc_id IN "
                          f"(SELECT id FROM documents WHERE {visible}) ORDER BY doc_id, seq", args)
        return docs, [(doc_id, from_json(path), ref) for doc_id, path, ref in rows]

    def hidden_documents(self, reader) -> frozenset[str]:
        """Ids of the documents reader may not see (none for None or the personal owner)."""
        if reader is None or reader.everything:
            return frozenset()
        visible, args = self.visible_clause(reader)
        return frozenset(r[0] for r in self._rows(f"SELECT id FROM documents WHERE NOT {visible}", args))

    def same_file(self, file_sha256: str, reader=None) -> DocumentInfo | None:
        """The document reader sees that was made from a file with these bytes (metadata.file_sha256), if any."""
        visible, args = self.visible_clause(reader)
        found = self._rows(f"{DOCUMENT_SELECT} WHERE {self.JSON_TEXT.format(column='metadata', key='file_sha256')} = ?"
                           f" AND {visible} ORDER BY created_at, id LIMIT 1", (file_sha256, *args))
        return document_of(found[0]) if found else None

    def languages(self) -> set[str]:
        """The languages the library's documents are written in: as recorded, else as their titles' letters say
        (a corpus such as the default library records none)."""
        known = {r[0] for r in self._rows("SELECT DISTINCT language FROM documents WHERE language IS NOT NULL")}
        unknown = self._rows("SELECT title FROM documents WHERE language IS NULL AND title IS NOT NULL LIMIT 1000")
        return known | {found for found in (detect_language(title) for title, in unknown) if found}

    def asked_languages(self) -> set[str]:
        """The languages of the questions kept beside the library's passages (search/asked.py): a library may be
        asked in them though its texts are in another (the Shulchan Arukh's English questions)."""
        return {r[0] for r in self._rows("SELECT DISTINCT language FROM asked")}

    def holds_built_in(self, reader=None) -> bool:
        """Whether reader sees a document of the built-in library (made by a corpus build: the default library's
        Wikipedia leads), not an upload."""
        visible, args = self.visible_clause(reader)
        return bool(self._rows(f"SELECT 1 FROM documents WHERE {visible} AND filename IS NULL LIMIT 1", args))

    def holds_works(self, names: tuple[str, ...], reader=None) -> bool:
        """Whether reader sees a document whose work (else title) begins with one of names, letter case and all
        (LIKE would ignore case in SQLite only)."""
        visible, args = self.visible_clause(reader)
        named = " OR ".join(f"substr(coalesce(work, title), 1, {len(name)}) = ?" for name in names)
        return bool(self._rows(f"SELECT 1 FROM documents WHERE {visible} AND ({named}) LIMIT 1", [*args, *names]))

    def job_counts(self) -> dict[str, int]:
        """How many jobs are in each status."""
        return dict(self._rows("SELECT status, count(*) FROM jobs GROUP BY status"))

    def matching_documents(self, filters: dict) -> set[str]:
        """Ids of documents whose metadata equals every given filter (document_ids, language, work, tier, community)."""
        clauses, args = [], []
        if filters.get("document_ids") is not None:
            ids = list(filters["document_ids"])
            clauses.append(f"id IN ({', '.join('?' * len(ids))})" if ids else "false")
            args += ids
        for field in FILTER_FIELDS:
            if filters.get(field) is not None:  # a work is named as the catalog names it: its work, else its title
                clauses.append("coalesce(work, title) = ?" if field == "work" else f"{field} = ?")
                args.append(filters[field])
        return {row[0] for row in self._rows("SELECT id FROM documents" + (" WHERE " + " AND ".join(clauses) if clauses
                                                                              else ""), args)}

    def add_job(self, job_id: str, kind: str, document_id: str | None, filename: str | None,
                stored_path: str | None, options: dict) -> None:
        now = time.time()
        self._write(lambda execute: execute(
            "INSERT INTO jobs (id, kind, document_id, filename, stored_path, options, status, stage, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, 'queued', 'queued', ?, ?)",
            (job_id, kind, document_id, filename, stored_path, self._json(options), now, now)))
