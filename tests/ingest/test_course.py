"""The course-script format read whole (ingest/course.py), and sections as the catalog names them
(search/catalog.py)."""
from search.catalog import catalog, section_of
from ingest.course import course_outline

SCRIPT = """Course Title: Intro to MCP
Course Link: https://courses.example.org/mcp
Course Instructor: Dana Levi

Lesson 1: What MCP is
Lesson Link: https://courses.example.org/mcp/1

MCP connects tools to models.

Lesson 2 - Servers
Lesson Link: javascript:alert(1)

A server offers tools.

Lesson 3: Clients

A client calls them.
"""


def test_a_course_script_gives_every_field_and_each_lessons_link():
    course = course_outline(SCRIPT)
    assert course["title"] == "Intro to MCP" and course["instructor"] == "Dana Levi"
    assert course["link"] == "https://courses.example.org/mcp"
    assert course["lessons"] == [
        {"number": 1, "title": "What MCP is", "link": "https://courses.example.org/mcp/1"},
        {"number": 2, "title": "Servers", "link": None},  # only http(s) links are kept
        {"number": 3, "title": "Clients", "link": None},
    ]


def test_text_that_is_not_a_course_script_has_no_outline():
    assert course_outline("A book.\nCourse Title: not on the first line") is None
    assert course_outline("") is None


def test_a_section_is_the_first_numbered_label_with_the_heading_after_it():
    assert section_of(["אורח חיים", "סימן נ״ה", "דיני קדיש", "סעיף ד", "הגה"]) == (
        ("אורח חיים",), "סימן נ״ה", 55, "דיני קדיש")
    assert section_of(["Lesson 2: Brewing"]) == ((), "Lesson 2: Brewing", 2, None)
    assert section_of(["Getting started", "Details"]) == ((), "Getting started", None, None)
    assert section_of([]) is None


def test_sections_whose_numbers_restart_in_each_part_stay_apart():
    from models import DocumentInfo

    rows = [("sa", ["אורח חיים", "סימן א׳", "דין השכמת הבוקר", "סעיף א"]),
            ("sa", ["אורח חיים", "סימן א׳", "דין השכמת הבוקר", "סעיף ב"]),
            ("sa", ["יורה דעה", "סימן א׳", "דין השוחט", "סעיף א"])]
    [work] = catalog([DocumentInfo("sa", "Shulchan Arukh", "json", "h", chunk_count=3)], rows)
    assert [(s["within"], s["number"], s["heading"], s["passages"]) for s in work["sections"]] == [
        (["אורח חיים"], 1, "דין השכמת הבוקר", 2), (["יורה דעה"], 1, "דין השוחט", 1)]
