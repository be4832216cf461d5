"""The ranking's commands: record-rankings (a set's candidates, recorded through the real pipeline) and
train-ranking (ranking.json beside the judge). See training/train_ranking.py and checks/ranking.py.

Each prints its figures, the last line JSON.
"""
import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from training.looks import corpus_option, library_option



@click.command("record-rankings")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--split", type=click.Choice(["train", "calibrate"]), default=None,
              help="A QA dev set's judge split (squad-dev, heq-dev: calibrate).")
@click.option("--half", type=click.Choice(["tune"]), default=None, help="A set with halves: its tuning half.")
@click.option("--qrels", "qrels_split", default="test", show_default=True,
              help="The qrels file to read: our lay questions' train-he or train-en.")
@corpus_option
@library_option
@click.option("--limit", type=int, default=None, help="A seeded sample of this many questions.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def record_rankings(folder, split, half, qrels_split, corpus, library_dir, limit, out):
    """Record the candidates of the offline writer's looks at a set's questions, for train-ranking."""
    from training.looks import write_looks
    from training.train_ranking import record

    if not (split or half or qrels_split != "test"):
        raise click.UsageError("say which questions: --split calibrate, --half tune, or --qrels train-he")
    write_looks(lambda pipeline: record(pipeline, folder, split, half, limit, corpus=corpus, qrels_split=qrels_split),
                folder, corpus, library_dir, out)


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
