"""Jupyter notebooks (.ipynb): markdown and code cells, in order, as one Markdown text; outputs are left out.

A markdown cell is kept as written, so its "#" headings become the sections its passages sit under
(ingest/structure.py); a code cell is kept as a fenced block in the notebook's language. Raw cells and every
output (images, tables, tracebacks) are left out: they are what the code printed, not what the author wrote.
The title is the notebook's metadata title, else its first "# " heading.
Does not: run anything, or read cell attachments.
"""
import json
import re

from ingest.records import Parsed, RejectedFile, display_name

MAX_CELLS = 10_000
SHAPE = 'a Jupyter notebook is JSON with "nbformat" 4 and a list of "cells"'


def source(cell: dict) -> str:
    """A cell's source: nbformat gives it as one string or as a list of lines."""
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) and all(isinstance(t, str) for t in text) else \
        text if isinstance(text, str) else ""


def read_notebook(text: str, filename: str) -> Parsed:
    """One notebook as Markdown: its markdown cells, and its code cells fenced."""
    name = display_name(filename)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RejectedFile(f"{name} is not valid JSON (line {exc.lineno}: {exc.msg}); {SHAPE}") from None
    except RecursionError:  # "[[[[..." thousands deep: no notebook nests so
        raise RejectedFile(f"{name} nests its JSON too deeply to be a notebook; {SHAPE}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list) or data.get("nbformat") != 4:
        raise RejectedFile(f"{name} is not a notebook this server reads; {SHAPE} (save it with Jupyter 4 or later)")
    if len(data["cells"]) > MAX_CELLS:
        raise RejectedFile(f"{name} has {len(data['cells']):,} cells; a notebook may have at most {MAX_CELLS:,}")
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    kernel = metadata.get("kernelspec") if isinstance(metadata.get("kernelspec"), dict) else {}
    info = metadata.get("language_info") if isinstance(metadata.get("language_info"), dict) else {}
    language = kernel.get("language") or info.get("name") or ""
    if not isinstance(language, str):
        raise RejectedFile(f"{name}'s metadata names its language as {type(language).__name__}, not text; "
                           f"{SHAPE}, its kernel's language a name such as \"python\"")
    blocks = []
    for cell in data["cells"]:
        if not isinstance(cell, dict):
            continue
        body = source(cell).strip()
        if body and cell.get("cell_type") == "markdown":
            blocks.append(body)
        elif body and cell.get("cell_type") == "code":
            blocks.append(f"```{language}\n{body}\n```")
    markdown = "\n\n".join(blocks)
    heading = re.search(r"^# +(.+?)\s*#*\s*$", markdown, re.M)
    title = metadata.get("title") if isinstance(metadata.get("title"), str) else heading and heading[1]
    return Parsed(markdown, "ipynb", title=title)
