"""Questions a new user asks of the default library (the real one `make library` builds, with the real models and
the offline writer): each is answered with its own subject's fact, or declined, and a follow-up asks one thing. The
README's example is what the server says."""
import json
import re
from pathlib import Path

import pytest

from app import create_app

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "data" / "library"
pytestmark = pytest.mark.skipif(not (LIBRARY / "library.sqlite3").exists(),
                                reason="the default library is built by `make library` (`make test` builds it)")


@pytest.fixture(scope="module")
def client():
    app = create_app({"TESTING": True, "LIBRARY_DIR": str(LIBRARY), "LOAD_ON_START": True, "GEMINI_API_KEY": "",
                      "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": ""})
    return app.test_client()


def ask(client, question, session_id=None):
    body = client.post("/api/query", json={"question": question, **({"session_id": session_id} if session_id else {})})
    assert body.status_code == 200
    return body.json


def cited_titles(body):
    return [c["title"] for c in body["citations"]]


def first_sentence(body):
    return re.split(r"(?<=\]\.)\s", body["answer"])[0]


def test_a_countrys_population_comes_from_the_country_not_its_largest_city(client):
    body = ask(client, "What is the population of Switzerland?")
    # Zurich's population is never given as Switzerland's. The decision now declines this one (the judge rates the
    # "9 million people" sentence 0.28: README, issue 31), and then says what Switzerland's own passage holds.
    assert set(cited_titles(body)) == {"Switzerland"} and "Zurich is the largest city" not in body["answer"]
    assert "9 million" in (body["answer"] if body["declined"] else first_sentence(body))


def test_the_moons_distance_comes_from_the_moon_not_another_moon(client):
    body = ask(client, "How far is the Moon from the Earth?")
    assert not body["declined"] and "384,399" in body["answer"] and set(cited_titles(body)) == {"Moon"}


def test_who_someone_was_is_all_about_them(client):
    body = ask(client, "Who was Marie Curie?")
    assert not body["declined"] and body["answer"].startswith("Maria Salomea Skłodowska Curie")
    assert set(cited_titles(body)) == {"Marie Curie"}


def test_what_the_library_does_not_say_is_declined(client):
    body = ask(client, "What languages are spoken in Switzerland?")
    assert body["declined"]


def test_who_discovered_names_the_person(client):
    body = ask(client, "Who discovered penicillin?")
    assert not body["declined"] and "Fleming" in first_sentence(body)


def test_a_difference_is_answered_by_what_each_is(client):
    body = ask(client, "What is the difference between a virus and a bacterium?")
    assert not body["declined"] and "A virus is a submicroscopic infectious agent" in body["answer"]


def test_a_follow_up_is_asked_as_one_question_and_declined_when_the_library_lacks_the_fact(client):
    first = ask(client, "Who was Albert Einstein?")
    assert not first["declined"] and first["answer"].startswith("Albert Einstein was a German-born theoretical physicist")
    body = ask(client, "And when was he born?", first["session_id"])
    assert body["standalone_question"] == "When was Albert Einstein born?" and body["declined"]


def test_the_readme_example_is_what_the_server_says(client):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    question = re.search(r'-d \'\{"question": "([^"]+)"\}\'', readme).group(1)
    shown = re.search(r'# \{"answer": "(.+?)",\n#\s+"answerability"', readme, re.S).group(1)
    quoted = json.loads('"' + " ".join(line.lstrip("#").strip() for line in shown.splitlines()) + '"')
    assert ask(client, question)["answer"] == quoted
