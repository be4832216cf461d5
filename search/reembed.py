"""Re-embedding a library whose vectors were made from another form of the text than models now read.

Every model reads a passage in one form (hebrew.normal.for_models: Hebrew without points). A library records
the form its vectors were made from (MODEL_FORM); one made from another form, such as a library built before
the form existed, embedded pointed passages as written. Opening such a library finds the passages the form
changes: if there are none, the library only records the new form; else their new vectors are computed (with a
progress bar on the command line, and /api/health showing how far it got) and written in one transaction with
the new form, so searches see the old vectors or the new ones, never a mix. Both backends use this.
Does not: decide when to run (the commands that open a library, and a server's ingest worker, do).
"""
import logging
import sys
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from hebrew.normal import for_models
from search.embedding import in_batches

log = logging.getLogger(__name__)

BATCH = 64


@dataclass
class Reembedding:
    """The passages of a library to embed again (by key: rowid or chunk id), and how far it got."""

    keys: list[int]
    texts: list[str]
    done: int = 0
    running: bool = False

    def status(self) -> dict:
        """What /api/health says of it."""
        return {"state": "running" if self.running else "pending", "passages": len(self.keys), "done": self.done,
                "reason": "the library's vectors were made from pointed text as written; its pointed passages are "
                          "being embedded again without points"}

    def embed(self, embedder, progress: bool = False) -> np.ndarray:
        """The new vectors, batch by batch; progress shows a bar (for a command), the log gets every tenth."""
        self.running, self.done = True, 0
        logged = 0
        with tqdm(total=len(self.texts), desc="re-embedding pointed passages", unit="passage", file=sys.stderr,
                  disable=not progress) as bar:

            def done(count: int) -> None:
                nonlocal logged
                bar.update(count - self.done)
                self.done = count
                if self.done * 10 // len(self.texts) > logged:
                    logged = self.done * 10 // len(self.texts)
                    log.info("re-embedding: %d of %d passages", self.done, len(self.texts))

            return in_batches(embedder, self.texts, BATCH, done)


def embed_again(library, write, progress: bool = False) -> int:
    """Embed the library's pending passages and give write(keys, vectors) their new vectors; how many there were."""
    pending = library.reembedding
    if pending is None:
        return 0
    try:
        write(pending.keys, pending.embed(library.embedder, progress))
    finally:
        pending.running = False
    library.reembedding = None
    return len(pending.keys)


def stale(rows) -> Reembedding | None:
    """The passages of (key, passage text) rows whose vectors change in the models' form; None if none does."""
    keys, texts = [], []
    for key, text in rows:
        if for_models(text) != text:
            keys.append(int(key))
            texts.append(text)
    return Reembedding(keys, texts) if keys else None


def form_of(embedder) -> str | None:
    """The form an embedder reads (Embedder.form); None for one that records none (a test's fake)."""
    return getattr(embedder, "form", None)
