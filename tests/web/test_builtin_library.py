"""The built-in library (a corpus build's documents, as the default Wikipedia library is) is read-only unless the
server says otherwise, the book manager lists the user's own books first, and the page learns whether the library
holds a work of religious law; over HTTP, on each backend."""
import pytest

from builders import BOOK, library_app, upload, wait_for
from conftest import CORPUS
from models import Document
from accounts.roles import Reader
from question.halacha import WORK_TITLES

SHULCHAN_ARUKH = "Shulchan Arukh, Orach Chayim\n\nSiman 1\n\nOne should rise in the morning like a lion.\n"


@pytest.fixture
def client(tmp_path, backend):
    return library_app({"TESTING": True}, tmp_path / "lib", backend=backend).test_client()


def test_the_built_in_library_cannot_be_removed_or_replaced_and_comes_after_the_users_books(client):
    listed = client.get("/api/documents").get_json()["documents"]
    assert {d["id"] for d in listed} == {d.id for d in CORPUS}
    assert all(d["built_in"] and d["read_only"] for d in listed)

    refused = client.delete("/api/documents/fleming")
    assert refused.status_code == 403 and "BUILTIN_REMOVABLE" in refused.get_json()["error"]
    assert client.get("/api/stats").get_json()["documents"] == len(CORPUS)  # nothing lost

    # An upload to a built-in document's id is kept apart under a new id: the built-in one stays as it was.
    kept = wait_for(client, upload(client, "kettles.txt", BOOK.encode(), document_id="fleming").get_json())
    assert kept["status"] == "done" and kept["document_id"].startswith("fleming-")
    assert client.get("/api/documents?q=Fleming").get_json()["documents"][0]["built_in"]

    listed = client.get("/api/documents").get_json()["documents"]
    assert listed[0]["id"] == kept["document_id"] and not listed[0]["built_in"] and not listed[0]["read_only"]
    assert [d["built_in"] for d in listed] == [False] + [True] * len(CORPUS)
    assert client.delete(f"/api/documents/{kept['document_id']}").status_code == 200  # the user's own: removable


def test_a_server_that_allows_it_removes_built_in_documents(tmp_path, backend):
    client = library_app({"TESTING": True, "BUILTIN_REMOVABLE": True}, tmp_path / "lib", backend=backend).test_client()
    assert not client.get("/api/documents").get_json()["documents"][0]["read_only"]
    assert client.delete("/api/documents/fleming").status_code == 200
    assert client.get("/api/stats").get_json()["documents"] == len(CORPUS) - 1


def test_health_says_whether_the_library_holds_a_work_of_religious_law(client):
    from accounts.passwords import digest, hash_password, new_token

    assert client.get("/api/health").get_json()["religious_law"] is False
    wait_for(client, upload(client, "oc.txt", SHULCHAN_ARUKH.encode(), work="Shulchan Arukh, Orach Chayim",
                            tier="restricted").get_json())
    assert client.get("/api/health").get_json()["religious_law"] is True
    accounts = client.application.extensions["history"].accounts  # a user: the server is shared from now on
    admin = accounts.create("rivka", "admin", hash_password("a long enough password"))
    accounts.add_token(admin["id"], digest(token := new_token()), "test", None)
    assert client.get("/api/health").get_json() == {"status": "ok", "access": "shared", "signed_in": False}
    signed_in = client.get("/api/health", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert signed_in["religious_law"] is True


def test_a_hebrew_title_names_a_work_of_religious_law_and_a_readers_own_books_come_first(backend):
    hebrew = [*CORPUS, Document("oc-1", "שולחן ערוך, אורח חיים", "יתגבר כארי לעמוד בבוקר לעבודת בוראו."),
              Document("turkey", "Turkey", "Turkey is a country."), Document("taylor", "טור טיילור", "טור של פונקציה.")]
    store = backend.build(hebrew).store
    assert store.holds_works(("Shulchan Arukh", "שולחן ערוך"))
    assert not store.holds_works(("Mishneh Torah", "משנה תורה"))
    assert not store.holds_works(WORK_TITLES[:1] + ("Tur,", "טור,", "turkey"))  # not Turkey, a series, or another case

    store._write(lambda execute: execute("UPDATE documents SET owner = 8, filename = 'b.txt' WHERE id = 'fleming'"))
    store._write(lambda execute: execute("UPDATE documents SET owner = 7, filename = 'a.txt' WHERE id = 'everest'"))
    admin = Reader(7, "rivka", "admin", frozenset({"public"}), everything=True)
    assert [d.id for d in store.documents(reader=admin)[0]][:2] == ["everest", "fleming"]  # hers, then another's
    assert store.documents()[0][0].id in ("everest", "fleming")  # no reader: the uploads still before the corpus


def test_a_document_is_yours_when_you_uploaded_it_and_the_footer_credits_the_built_in_library(client):
    """A personal server's uploads are its owner's; on a shared server, only the uploader's own (issue 47)."""
    from accounts.passwords import digest, hash_password, new_token

    assert client.get("/api/health").get_json()["built_in_library"] is True  # the corpus build's documents
    kept = wait_for(client, upload(client, "kettles.txt", BOOK.encode()).get_json())
    listed = {d["id"]: d["yours"] for d in client.get("/api/documents").get_json()["documents"]}
    assert listed[kept["document_id"]] is True and not any(listed[d.id] for d in CORPUS)

    accounts = client.application.extensions["history"].accounts  # users: the server is shared from now on
    tokens = {}
    for name in ("eli", "dan"):
        user = accounts.create(name, "editor", hash_password("a long enough password"))
        accounts.add_token(user["id"], digest(tokens.setdefault(name, new_token())), "test", None)
    as_eli, as_dan = ({"Authorization": f"Bearer {tokens[n]}"} for n in ("eli", "dan"))
    elis = wait_for(client, upload(client, "eli.txt", b"Eli's notes on kettles.", headers=as_eli).get_json(),
                    headers=as_eli)
    for headers, own in ((as_eli, True), (as_dan, False)):
        seen = {d["id"]: d["yours"] for d in client.get("/api/documents", headers=headers).get_json()["documents"]}
        assert seen[elis["document_id"]] is own
    assert "built_in_library" not in client.get("/api/health").get_json()  # signed out: tells nothing


def test_signed_out_a_shared_servers_health_says_it_is_ready_and_nothing_else(client):
    """No provider's model, circuit or last error, no library size, to anyone not signed in (issue 49)."""
    from accounts.passwords import digest, hash_password, new_token

    assert "providers" in client.get("/api/health").get_json()  # a personal server tells its owner everything
    accounts = client.application.extensions["history"].accounts
    admin = accounts.create("rivka", "admin", hash_password("a long enough password"))
    accounts.add_token(admin["id"], digest(token := new_token()), "test", None)
    signed_out = client.get("/api/health")
    assert signed_out.status_code == 200
    assert signed_out.get_json() == {"status": "ok", "access": "shared", "signed_in": False}
    signed_in = client.get("/api/health", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert "providers" in signed_in and signed_in["library"]["chunks"] > 0 and "signed_in" not in signed_in
