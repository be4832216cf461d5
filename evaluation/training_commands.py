"""Command-line tasks that train the project's models, run as `flask --app app <command>`: train-classifier,
train-reranker, train-judge, train-embedder, record-decisions and train-decision. Each prints its card as JSON.
"""
import json
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext


@click.command("train-classifier")
@click.option("--data", default="data/query_types.jsonl", type=click.Path(exists=True, path_type=Path))
@click.option("--encoder", default=None, help="Encoder id or path (default: EMBEDDING_MODEL); a DeBERTa id works if you have it.")
@click.option("--pooling", default="mean", type=click.Choice(["mean", "first_token"]))
@click.option("--out", default=None, type=click.Path(path_type=Path), help="Default: CLASSIFIER_DIR.")
@with_appcontext
def train_classifier(data: Path, encoder: str | None, pooling: str, out: Path | None):
    """Train the query classifier's head and print its held-out accuracy."""
    from evaluation.train_classifier import train

    config = current_app.config
    metrics = train(data, encoder or config["EMBEDDING_MODEL"], out or Path(config["CLASSIFIER_DIR"]), pooling)
    click.echo(json.dumps(metrics, indent=2))


@click.command("train-reranker")
@click.option("--set", "sets", multiple=True, default=["../shared/data/squad-dev"], show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path), help="BEIR folder to train on (repeatable).")
@click.option("--base", default=None, help="Encoder id or path (default: EMBEDDING_MODEL).")
@click.option("--out", default="reranker_model", show_default=True, type=click.Path(path_type=Path))
@click.option("--queries", default=2000, show_default=True, help="Questions per set.")
@click.option("--negatives", default=3, show_default=True, help="BM25 hard negatives per question.")
@click.option("--random-negatives", default=1, show_default=True, help="Random (easy) negatives per question.")
@click.option("--lr", default=5e-5, show_default=True)
@click.option("--layers", default=None, type=int, help="Keep only the first N encoder layers (faster).")
@click.option("--max-length", default=256, show_default=True)
@click.option("--epochs", default=1, show_default=True)
@with_appcontext
def train_reranker(sets, base, out, queries, negatives, random_negatives, lr, layers, max_length, epochs):
    """Train a cross-encoder from a shipped encoder on question-passage pairs with BM25 hard negatives."""
    from evaluation.train_reranker import train

    card = train(list(sets), base or current_app.config["EMBEDDING_MODEL"], out, queries, negatives, layers,
                 max_length, epochs, lr=lr, random_negatives=random_negatives)
    click.echo(json.dumps(card))


@click.command("train-judge")
@click.option("--set", "sets", multiple=True, show_default=True,
              default=["../shared/data/squad-dev", "../shared/data/heq-dev", "../shared/data/squad2-train-head"],
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="BEIR QA folder to train on (repeatable); its train split only (squad2-train-head: all of it).")
@click.option("--out", default="data/models/answerability", show_default=True, type=click.Path(path_type=Path))
@click.option("--layers", default=6, show_default=True, help="Encoder layers of e5 the judge keeps.")
@click.option("--trained-layers", default=2, show_default=True, help="Of them, the upper layers that are trained.")
@click.option("--epochs", default=2, show_default=True)
@click.option("--same", default=1, show_default=True, help="Negatives per question from its own paragraph.")
@click.option("--mine/--no-mine", default=True, show_default=True,
              help="Negatives mined by the project's own search over the sets' corpora and the default library's.")
@click.option("--limit", default=None, type=int, help="Train on this many pairs only (a quick try).")
@with_appcontext
def train_judge(sets, out, layers, trained_layers, epochs, same, mine, limit):
    """Train the answerability judge on QA pairs; prints its card as JSON."""
    from evaluation.judge_mining import Miner
    from evaluation.train_judge import train

    miner = Miner.over(current_app.config, list(sets)) if mine else None
    click.echo(json.dumps(train(list(sets), out, layers=layers, trained_layers=trained_layers, epochs=epochs,
                                 limit=limit, miner=miner, same=same), indent=2))


@click.command("train-embedder")
@click.option("--book", default="../shared/data/shulchan-arukh/shulchan_arukh_he.jsonl", show_default=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path), help="The Shulchan Arukh's jsonl.")
@click.option("--set", "sets", multiple=True, default=["../shared/data/heq-dev"], show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="BEIR QA folder whose train split to add (repeatable).")
@click.option("--out", default="data/models/embedder", show_default=True, type=click.Path(path_type=Path))
@click.option("--trained-layers", default=2, show_default=True, help="The upper layers of e5 that are trained.")
@click.option("--epochs", default=1, show_default=True)
@click.option("--max-length", default=128, show_default=True)
@click.option("--limit", default=None, type=int, help="Train on this many pairs only (a quick try).")
@with_appcontext
def train_embedder(book, sets, out, trained_layers, epochs, max_length, limit):
    """Fit multilingual-e5-small to the Shulchan Arukh (search/tuned.py loads it)."""
    from evaluation.train_embedder import train

    click.echo(json.dumps(train(book, list(sets), out, trained_layers=trained_layers, epochs=epochs,
                                max_length=max_length, limit=limit), indent=2))


@click.command("record-decisions")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--split", type=click.Choice(["train", "calibrate"]), default="calibrate", show_default=True,
              help="A QA dev set's judge split, asked with its gold and without.")
@click.option("--half", type=click.Choice(["tune"]), default=None, help="A set with halves: its tuning half, asked once.")
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Search this corpus.jsonl instead of FOLDER's own.")
@click.option("--library", "library_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Search this built library (data/library) instead.")
@click.option("--limit", type=int, default=None, help="A seeded sample of this many questions.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def record_decisions(folder, split, half, corpus, library_dir, limit, out):
    """Record the offline writer's looks at a set's questions, for train-decision; prints their count."""
    from evaluation.libraries import cached_library, eval_pipeline
    from evaluation.train_decision import record
    from ingest.corpus import read_corpus
    from search import library
    from search.embedding import Embedder

    config = current_app.config
    embedder = Embedder.load(config["EMBEDDING_MODEL"])
    searched = library.load(library_dir, embedder) if library_dir else cached_library(
        read_corpus(corpus or folder / "corpus.jsonl"), embedder, config["MAX_CHARS"], config["OVERLAP_CHARS"],
        Path("data/cache/eval"))
    try:
        rows = record(eval_pipeline(config, searched, embedder), folder, None if half else split, half, limit,
                      corpus=corpus)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    out.write_text(json.dumps(rows) + "\n")
    click.echo(json.dumps({"set": folder.name, "looks": len(rows), "out": str(out)}))


@click.command("train-decision")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", default="data/models/answerability", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="The judge's folder: decision.json goes there.")
@with_appcontext
def train_decision(files, out):
    """Fit the answer-or-decline decision on recorded looks; prints its card as JSON."""
    from evaluation.train_decision import fit, save

    card = fit([row for path in files for row in json.loads(Path(path).read_text())])
    card["recorded"] = [Path(p).name for p in files]
    save(card, out)
    judge = json.loads((out / "judge.json").read_text())  # the judge's own threshold, chosen on the same looks
    judge.update(threshold=card["judge_alone"]["threshold"], threshold_source="train-decision's judge_alone, on "
                 + ", ".join(sorted(card["fitted_on"])), calibration=card["judge_alone"])
    (out / "judge.json").write_text(json.dumps(judge, indent=2, ensure_ascii=False) + "\n")
    click.echo(json.dumps(card, indent=2))


commands = [train_classifier, train_reranker, train_judge, train_embedder, record_decisions, train_decision]
