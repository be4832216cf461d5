"""Eval reports that last: `eval --save` keeps each run's figures with its configuration and the code's commit, and
`eval compare A B` prints how every figure changed from one saved report to another.

A report is one JSON file in the reports folder (data/reports by default), named after its set, mode and time:
{"figures": {...}, "config": {...}, "commit": "...", "saved_at": "..."}.
Does not: run an evaluation (evaluate.py does).
"""
import json
import subprocess
import time
from pathlib import Path

REPORTS = Path("data/reports")


def commit() -> str | None:
    """The commit the code runs at (with "+changes" when the work tree differs from it); None outside a checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if dirty else "")


def save(result: dict, folder: Path = REPORTS) -> Path:
    """Write an eval's result as a report; returns its path."""
    config = result.get("config", {})
    figures = {k: v for k, v in result.items() if k != "config"}
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = f"{config.get('dataset', 'set')}-{config.get('mode') or 'pipeline'}-{stamp}"
    path, n = folder / f"{name}.json", 1
    while path.exists():  # two runs saved within one second keep both
        n += 1
        path = folder / f"{name}-{n}.json"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"figures": figures, "config": config, "commit": commit(),
                                "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=1) + "\n")
    return path


def load(path: Path) -> dict:
    """A saved report; ValueError naming the file when it is not one."""
    try:
        report = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not a saved eval report ({exc})") from None
    if not isinstance(report, dict) or not isinstance(report.get("figures"), dict):
        raise ValueError(f"{path} is not a saved eval report (no figures); `eval DIR --save` writes them")
    return report


def compare(a: dict, b: dict) -> list[dict]:
    """Each figure of either report: its value in A and in B, and the change (numbers only)."""
    rows = []
    for name in dict.fromkeys([*a["figures"], *b["figures"]]):
        old, new = a["figures"].get(name), b["figures"].get(name)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (old, new))
        rows.append({"figure": name, "a": old, "b": new, "change": round(new - old, 4) if numbers else None})
    return rows


def config_changes(a: dict, b: dict) -> dict:
    """The settings that differ between the reports' runs: {name: [A's, B's]}."""
    keys = dict.fromkeys([*a.get("config", {}), *b.get("config", {})])
    return {k: [a["config"].get(k), b["config"].get(k)] for k in keys if a["config"].get(k) != b["config"].get(k)}
