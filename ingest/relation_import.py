"""`flask --app app relations import FILE.jsonl | list`: relations between passages, from a file and to the shell.

Each line of the file is a JSON object {"source", "target", "kind", "confidence"?, "notes"?} naming two passages
by key (a canonical reference such as "Shulchan Arukh, Orach Chayim 318:5, Rema", else a passage id; kinds and
rules in storage/relation_store.py). A line for a (source, target, kind) already recorded updates it. A relation whose
passages are not in the library yet is stored all the same and counted, so a file may be imported before the texts
it joins. A bad line is named by its number with why; the other lines are imported, and the command exits with 1.
Does not: open the library's indexes or load an embedder (postgres/backend.open_relations).
"""
import json
from pathlib import Path

import click

from flask.cli import with_appcontext

from configuration.settings import current
from postgres.backend import open_relations
from postgres.database import NewerSchema as NewerDatabaseSchema
from postgres.database import SchemaMissing, Unavailable
from search.library import LibraryError
from storage.database import NewerSchema
from storage.relation_store import RelationError

LINE_FIELDS = ("source", "target", "kind", "confidence", "notes")
LINE_EXAMPLE = '{"source": "Shulchan Arukh, Orach Chayim 318:5, Rema", "target": "...", "kind": "argues_with"}'


def read_line(text: str) -> dict:
    """One line's relation, its fields present; RelationError says what is wrong with it."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RelationError(f"not JSON ({exc.msg}, column {exc.colno}); write one object per line, such as "
                            f"{LINE_EXAMPLE}") from None
    if not isinstance(value, dict):
        raise RelationError(f"not a JSON object; write one per line, such as {LINE_EXAMPLE}")
    unknown = sorted(set(value) - set(LINE_FIELDS))
    if unknown:
        raise RelationError(f"unknown field(s) {', '.join(unknown)}; a line may hold {', '.join(LINE_FIELDS)}")
    missing = [name for name in ("source", "target", "kind") if name not in value]
    if missing:
        raise RelationError(f"missing {', '.join(missing)}; a line needs source, target and kind")
    return value


def import_relations(relations, lines) -> dict:
    """Add each line's relation to relations: how many were added and updated, how many join a passage not in the
    library yet ("absent"), and the bad lines as (number, why)."""
    report, kept = {"added": 0, "updated": 0, "absent": 0, "bad": []}, []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            fields = read_line(text)
            relation, created = relations.add(fields["source"], fields["target"], fields["kind"],
                                              fields.get("confidence", 1.0), fields.get("notes"))
        except RelationError as exc:
            report["bad"].append((number, str(exc)))
            continue
        report["added" if created else "updated"] += 1
        kept.append(relation)
    held = relations.holders([k for r in kept for k in (r.source, r.target)])
    report["absent"] = sum(r.source not in held or r.target not in held for r in kept)
    return report


def _relations():
    """The configured library's relations, or a message saying why there are none."""
    try:
        return open_relations(current())
    except (LibraryError, SchemaMissing, NewerSchema, NewerDatabaseSchema, Unavailable) as exc:
        raise click.ClickException(str(exc)) from None


@click.group("relations")
def relations_commands():
    """Relations between passages: which gloss argues with which ruling, whose custom overrides it."""


@relations_commands.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def import_command(path: Path):
    """Add the relations of a JSONL file (one {"source", "target", "kind", "confidence"?, "notes"?} per line)."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise click.ClickException(f"{path} is not UTF-8 text; save it as UTF-8 JSONL") from None
    report = import_relations(_relations(), lines)
    absent = (f"; {report['absent']} not in the library yet (kept: they apply once their passages are ingested)"
              if report["absent"] else "")
    click.echo(f"{path.name}: {report['added']} added, {report['updated']} updated{absent}.")
    for number, why in report["bad"]:
        click.echo(f"line {number}: {why}", err=True)
    if report["bad"]:
        click.echo(f"{len(report['bad'])} line(s) not imported; fix them and import the file again.", err=True)
        raise SystemExit(1)


@relations_commands.command("list")
@click.option("--passage", help="Only the relations of this passage key (its reference, or its id).")
@click.option("--limit", type=click.IntRange(1, 100_000), default=100, show_default=True)
@click.option("--offset", type=click.IntRange(0), default=0)
@with_appcontext
def list_command(passage, limit, offset):
    """The relations, oldest first: id, kind, confidence, source -> target."""
    items, total = _relations().list(limit, offset, passage.strip() if passage else None)
    for r in items:
        click.echo(f"{r.id:>5}  {r.kind:<16} {r.confidence:<5g} {r.source} -> {r.target}")
    click.echo(f"{len(items)} of {total} relation(s)", err=True)

