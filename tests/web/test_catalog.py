"""GET /api/catalog on each backend: the works a reader sees, a course script's lessons with their links and
passage counts, and nothing of a book hidden from the reader."""
import pytest

from builders import COURSE, library_app, upload, wait_for
from test_readers import make_user



@pytest.fixture
def app(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)


def add(client, headers=None, **fields) -> str:
    """The course uploaded (by headers' user); its document id."""
    response = upload(client, "tea.txt", COURSE.encode(), headers=headers, **fields)
    job = wait_for(client, response.get_json(), headers=headers)
    assert job["status"] == "done"
    return job["document_id"]


def test_a_course_script_is_listed_with_its_lessons_links_and_passages(app):
    client = app.test_client()
    add(client)
    works = client.get("/api/catalog").get_json()["works"]
    course = next(w for w in works if w["document_id"] == "tea")
    assert course["work"] == course["title"] == "Kettles and Tea"
    assert course["author"] == course["instructor"] == "Miriam Cohen"
    assert course["link"] == "https://tea.example.org/course"
    assert [(s["number"], s["title"], s["link"]) for s in course["sections"]] == [
        (1, "Lesson 1: Boiling water", "https://tea.example.org/course/1"),
        (2, "Lesson 2: Brewing", "https://tea.example.org/course/2")]
    assert all(s["passages"] >= 1 for s in course["sections"])
    assert sum(s["passages"] for s in course["sections"]) <= course["passages"]
    listed = {d["id"] for d in client.get("/api/documents").get_json()["documents"]}
    assert {w["document_id"] for w in works} == listed and len(works) == len(listed) > 1
    assert [w["work"].casefold() for w in works] == sorted(w["work"].casefold() for w in works)


def test_a_reader_sees_no_work_hidden_from_them(app):
    editor, learner = make_user(app, "editor", "editor"), make_user(app, "learner", "learner")
    client = app.test_client()
    tea = add(client, headers=editor, tier="private")
    assert tea in {w["document_id"] for w in client.get("/api/catalog", headers=editor).get_json()["works"]}
    seen = client.get("/api/catalog", headers=learner).get_json()["works"]
    assert seen and tea not in {w["document_id"] for w in seen}
    assert client.get("/api/catalog").status_code == 401


def test_the_catalog_is_gzipped_for_a_client_that_takes_it_and_revalidated_by_its_etag(app):
    import gzip
    import json

    client = app.test_client()
    add(client)
    plain = client.get("/api/catalog")
    zipped = client.get("/api/catalog", headers={"Accept-Encoding": "gzip, deflate"})
    assert plain.headers.get("Content-Encoding") is None and zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.get_json()
    assert len(zipped.get_data()) < len(plain.get_data()) and "Accept-Encoding" in zipped.headers["Vary"]
    tag = plain.headers["ETag"]
    assert tag == zipped.headers["ETag"] and tag.startswith("W/")
    again = client.get("/api/catalog", headers={"If-None-Match": tag, "Accept-Encoding": "gzip"})
    assert again.status_code == 304 and again.get_data() == b""
    client.delete("/api/documents/tea")  # the library changed: the tag does too
    assert client.get("/api/catalog", headers={"If-None-Match": tag}).status_code == 200
