"""The `section` and `part` filters of /api/query on each backend: a lesson, a range of lessons, sections of one
part of a work, and a clear 400 for a section that names none."""
import json

import pytest

from builders import library_app, upload, wait_for

COURSE = """Course Title: Kettles and Tea
Course Instructor: Miriam Cohen

Lesson 1: Boiling water

A kettle boils water on the stove. The whistle tells you the water is ready for tea.

Lesson 2: Brewing

Green tea wants water below boiling, about eighty degrees, for two minutes of tea.

Lesson 3: Serving

Pour the tea into warm cups and serve the water and tea with lemon.
"""

SEIFIM = [  # as ../shared/data/shulchan-arukh gives them: siman 1 of two parts
    {"ref": "Shulchan Arukh, Orach Chayim 1:1", "part_he": "אורח חיים", "siman": 1, "seif": 1,
     "siman_label": "סימן א׳", "he": "דין השכמת הבוקר. ובו ט סעיפים:יתגבר כארי לעמוד בבוקר לעבודת בוראו:"},
    {"ref": "Shulchan Arukh, Yoreh De'ah 1:1", "part_he": "יורה דעה", "siman": 1, "seif": 1,
     "siman_label": "סימן א׳", "he": "דין השוחט. ובו סעיף אחד:הכל שוחטין ושחיטתן כשרה בבוקר:"},
]
PARTS = "\n".join(json.dumps(seif, ensure_ascii=False) for seif in SEIFIM)


@pytest.fixture
def client(tmp_path, backend):
    app = library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)
    client = app.test_client()
    for name, text in (("tea.txt", COURSE), ("parts.jsonl", PARTS)):
        assert wait_for(client, upload(client, name, text.encode()).get_json())["status"] == "done"
    return client


def found(client, question, **filters):
    response = client.post("/api/query", json={"question": question, "top_k": 10, "filters": filters})
    assert response.status_code == 200, response.get_json()
    return [p["section_path"] for p in response.get_json()["passages"]]


def test_a_lesson_filter_searches_that_lesson_only(client):
    everywhere = found(client, "water tea", document_ids=["tea"])
    assert {path[0] for path in everywhere if path} >= {"Lesson 1: Boiling water", "Lesson 2: Brewing"}
    assert {path[0] for path in found(client, "water tea", document_ids=["tea"], section=2)} == {"Lesson 2: Brewing"}
    ranged = found(client, "water tea", document_ids=["tea"], section="2-3")
    assert {path[0] for path in ranged} == {"Lesson 2: Brewing", "Lesson 3: Serving"}
    listed = found(client, "water tea", document_ids=["tea"], section=[1, "3"])
    assert {path[0] for path in listed} == {"Lesson 1: Boiling water", "Lesson 3: Serving"}
    # without a work, a number names that section of every work
    assert {path[0] for path in found(client, "water tea בבוקר", section=1)} == {
        "Lesson 1: Boiling water", "אורח חיים", "יורה דעה"}


def test_a_part_keeps_apart_sections_whose_numbers_restart(client):
    both = found(client, "בבוקר", document_ids=["parts"], section=1)
    assert {path[0] for path in both} == {"אורח חיים", "יורה דעה"}
    assert {path[0] for path in found(client, "בבוקר", section=1, part="יורה דעה")} == {"יורה דעה"}


@pytest.mark.parametrize("section", ["5-2", "two", [], [True], "1;2", list(range(21))])
def test_a_section_that_names_no_sections_is_a_clear_400(client, section):
    response = client.post("/api/query", json={"question": "tea", "filters": {"section": section}})
    assert response.status_code == 400
    assert "filters.section" in response.get_json()["error"]


def test_a_section_no_passage_has_finds_nothing(client):
    assert found(client, "water tea", document_ids=["tea"], section=9) == []


def test_a_question_naming_a_lesson_of_a_course_searches_that_lesson(client):
    body = client.post("/api/query", json={"question": "What does lesson 2 of the kettles course say about tea?",
                                           "top_k": 10}).get_json()
    assert body["passages"] and {p["section_path"][0] for p in body["passages"]} == {"Lesson 2: Brewing"}
    assert body["searches"][0]["filters"] == {"section": 2, "document_ids": ["tea"]}
    follow = client.post("/api/query", json={"question": "And what does lesson 3 of that course say?", "top_k": 10,
                                             "session_id": body["session_id"]}).get_json()
    assert {p["section_path"][0] for p in follow["passages"]} == {"Lesson 3: Serving"}
    assert follow["searches"][0]["filters"]["document_ids"] == ["tea"]
    whole = client.post("/api/query", json={"question": "What is in lesson 9 about tea?", "top_k": 10}).get_json()
    assert whole["passages"] and "section" not in whole["searches"][0]["filters"]  # no work has one: searched whole


def test_a_work_named_as_the_catalog_names_it_is_searched_and_one_that_matches_nothing_is_a_400(client):
    works = client.get("/api/catalog").get_json()["works"]
    untitled = next(w for w in works if w["work"] == w["title"])  # a document without a work: named by its title
    body = client.post("/api/query", json={"question": "tea", "filters": {"work": untitled["work"]}}).get_json()
    assert body["passages"] and {p["doc_id"] for p in body["passages"]} == {untitled["document_id"]}
    response = client.post("/api/query", json={"question": "tea", "filters": {"work": "No Such Work"}})
    assert response.status_code == 400 and "No document you can search matches" in response.json["error"]
    assert "/api/catalog" in response.json["error"]
