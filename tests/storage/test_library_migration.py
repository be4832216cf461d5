"""A library read before passages carried community and era gets them when it is opened: what the Sefaria reader
now writes for the Shulchan Arukh's rulings and the Rema's glosses, and nothing for other documents."""
import sqlite3

from storage.database import migrate
from storage.schema import MIGRATIONS
from storage.store import Store

SA, RULING, GLOSS = "Shulchan Arukh, Orach Chayim 1", "Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 1:1, Rema"


def test_an_old_library_learns_who_speaks_in_the_shulchan_arukh(tmp_path):
    path = tmp_path / "library.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, MIGRATIONS[:1], path, "LIBRARY_DIR")
    for doc, fmt, tier in (("sa", "jsonl", "canonical"), ("notes", "pdf", None)):
        db.execute("INSERT INTO documents (id, title, format, tier, content_hash, status, created_at, updated_at, text)"
                   " VALUES (?, ?, ?, ?, '', 'ready', 0, 0, '')", (doc, doc, fmt, tier))
    rows = [("sa#0", "sa", RULING, SA), ("sa#1", "sa", GLOSS, RULING),
            ("notes#0", "notes", RULING, SA)]  # a PDF whose seif holds ruling and gloss alike: unknown
    for seq, (chunk_id, doc, ref, parent) in enumerate(rows):
        db.execute("INSERT INTO chunks (id, doc_id, seq, text, start, end, ref, parent_ref, embedding)"
                   " VALUES (?, ?, ?, 'x', 0, 1, ?, ?, x'')", (chunk_id, doc, seq, ref, parent))
    db.close()
    found = {c.id: (c.community, c.era, c.authority_weight, c.tier) for _, c, _ in Store(path).chunk_rows()}
    assert found == {"sa#0": ("Sephardi", "Acharonim", 1.0, "canonical"), "sa#1": ("Ashkenazi", "Acharonim", 1.0, "canonical"),
                     "notes#0": (None, None, 0.0, "public")}
