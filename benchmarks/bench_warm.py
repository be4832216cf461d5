"""What warming a library when it is built costs: the first passages of a library, their sentence vectors computed
into an empty table as a build does (BUILD_BATCH texts a call) and as the background repair does (WARM_BATCH), with
the minutes the whole library would take at each rate.

`flask --app app bench-warm --passages 1000` reads the configured library (the default one after `make library`)
and leaves it as it was: the vectors go to a table in a temporary folder.
Does not: embed passages (only their sentences), or change the library.
"""
import tempfile
import time
from pathlib import Path

from ingest.warming import BUILD_BATCH, PAGE
from search.sentence_vectors import WARM_BATCH, SentenceVectors, SqliteTable


def bench_warm(library, forms, passages: int = 1000) -> dict:
    """Seconds and passages per minute to warm the library's first `passages` passages at each batch size, and the
    minutes its every passage would take."""
    chunks = []
    for page in library.passage_pages(PAGE):
        chunks += page
        if len(chunks) >= passages:
            break
    chunks = chunks[:passages]
    total = library.store.stats()["chunks"]
    out = {"passages": len(chunks), "library_passages": total,
           "texts": sum(len(forms(c.bounded())) for c in chunks)}
    embedder = getattr(library.sentences, "embedder", library.embedder)
    for name, batch in (("build", BUILD_BATCH), ("background", WARM_BATCH)):
        with tempfile.TemporaryDirectory() as folder:
            kept = SentenceVectors(embedder, SqliteTable(Path(folder) / "sentences.sqlite3"))
            started = time.perf_counter()
            for start in range(0, len(chunks), PAGE):
                kept.warm(chunks[start:start + PAGE], forms, batch)
            seconds = time.perf_counter() - started
        out[name] = {"batch": batch, "seconds": round(seconds, 1),
                     "passages_per_minute": round(len(chunks) / seconds * 60),
                     "library_minutes": round(total / (len(chunks) / seconds) / 60, 1)}
    return out
