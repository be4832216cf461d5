"""What record-decisions and record-rankings share: the library a set's looks are recorded over, and the looks
written to a file. Neither fits or measures anything.
"""
import json
from pathlib import Path

import click

from configuration.settings import current

corpus_option = click.option(
    "--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="Search this corpus.jsonl, or the library of this one book, instead of FOLDER's own.")
library_option = click.option(
    "--library", "library_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help="Search this built library (data/library) instead.")


def write_looks(record, folder: Path, corpus: Path | None, library_dir: Path | None, out: Path) -> None:
    """Record a set's looks with record(pipeline) over the library the set is searched in, write them to out and print
    their count: a built library, a book (searched as the shipped one is, with the questions written beside its
    seifim), or a BEIR corpus (FOLDER's own by default)."""
    from ingest.corpus import read_corpus
    from ingest.questions import seif_questions
    from measuring.datasets import is_beir_corpus
    from measuring.libraries import cached_library, eval_pipeline, ingested_library
    from search import library
    from search.embedding import Embedder

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model)
    if library_dir:
        searched = library.load(library_dir, embedder)
    elif corpus and not is_beir_corpus(corpus):
        searched = ingested_library(corpus, embedder, Path("data/cache/eval"), seif_questions())
    else:
        searched = cached_library(read_corpus(corpus or folder / "corpus.jsonl"), embedder, settings.library.max_chars,
                                  settings.library.overlap_chars, Path("data/cache/eval"))
    try:
        rows = record(eval_pipeline(settings, searched, embedder))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    out.write_text(json.dumps(rows) + "\n")
    click.echo(json.dumps({"set": folder.name, "looks": len(rows), "out": str(out)}))
