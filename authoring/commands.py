"""`flask --app app seif-questions` and `judge-lessons`: gather what the writers wrote into data/, checked by script.

Each takes the writers' folder (`--writers`: their shares, and their output under out/) and writes the shipped file
with a report of what the checks found; without it, each checks the shipped file alone and fails on any problem.
"""
import json
from pathlib import Path

import click

from authoring import lessons, seif_questions
from authoring.lessons import read_rows

SA = Path("../shared/data/shulchan-arukh/shulchan_arukh_he.jsonl")
LAY = Path("data/lay-questions")
QUESTIONS = Path("data/seif-questions")
LESSONS = Path("data/judge-lessons")


def write_rows(path: Path, rows: list[dict]) -> None:
    """JSON Lines, one row a line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


@click.command("seif-questions")
@click.option("--writers", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The writers' folder: out/sa-N.jsonl for each share (without it: check the shipped file).")
@click.option("--corpus", default=SA, show_default=True, type=click.Path(exists=True, path_type=Path))
def seif_questions_command(writers: Path | None, corpus: Path):
    """Gather the lay questions written beside every seif, drop those repeating a lay test question, check them."""
    target = QUESTIONS / "questions.jsonl"
    if writers:
        rows = seif_questions.gather(sorted((writers / "out").glob("sa-*.jsonl")))
        closeness = seif_questions.near_test(rows, LAY)
        kept = seif_questions.drop_near(rows, closeness)
        write_rows(target, kept)
        near = sorted(closeness.values(), reverse=True)
        report = {"written": len(rows), "kept": len(kept), "dropped_near_test": len(rows) - len(kept),
                  "closest": [round(v, 3) for v, _ in near[:5]],
                  "over_0.4": sum(v >= 0.4 for v, _ in near), "over_0.5": sum(v >= 0.5 for v, _ in near)}
        (QUESTIONS / "near-test.json").write_text(json.dumps(report, indent=2) + "\n")
        click.echo(json.dumps(report))
    rows = read_rows(target)
    found = seif_questions.problems(rows, corpus)
    for problem in found[:40]:
        click.echo(f"  {problem}", err=True)
    by_part: dict = {}
    for row in rows:
        part = row["ref"].split(", ")[1].rsplit(" ", 1)[0]
        by_part.setdefault(part, {"he": 0, "en": 0})[row["language"]] += 1
    click.echo(json.dumps({"questions": len(rows), "problems": len(found), "by_part": by_part}, ensure_ascii=False))
    if found and not writers:
        raise SystemExit(1)


def numbered_shares(writers: Path, stem: str) -> list[tuple[Path, Path]]:
    """The (share, output) files of the writers numbered N: STEM-share-N.jsonl with out/STEM-N.jsonl, in the order of
    N (a writer's place makes its lessons' ids, so those written before keep theirs; "10" comes after "2")."""
    shares = sorted(writers.glob(f"{stem}-share-*.jsonl"), key=lambda s: int(s.stem.rsplit("-", 1)[1]))
    return [(s, writers / "out" / s.name.replace(f"{stem}-share-", f"{stem}-")) for s in shares]


def hebrew_shares(writers: Path) -> list[tuple[Path, Path]]:
    """The Hebrew writers' (share, output) files: the first writer's heq-share.jsonl, then the numbered ones."""
    return [(writers / "heq-share.jsonl", writers / "out" / "heq.jsonl")] + numbered_shares(writers, "heq")


@click.command("judge-lessons")
@click.option("--writers", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The writers' folder: en-share-N.jsonl with out/en-N.jsonl, en-test-share.jsonl with "
                   "out/en-test.jsonl, heq-share.jsonl with out/heq.jsonl, heq-share-N.jsonl with out/heq-N.jsonl "
                   "(without it: check the shipped files).")
def judge_lessons_command(writers: Path | None):
    """Gather the judge's lessons (English over the default library's leads, Hebrew over heq-dev's train split)."""
    if writers:
        english = lessons.gather(numbered_shares(writers, "en")
                                 + [(writers / "en-test-share.jsonl", writers / "out" / "en-test.jsonl")], "en", "wiki")
        hebrew = lessons.gather(hebrew_shares(writers), "he", "heq-dev")
        write_rows(LESSONS / "en.jsonl", lessons.without_repeats(english))
        write_rows(LESSONS / "he.jsonl", lessons.without_repeats(hebrew))
    known = lessons.passages()
    total = 0
    for name in ("en", "he"):
        rows = read_rows(LESSONS / f"{name}.jsonl")
        found = lessons.problems(rows, known)
        total += len(found)
        for problem in found[:20]:
            click.echo(f"  {problem}", err=True)
        click.echo(json.dumps({name: lessons.counts(rows), "problems": len(found)}))
    if total and not writers:
        raise SystemExit(1)


commands = [seif_questions_command, judge_lessons_command]
