"""Command-line tasks that train the project's models, run as `flask --app app <command>`: train-classifier,
train-reranker, train-judge, train-embedder, record-decisions and train-decision, and the thresholds chosen on dev sets:
calibrate-support, calibrate-decline, calibrate-judge, calibrate-similar. Each prints its card as JSON.
"""
import json
from pathlib import Path

import click

from flask.cli import with_appcontext

from configuration.settings import current
from training.looks import corpus_option, library_option


@click.command("train-classifier")
@click.option("--data", default="data/query_types.jsonl", type=click.Path(exists=True, path_type=Path))
@click.option("--encoder", default=None, help="Encoder id or path (default: EMBEDDING_MODEL); a DeBERTa id works if you have it.")
@click.option("--pooling", default="mean", type=click.Choice(["mean", "first_token"]))
@click.option("--out", default=None, type=click.Path(path_type=Path), help="Default: CLASSIFIER_DIR.")
@with_appcontext
def train_classifier(data: Path, encoder: str | None, pooling: str, out: Path | None):
    """Train the query classifier's head and print its held-out accuracy."""
    from training.train_classifier import train

    settings = current()
    metrics = train(data, encoder or settings.models.embedding_model, out or Path(settings.models.classifier_dir), pooling)
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
    from training.train_reranker import train

    card = train(list(sets), base or current().models.embedding_model, out, queries, negatives, layers,
                 max_length, epochs, lr=lr, random_negatives=random_negatives)
    click.echo(json.dumps(card))


@click.command("train-judge")
@click.option("--set", "sets", multiple=True, show_default=True,
              default=["../shared/data/squad-dev", "../shared/data/heq-dev", "../shared/data/squad2-train-head"],
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="BEIR QA folder to train on (repeatable); its train split only (squad2-train-head: all of it).")
@click.option("--out", default="data/models/answerability", show_default=True, type=click.Path(path_type=Path))
@click.option("--layers", default=6, show_default=True, help="Encoder layers of e5 the judge keeps.")
@click.option("--trained-layers", default=4, show_default=True, help="Of them, the upper layers that are trained.")
@click.option("--epochs", default=2, show_default=True)
@click.option("--same", default=1, show_default=True, help="Negatives per question from its own paragraph.")
@click.option("--mine/--no-mine", default=True, show_default=True,
              help="Negatives mined by the project's own search over the sets' corpora and the default library's.")
@click.option("--limit", default=None, type=int, help="Train on this many pairs only (a quick try).")
@click.option("--lessons/--no-lessons", default=True, show_default=True,
              help="Also the lessons the team wrote (data/judge-lessons/, their train split).")
@click.option("--seif-questions", default=6000, show_default=True,
              help="And this many of the questions beside the seifim, each with its seif (0: none).")
