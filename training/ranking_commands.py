"""The ranking's commands: record-rankings (a set's candidates, recorded through the real pipeline) and
train-ranking (ranking.json beside the judge). See training/train_ranking.py and checks/ranking.py.

Each prints its figures, the last line JSON.
"""
import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from configuration.settings import current


@click.command("record-rankings")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--split", type=click.Choice(["train", "calibrate"]), default=None,
              help="A QA dev set's judge split (squad-dev, heq-dev: calibrate).")
@click.option("--half", type=click.Choice(["tune"]), default=None, help="A set with halves: its tuning half.")
@click.option("--qrels", "qrels_split", default="test", show_default=True,
              help="The qrels file to read: our lay questions' train-he or train-en.")
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Search this corpus.jsonl instead of FOLDER's own.")
@click.option("--library", "library_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Search this built library (data/library) instead.")
@click.option("--limit", type=int, default=None, help="A seeded sample of this many questions.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def record_rankings(folder, split, half, qrels_split, corpus, library_dir, limit, out):
    """Record the candidates of the offline writer's looks at a set's questions, for train-ranking."""
    from measuring.datasets import is_beir_corpus
    from measuring.libraries import cached_library, eval_pipeline, ingested_library
    from training.lay_commands import SEIF_QUESTIONS
    from training.train_ranking import record
    from ingest.corpus import read_corpus
    from search import library
    from search.embedding import Embedder

    if not (split or half or qrels_split != "test"):
        raise click.UsageError("say which questions: --split calibrate, --half tune, or --qrels train-he")
    settings = current()
    embedder = Embedder.load(settings.models.embedding_model)
    if library_dir:
        searched = library.load(library_dir, embedder)
    elif corpus and not is_beir_corpus(corpus):  # a book (the Shulchan Arukh), searched as the shipped library is
        searched = ingested_library(corpus, embedder, Path("data/cache/eval"),
                                    SEIF_QUESTIONS if SEIF_QUESTIONS.exists() else None)
    else:
        searched = cached_library(read_corpus(corpus or folder / "corpus.jsonl"), embedder, settings.library.max_chars,
                                  settings.library.overlap_chars, Path("data/cache/eval"))
    try:
        rows = record(eval_pipeline(settings, searched, embedder), folder, split, half, limit, corpus=corpus,
                      qrels_split=qrels_split)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    out.write_text(json.dumps(rows) + "\n")
    click.echo(json.dumps({"set": folder.name, "looks": len(rows), "out": str(out)}))


@click.command("train-ranking")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", default="data/models/answerability", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="The judge's folder: ranking.json goes there.")
def train_ranking(files, out):
    """Fit the ranking on recorded candidates; prints its card as JSON."""
    from training.train_ranking import fit, save

    try:
        card = fit([row for path in files for row in json.loads(Path(path).read_text())])
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    card["recorded"] = [Path(p).name for p in files]
    save(card, out)
    click.echo(json.dumps(card, indent=2))


commands = [record_rankings, train_ranking]
