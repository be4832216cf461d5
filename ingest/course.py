"""The course-script format: a header of "Course Title:", "Course Link:" and "Course Instructor:" lines, then
lessons, each a "Lesson N: title" line that a "Lesson Link:" line may follow.

course_outline reads every field into the document's metadata ("course"): the course's title, link and
instructor, and each lesson's number, title and link, which the catalog (storage/catalog.py) and the passages
show. A link is kept only when it is an http(s) URL, so a page can show it as a link without risk.
Does not: cut the text into passages (structure.py does, by the same Lesson lines).
"""
import re

_FIELD = re.compile(r"[ \t]*(Course Title|Course Link|Course Instructor|Lesson Link)[ \t]*:[ \t]*(.*?)[ \t]*",
                    re.IGNORECASE)
_LESSON = re.compile(r"[ \t]*Lesson[ \t]+(\d{1,6})[ \t]*(?:[.:)\u2013\u2014-][ \t]*(.*?))?[ \t]*", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s<>\"'`]{1,2000}", re.IGNORECASE)
MAX_FIELD_CHARS = 300  # a longer title or instructor is cut, as structure.py cuts labels
MAX_LESSONS = 2000


def safe_link(value: str) -> str | None:
    """value when it is one http(s) URL, else None."""
    return value if _URL.fullmatch(value) else None


def course_outline(text: str) -> dict | None:
    """The course's fields and its lessons, or None when the text does not begin with a "Course Title:" line."""
    lines = iter(text.splitlines())
    first = next((line for line in lines if line.strip()), "")
    match = _FIELD.fullmatch(first)
    if not match or match[1].lower() != "course title" or not match[2]:
        return None
    course = {"title": match[2][:MAX_FIELD_CHARS], "link": None, "instructor": None, "lessons": []}
    lessons = course["lessons"]
    for line in lines:
        if len(line) > 2 * MAX_FIELD_CHARS + 2000:
            continue
        if field := _FIELD.fullmatch(line):
            name, value = field[1].lower(), field[2]
            if name == "lesson link" and lessons and lessons[-1]["link"] is None:
                lessons[-1]["link"] = safe_link(value)
            elif name == "course link" and course["link"] is None:
                course["link"] = safe_link(value)
            elif name == "course instructor" and course["instructor"] is None and value:
                course["instructor"] = value[:MAX_FIELD_CHARS]
        elif (lesson := _LESSON.fullmatch(line)) and len(lessons) < MAX_LESSONS:
            number = int(lesson[1])
            lessons.append({"number": number, "title": (lesson[2] or f"Lesson {number}")[:MAX_FIELD_CHARS],
                            "link": None})
    return course
