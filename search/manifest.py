"""A library folder's manifest: what its index files were built from, read and checked against the embedder.

Does not: build or save index files (search/library.py does, writing the manifest last).
"""
import json
from pathlib import Path

from search.embedders import recorded_revision, revision_of

FORMAT_VERSION = 2
REBUILD_HINT = "rebuild it with `flask --app app ingest-default` (or `make library`)"


class LibraryError(RuntimeError):
    """The library folder is missing, incomplete or built for another configuration."""


def read_manifest(folder: Path) -> dict | None:
    path = Path(folder) / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else None


def check_manifest(folder: Path, manifest: dict, embedder) -> None:
    if manifest.get("format") != FORMAT_VERSION:
        raise LibraryError(f"the library in {folder}/ has an old format; {REBUILD_HINT}")
    if manifest["embedding_model"] != embedder.name or manifest["dim"] != embedder.dim:
        raise LibraryError(
            f"the library in {folder}/ was built with the embedding model {manifest['embedding_model']} "
            f"({manifest['dim']}-d), but EMBEDDING_MODEL is {embedder.name} ({embedder.dim}-d); {REBUILD_HINT}, "
            f"or set FLASK_EMBEDDING_MODEL={manifest['embedding_model']}"
        )
    recorded = recorded_revision(manifest.get("embedding_revision"), embedder)
    if recorded != revision_of(embedder):
        raise LibraryError(
            f"the library in {folder}/ was embedded by another training of {embedder.name} (revision "
            f"{recorded or 'unrecorded'}, now {revision_of(embedder)}); remove the folder and build it again "
            "(`make shulchan-arukh` for the Shulchan Arukh's)")

