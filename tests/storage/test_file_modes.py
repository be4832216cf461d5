"""What holds keys and private books is the server's user's alone (issue 49): the history file, and every upload
and kept source, mode 600 in folders of mode 700, whatever the umask."""
import os
import stat

from storage.files import LocalFiles
from storage.history import History


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_history_file_is_the_servers_users_alone_and_an_old_one_is_mended(tmp_path):
    old = os.umask(0o022)
    try:
        History(tmp_path / "history.sqlite3").db.execute("SELECT 1")
        assert mode(tmp_path / "history.sqlite3") == 0o600
        (tmp_path / "old.sqlite3").touch(mode=0o644)
        History(tmp_path / "old.sqlite3")
        assert mode(tmp_path / "old.sqlite3") == 0o600
        for journal in tmp_path.glob("history.sqlite3-*"):  # SQLite gives its journal files the database's mode
            assert mode(journal) == 0o600
    finally:
        os.umask(old)


def test_uploads_and_kept_sources_are_the_servers_users_alone(tmp_path):
    old = os.umask(0o022)
    try:
        files = LocalFiles(tmp_path / "lib")
        upload = files.put("a.txt", b"a private book")
        copied = files.put("b.txt", tmp_path / "lib" / "uploads" / "a.txt")
        kept = files.keep(upload, "a-kept.txt")
        assert [mode(p) for p in (upload, copied, kept)] == [0o600] * 3
        assert mode(files.uploads) == mode(files.kept) == 0o700
        assert open(kept, "rb").read() == b"a private book"
    finally:
        os.umask(old)
