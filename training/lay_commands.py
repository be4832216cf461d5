"""The commands that read our lay questions (data/lay-questions' train splits): calibrate-across, learn-glossary,
train-lay-reranker.

Each prints its figures, the last line JSON.
"""
import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from configuration.settings import current

BOOK = "../shared/data/shulchan-arukh/shulchan_arukh_he.jsonl"


@click.command("calibrate-across")
@click.option("--lay", default="data/lay-questions", show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--book", default=BOOK, show_default=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--limit", default=150, show_default=True, help="Questions sampled from each train split.")
@click.option("--seed", default=0, show_default=True)
@click.option("--write/--no-write", default=False, help="Put the threshold into the judge's decision.json.")
@click.option("--looks", "looks_file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Also keep the Hebrew questions' looks here, for train-decision (the lay questions' own domain).")
@click.option("--bare", is_flag=True,
              help="Search the book without the questions written beside its seifim, as a user's own import is; "
                   "--looks keeps its looks as set lay-he-bare.")
@with_appcontext
def calibrate_across_command(lay: Path, book: Path, limit: int, seed: int, write: bool, looks_file: Path | None,
                             bare: bool):
    """Choose the decision's threshold for questions asked across languages on the lay questions' train splits (an
    English one over the Shulchan Arukh's Hebrew); the last line is JSON."""
    from checks.decision import FILE
    from ingest.questions import seif_questions
    from measuring.libraries import eval_pipeline, ingested_library
    from search.embedding import Embedder
    from training.calibrate_across import choose, record

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model)
    questions = None if bare else seif_questions()  # as the shipped library searches
    pipeline = eval_pipeline(settings, ingested_library(book, embedder, Path("data/cache/eval"), questions), embedder)
    judge = pipeline.generator.writers["offline"].judge
    if judge is None or judge.decision is None:
        raise click.UsageError("the offline writer has no decision to calibrate: set JUDGE_DIR to the judge's folder, "
                               "with the decision.json of `flask --app app train-decision`")
    decision = judge.decision
    rows = [row for split in ("train-en", "train-he") for row in record(pipeline, lay, split, limit, seed)]
    if looks_file:  # asked in the seifim's own language: looks like those train-decision fits on, set "lay-he"
        name = "lay-he-bare" if bare else "lay-he"
        looks_file.write_text(json.dumps([{**r, "set": name} for r in rows if r["set"] == "train-he"]))
    result = {**choose(rows, decision), "embedding_model": embedder.name, "limit": limit, "seed": seed}
    for split, shown in (result["at_threshold"] or {}).items():
        click.echo(f"{split} at {result['threshold']}: answered {shown['answered']} with its seifim, "
                   f"declined {shown['declined']} without (at {decision.threshold}: "
                   f"{result['at_decision_threshold'][split]['balanced']} balanced)")
    if write and result["threshold"] is not None:
        path = Path(settings.models.judge_dir) / FILE
        card = json.loads(path.read_text())
        card["across"] = result
        path.write_text(json.dumps(card, indent=2) + "\n")
    click.echo(json.dumps(result))


@click.command("learn-glossary")
@click.option("--lay", default="data/lay-questions", show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--book", default=BOOK, show_default=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--split", default="train", show_default=True, help="The qrels split learned from (never a test split).")
@click.option("--min-count", default=3, show_default=True)
@click.option("--min-share", default=0.25, show_default=True)
@click.option("--min-lift", default=5.0, show_default=True)
@click.option("--max-terms", default=2, show_default=True)
@click.option("--out", default="data/glossary-learned.tsv", show_default=True,
              type=click.Path(dir_okay=False, path_type=Path))
def learn_glossary_command(lay, book, split, min_count, min_share, min_lift, max_terms, out):
    """Learn everyday words' expansions into the text's words from the lay questions; writes a glossary table."""
    from training.learn_glossary import learn, write

    try:
        learned = learn(lay, book, split, min_count, min_share, min_lift, max_terms)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    how = (f"Learned by `flask --app app learn-glossary --split {split} --min-count {min_count} --min-share "
           f"{min_share} --min-lift {min_lift} --max-terms {max_terms}` from {lay}'s {split} split and the seifim\n"
           "that answer each question (training/learn_glossary.py); do not edit by hand, learn it again.")
    write(learned, out, how)
    click.echo(json.dumps({"words": len(learned), "terms": sum(len(f) for f in learned.values()), "out": str(out)}))


@click.command("train-lay-reranker")
@click.option("--lay", default="data/lay-questions", show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--book", default=BOOK, show_default=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--split", default="fit", show_default=True, help="The qrels split trained on (fit leaves dev out).")
@click.option("--base", default="intfloat/multilingual-e5-small", show_default=True, help="Encoder id or path.")
@click.option("--negatives", default=3, show_default=True, help="Hard negatives per question, from other simanim.")
@click.option("--layers", default=6, show_default=True, help="Keep only the first N encoder layers (faster).")
@click.option("--max-length", default=256, show_default=True)
@click.option("--epochs", default=1, show_default=True)
@click.option("--lr", default=5e-5, show_default=True)
@click.option("--out", default="reranker_lay", show_default=True, type=click.Path(path_type=Path))
@with_appcontext
def train_lay_reranker_command(lay, book, split, base, negatives, layers, max_length, epochs, lr, out):
    """Train a cross-encoder that reads Hebrew on the lay questions, with hard negatives from our own hybrid
    search; prints its card as JSON. Measure it with `eval --mode rerank` and RERANKER_MODEL set to out."""
    from training.lay_reranker import lay_pairs, library_passages
    from training.train_reranker import fit

    passages, search = library_passages(current(), book)
    try:
        pairs = lay_pairs(lay, split, passages, search, negatives)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    card = {"training_sets": [f"{lay.name}/{split}"], "negatives_per_question": negatives,
            "negatives_from": "our hybrid search, outside the question's simanim", "languages": ["he", "en"]}
    click.echo(json.dumps(fit(pairs, base, out, card, layers, max_length, epochs, lr=lr)))


commands = [calibrate_across_command, learn_glossary_command, train_lay_reranker_command]
