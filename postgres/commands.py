"""`flask --app app db ...`: create or upgrade the PostgreSQL schema, and move an embedded library into it.

    db upgrade                 create the schema (or apply the migrations it lacks) for EMBEDDING_MODEL's vectors
    db status                  the server, pgvector and schema versions, and what the library holds
    db import-library PATH     copy an embedded library folder (and --history FILE) in, without re-embedding
"""
import time
from pathlib import Path

import click

from flask.cli import AppGroup

from configuration.settings import current
from postgres import schema
from postgres.backend import database, uses_postgres
from postgres.database import Unavailable

db_commands = AppGroup("db", help="The PostgreSQL backend (DATABASE_URL): schema and moving in.")


def _database():
    settings = current()
    if not uses_postgres(settings):
        raise click.UsageError("DATABASE_URL is not set; set it to postgresql://user:password@host/dbname")
    return database(settings)


def _embedder():
    from search.embedding import Embedder

    return Embedder.load(current().models.embedding_model, current().models.runtime)


@db_commands.command("upgrade")
def upgrade_command():
    """Create the schema, or apply the migrations it has not seen."""
    from postgres.library import create

    db = _database()
    try:
        before = db.version()
        after = create(db, _embedder())
    except Unavailable as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"schema {db.schema}: version {before} -> {after} (this Evidenz knows {len(schema.MIGRATIONS)})")


@db_commands.command("status")
def status_command():
    """The database's versions and the library's size."""
    db = _database()
    click.echo(db.health())
    if db.version():
        click.echo(dict(db.execute("SELECT 'documents', count(*) FROM documents UNION ALL "
                                   "SELECT 'chunks', count(*) FROM chunks UNION ALL SELECT 'answers', count(*) FROM answers")))


@db_commands.command("import-library")
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--history", "history", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="An answer history file to copy in too (e.g. data/history.sqlite3).")
def import_library_command(path: Path, history: Path | None):
    """Copy the embedded library at PATH into the schema (creating it), keeping its vectors."""
    from postgres.library import PgLibrary
    from postgres.moving_in import import_history, import_library

    db = _database()
    started = time.perf_counter()
    target = PgLibrary.open(db, _embedder(), create_schema=True)
    counts = import_library(path, target, progress=lambda c: click.echo(f"  {c['documents']:,} documents, "
                                                                        f"{c['chunks']:,} chunks ..."))
    if history:
        counts["answers"] = import_history(history, db)
    click.echo(f"Imported {counts} in {time.perf_counter() - started:.1f} s; "
               f"the library has {target.store.stats()['chunks']:,} chunks.")
