"""CSV and TSV tables of facts: each row becomes a passage that names its columns ("Population: 8,962,000").

The first row is the header. Each following row is a unit of its own, its text one "column: value" line per
non-empty cell, headed by its first cell's value, so a row is found by any of its words and cited by its name
("Cities § Zurich"). A row with more cells than the header keeps the header's and is reported; one with fewer
leaves the rest empty.
Does not: guess a header when there is none, or read spreadsheets (.xlsx).
"""
import csv
import io

from ingest.records import Parsed, RejectedFile, Unit, display_name

MAX_ROWS = 100_000
MAX_COLUMNS = 200
DELIMITERS = {"csv": ",", "tsv": "\t"}


def read_table(text: str, fmt: str, filename: str) -> Parsed:
    """A CSV or TSV file: one unit per row, its cells named by the header."""
    name = display_name(filename)
    csv.field_size_limit(1 << 24)
    rows = _rows(text, fmt, name)
    if len(rows) < 2:
        raise RejectedFile(f"{name} needs a header row and at least one row of values")
    header = [h.strip() or f"column {n}" for n, h in enumerate(rows[0], 1)]
    if len(header) > MAX_COLUMNS:
        raise RejectedFile(f"{name} has {len(header)} columns; a table may have at most {MAX_COLUMNS} columns, so "
                           "split it")
    parts, units, offset, long = [], [], 0, 0
    for number, row in enumerate(rows[1:], 1):
        long += len(row) > len(header)
        lines = [f"{column}: {value.strip()}" for column, value in zip(header, row) if value.strip()]
        if not lines:
            continue
        body = "\n".join(lines)
        offset += 2 if parts else 0
        units.append(Unit((number,), offset, offset + len(body), heading=row[0].strip() or f"row {number}"))
        parts.append(body)
        offset += len(body)
    warnings = [f"{long} row(s) have more cells than the header names; the extra cells were left out"] if long else []
    return Parsed("\n\n".join(parts), fmt, units=units, warnings=warnings)


def _rows(text: str, fmt: str, name: str) -> list[list[str]]:
    """The table's non-empty rows, the header first; refused as soon as it has more than MAX_ROWS rows of values,
    before the rest is read (a 10 MB file of short rows would otherwise be held whole as lists)."""
    rows = []
    try:
        for row in csv.reader(io.StringIO(text), delimiter=DELIMITERS[fmt]):
            if not any(c.strip() for c in row):
                continue
            if len(rows) > MAX_ROWS:
                raise RejectedFile(f"{name} has more than {MAX_ROWS:,} rows; a table may have at most {MAX_ROWS:,} "
                                   "rows, so split it")
            rows.append(row)
    except csv.Error as exc:
        raise RejectedFile(f"{name} is not a readable {fmt.upper()} table ({exc}); save it as {fmt.upper()} again") from None
    return rows
