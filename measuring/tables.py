"""The measurement tables of the docs, built from saved eval reports (measuring/reports.py), never typed.

A table in a Markdown file is a block between two markers; the first names the folder of reports it shows:

    <!-- table: data/reports/retrieval -->
    | set | embedder | mode | queries | nDCG@10 | ... |
    <!-- end of table -->

`eval tables DOC...` writes each block again from its folder's reports (`--check`: only says which are stale, and
fails). One row per report, ordered by set, mode and embedder; a figure a report lacks is shown as "–".
Does not: run an evaluation (`eval DIR --save` does), or read the answer figures (the retrieval ones only).
"""
import re
from pathlib import Path

from measuring.reports import load

COLUMNS = (("queries", "queries", "{:,}"), ("nDCG@10", "ndcg@10", "{:.4f}"), ("R@5", "recall@5", "{:.3f}"),
           ("R@10", "recall@10", "{:.3f}"), ("R@100", "recall@100", "{:.3f}"), ("MRR@10", "mrr@10", "{:.4f}"))
# Latencies are left out: a report's were measured on whatever else the machine ran; `bench` measures speed.
MODES = ("bm25", "dense", "hybrid", "rerank", None)  # None: the full configured pipeline
BLOCK = re.compile(r"(<!-- table: (?P<folder>[^ ]+) -->\n)(?P<body>.*?)(<!-- end of table -->)", re.S)


def embedder_name(model: str | None, revision: str | None = None) -> str:
    """A model id as a table shows it: its last path part (all-MiniLM-L6-v2, multilingual-e5-small), and for a
    model trained here which training, by the start of its layers' hash (search/embedding.weights_revision)."""
    name = (model or "–").rstrip("/").rsplit("/", 1)[-1]
    return f"{name} @{revision[:6]}" if revision else name


def embedder_of(config: dict) -> str:
    """The embedder cell of a report, with its learned glossary when one expanded the questions."""
    name = embedder_name(config.get("embedding_model"), config.get("embedding_revision"))
    return name + (f" + learned glossary @{config['learned_glossary'][:6]}" if config.get("learned_glossary") else "")


def set_name(config: dict) -> str:
    """The set a report measured: its folder, with the split when not "test" and the field asked when not the text
    ("halacha-he (asked as en)", "lay-questions (test-he)")."""
    notes = [config["split"]] if config.get("split") not in (None, "test") else []
    notes += [f"asked as {config['text_field']}"] if config.get("text_field") else []
    return (config.get("dataset") or "?") + (f" ({', '.join(notes)})" if notes else "")


def row_key(report: dict) -> tuple:
    config = report.get("config", {})
    mode = config.get("mode")
    return (set_name(config), MODES.index(mode) if mode in MODES else len(MODES),
            embedder_of(config), config.get("fusion") or "", config.get("asked_weight") or 0.0)


def table(reports: list[dict]) -> str:
    """The Markdown table of reports: set, embedder, mode and fusion, then each retrieval figure."""
    head = ["set", "embedder", "mode", *(name for name, _, _ in COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for report in sorted(reports, key=row_key):
        config, figures = report.get("config", {}), report["figures"]
        mode = config.get("mode") or "pipeline"
        if config.get("fusion") not in (None, "weighted") and mode != "bm25":
            mode += f" ({config['fusion']})"
        if config.get("questions"):  # a book searched with the questions written beside it (search/asked.py)
            mode += f" + questions ×{config.get('asked_weight')}"
        embedder = "–" if mode == "bm25" else embedder_of(config)  # BM25 embeds nothing
        cells = [set_name(config), embedder, mode]
        cells += [form.format(figures[key]) if isinstance(figures.get(key), (int, float)) else "–"
                  for _, key, form in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def folder_table(folder: Path) -> str:
    """The table of every report in folder; ValueError when it holds none."""
    paths = sorted(Path(folder).glob("*.json"))
    if not paths:
        raise ValueError(f"{folder} holds no saved reports; `eval DIR --save --reports {folder}` writes them")
    return table([load(p) for p in paths])


def rebuilt(text: str, root: Path = Path(".")) -> str:
    """text with every table block written again from its reports (folders relative to root)."""
    return BLOCK.sub(lambda m: m.group(1) + folder_table(root / m.group("folder")) + m.group(4), text)


def stale_blocks(text: str, root: Path = Path(".")) -> list[str]:
    """The folders of the blocks whose table differs from what their reports give."""
    return [m.group("folder") for m in BLOCK.finditer(text) if m.group("body") != folder_table(root / m.group("folder"))]