@click.option("--start", default=None, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Start from this judge's trained layers and head (a judge taught more), e.g. data/models/answerability.")
@click.option("--lr", default=5e-5, show_default=True, help="The trained layers' learning rate (the head's is 20 times it).")
@click.option("--base", default="intfloat/multilingual-e5-small", show_default=True,
              help="The encoder under the judge; sentence-transformers/all-MiniLM-L6-v2 makes an English judge "
                   "(with --lesson-language en).")
@click.option("--lesson-language", "languages", multiple=True, type=click.Choice(["en", "he"]),
              help="Only the lessons in this language (repeatable; default: all).")
@click.option("--span-weight", default=0.0, show_default=True,
              help="Above 0: also train a span head that marks the answer in the sentence, its loss weighted so.")
@click.option("--seed", default=0, show_default=True,
              help="Which pairs --limit draws, and their order (another seed: another sample).")
@with_appcontext
def train_judge(sets, out, layers, trained_layers, epochs, same, mine, limit, lessons, seif_questions, start, lr,
                base, languages, span_weight, seed):
    """Train the answerability judge on QA pairs; prints its card as JSON."""
    from training.judge_lessons import written
    from training.judge_mining import Miner
    from training.train_judge import train

    extra, held = written(seif_questions, same, languages=tuple(languages) or ("en", "he")) if lessons else ([], {})
    miner = Miner.over(current(), list(sets)) if mine else None
    click.echo(json.dumps(train(list(sets), out, layers=layers, trained_layers=trained_layers, epochs=epochs,
                                 limit=limit, miner=miner, same=same, extra=extra, extra_held=held, start=start,
                                 lr=lr, head_lr=20 * lr, base=base, span_weight=span_weight, seed=seed),
                           indent=2))


@click.command("judge-figures")
@click.option("--judge", "folder", default="data/models/answerability", show_default=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--same", default=1, show_default=True, help="Negatives per question from its own paragraph.")
@with_appcontext
def judge_figures(folder: Path, same: int):
    """A judge's figures on the held-out pairs train-judge reports (squad-dev and heq-dev calibrate and test, the
    lessons of the unseen third), so that a judge trained before them is measured the same way; JSON."""
    from checks.judge import AnswerabilityJudge
    from training.judge_data import pairs
    from training.judge_lessons import written
    from training.train_judge import held_out_figures

    judge = AnswerabilityJudge.load(folder)
    named = {f"{d.name}/{split}": [p for p in pairs(d, same=same) if p.split == split]
             for d in (Path("../shared/data/squad-dev"), Path("../shared/data/heq-dev")) for split in ("calibrate", "test")}
    named |= written(0, same)[1]
    click.echo(json.dumps(held_out_figures(judge.model, judge.tokenizer, named, judge.max_length), indent=2))


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
@click.option("--lay", default=None, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Add the train split of these lay questions (data/lay-questions).")
@click.option("--commentary", "comments", default=None, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Add commentary pairs (../shared/data/shulchan-arukh-commentary-pairs/pairs.jsonl).")
@click.option("--commentary-limit", default=None, type=int, help="A sample of this many commentary pairs.")
@click.option("--base-limit", default=None, type=int, help="A sample of this many of the book's and QA sets' pairs.")
@click.option("--hard-negatives", is_flag=True,
              help="Give each lay question the seif our hybrid search (EMBEDDING_MODEL) ranks best that does not "
                   "answer it (the book's library is built once into data/cache/eval).")
@click.option("--lr", default=3e-5, show_default=True)
@with_appcontext
def train_embedder(book, sets, out, trained_layers, epochs, max_length, limit, lay, comments, commentary_limit,
                   base_limit, hard_negatives, lr):
    """Fit multilingual-e5-small to the Shulchan Arukh (search/tuned.py loads it)."""
    from training.embedder_negatives import searcher
    from training.train_embedder import train

    search = searcher(current(), book) if hard_negatives and lay else None
    click.echo(json.dumps(train(book, list(sets), out, trained_layers=trained_layers, epochs=epochs,
                                max_length=max_length, limit=limit, lr=lr, lay=lay, comments=comments,
                                comment_limit=commentary_limit, base_limit=base_limit, search=search), indent=2))


@click.command("record-decisions")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--split", type=click.Choice(["train", "calibrate"]), default="calibrate", show_default=True,
              help="A QA dev set's judge split, asked with its gold and without.")
@click.option("--half", type=click.Choice(["tune"]), default=None, help="A set with halves: its tuning half, asked once.")
@corpus_option
@library_option
@click.option("--limit", type=int, default=None, help="A seeded sample of this many questions.")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def record_decisions(folder, split, half, corpus, library_dir, limit, out):
    """Record the offline writer's looks at a set's questions, for train-decision; prints their count."""
    from training.looks import write_looks
    from training.train_decision import record

    write_looks(lambda pipeline: record(pipeline, folder, None if half else split, half, limit, corpus=corpus),
                folder, corpus, library_dir, out)


@click.command("train-decision")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", default="data/models/answerability", show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="The judge's folder: decision.json goes there.")
@with_appcontext
def train_decision(files, out):
    """Fit the answer-or-decline decision on recorded looks; prints its card as JSON."""
    from training.train_decision import fit, save

    card = fit([row for path in files for row in json.loads(Path(path).read_text())])
    card["recorded"] = [Path(p).name for p in files]
    save(card, out)
    judge = json.loads((out / "judge.json").read_text())  # the judge's own threshold, chosen on the same looks
    judge.update(threshold=card["judge_alone"]["threshold"], threshold_source="train-decision's judge_alone, on "
                 + ", ".join(sorted(card["judge_alone"]["fitted_on"])), calibration=card["judge_alone"])
    (out / "judge.json").write_text(json.dumps(judge, indent=2, ensure_ascii=False) + "\n")
    click.echo(json.dumps(card, indent=2))


@click.command("calibrate-support")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--limit", default=1000, show_default=True, help="Questions to sample.")
@click.option("--seed", default=0, show_default=True)
@with_appcontext
def calibrate_support_command(folder: Path, limit: int, seed: int):
    """Choose the citation support threshold on a BEIR folder with gold answers; the last line is JSON."""
    from training.calibrate import calibrate_support
    from search.embedding import Embedder
    from checks.verify import Verifier

    result = calibrate_support(Verifier(Embedder.load(current().models.embedding_model)), folder, limit, seed)
    click.echo(f"threshold {result['threshold']}: balanced accuracy {result['balanced_accuracy']}")
    click.echo(json.dumps(result))


@click.command("calibrate-decline")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--limit", default=300, show_default=True, help="Questions to sample.")
@click.option("--seed", default=0, show_default=True)
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@with_appcontext
def calibrate_decline_command(folder: Path, limit: int, seed: int, cache: Path):
    """Choose the offline writer's decline thresholds on a BEIR folder's own corpus; the last line is JSON."""
    from measuring import libraries
    from training.calibrate import calibrate_decline
    from ingest.corpus import read_corpus
    from search.embedding import Embedder

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model)
    searched = libraries.cached_library(read_corpus(folder / "corpus.jsonl"), embedder, settings.library.max_chars,
                                        settings.library.overlap_chars, cache)
    result = calibrate_decline(libraries.eval_pipeline(settings, searched, embedder), folder, limit, seed)
    click.echo(f"min_similarity {result['min_similarity']}, min_score {result['min_score']}: "
               f"balanced accuracy {result['balanced_accuracy']} (now {result['current_balanced_accuracy']})")
    click.echo(json.dumps(result))


@click.command("calibrate-judge")
@click.argument("folder", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--record", "record_to", type=click.Path(dir_okay=False, path_type=Path),
              help="Run FOLDER's calibrate split through the pipeline and save the judge's outcomes here.")
@click.option("--choose", "files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Choose the threshold from recorded outcomes (repeatable: one file per set).")
@click.option("--write", is_flag=True, help="With --choose: store the threshold in the judge's judge.json.")
@click.option("--limit", default=None, type=int)
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@with_appcontext
def calibrate_judge_command(folder, record_to, files, write, limit, cache):
    """Choose the answerability judge's threshold on the dev sets' calibrate split; the last line is JSON."""
    from measuring import libraries
    from training import calibrate_judge
    from training.train_judge import write_card
    from ingest.corpus import read_corpus
    from search.embedding import Embedder

    settings = current()
    if record_to:
        if folder is None:
            raise click.UsageError("--record needs the FOLDER whose calibrate split to run")
        embedder = Embedder.load(settings.models.embedding_model)
        searched = libraries.cached_library(read_corpus(folder / "corpus.jsonl"), embedder, settings.library.max_chars,
                                            settings.library.overlap_chars, cache)
        outcomes = calibrate_judge.record(libraries.eval_pipeline(settings, searched, embedder), folder, limit=limit)
        record_to.write_text(json.dumps(outcomes))
        files = (*files, record_to)
    if not files:
        raise click.UsageError("give --record FILE with a FOLDER, or --choose FILE")
    result = calibrate_judge.choose(list(files))
    if write:
        card_path = Path(settings.models.judge_dir) / "judge.json"
        card = json.loads(card_path.read_text())
        card.update(threshold=result["threshold"], threshold_source=f"calibrate-judge on {', '.join(result['sets'])}",
                    calibration=result)
        write_card(Path(settings.models.judge_dir), card)
    click.echo(json.dumps(result))


@click.command("calibrate-similar")
@click.argument("pairs", default="data/eval/similar-questions/pairs.jsonl",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def calibrate_similar_command(pairs: Path):
    """Choose the cosine from which a question counts as one asked before, for EMBEDDING_MODEL; the last line is JSON."""
    from search.embedding import Embedder
    from training.calibrate_similar import calibrate_similar

    result = calibrate_similar(Embedder.load(current().models.embedding_model), pairs)
    for language, shown in result["by_language"].items():
        click.echo(f"{language} at {result['threshold']}: paraphrases shown {shown['same_shown']}, other questions on "
                   f"the subject {shown['different_shown']}, unrelated {shown['unrelated_shown']}")
    click.echo(json.dumps(result, ensure_ascii=False))


commands = [train_classifier, train_reranker, train_judge, judge_figures, train_embedder, record_decisions, train_decision,
            calibrate_support_command, calibrate_decline_command, calibrate_judge_command, calibrate_similar_command]
