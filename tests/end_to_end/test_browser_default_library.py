"""The issue's questions in the chat page, in a real headless Chromium, on the real default library with the
offline writer: the Moon's distance from the Moon's own passage, a country's population only from the country's, a
decline for what the library does not say, and a follow-up asked as one question."""
from pathlib import Path

import pytest

from app import create_app
from browser import OUTPUT, ask, require_chromium

require_chromium()
LIBRARY = Path(__file__).resolve().parents[2] / "data" / "library"
pytestmark = pytest.mark.skipif(not (LIBRARY / "library.sqlite3").exists(),
                                reason="the default library is built by `make library` (`make test` builds it)")


@pytest.fixture(scope="module")
def default_app():
    return create_app({"TESTING": True, "LIBRARY_DIR": str(LIBRARY), "LOAD_ON_START": True, "GEMINI_API_KEY": "",
                       "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": ""})


def test_the_answer_cites_the_subjects_own_passage_and_a_missing_fact_is_declined(default_app, page, serve):
    page.goto(serve(default_app).url)
    page.wait_for_selector(".health.ok")
    turn = ask(page, "How far is the Moon from the Earth?")
    assert "384,399" in turn.locator(".answer").text_content() and turn.locator(".verdict").is_hidden()
    assert turn.locator(".passage.cited .passage-title").all_text_contents() == ["Moon"]  # not Callisto
    turn = ask(page, "What is the population of Switzerland?")  # Switzerland's own passage, not Zurich's
    assert "9 million" in turn.locator(".answer").text_content()
    assert "Zurich is the largest city" not in turn.locator(".answer").text_content()
    assert turn.locator(".passage.cited .passage-title").all_text_contents() == ["Switzerland"]
    turn = ask(page, "What languages are spoken in Switzerland?")
    assert turn.locator(".verdict").text_content() == "Not answered by the sources"
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "default-library.png"), full_page=True)


def test_a_follow_up_is_shown_as_the_one_question_it_asks(default_app, page, serve):
    page.goto(serve(default_app).url)
    page.wait_for_selector(".health.ok")
    first = ask(page, "Who was Albert Einstein?")
    assert first.locator(".answer").text_content().startswith("Albert Einstein was a German-born theoretical physicist")
    turn = ask(page, "And when was he born?")
    assert turn.locator(".standalone").text_content() == "When was Albert Einstein born?"
    assert turn.locator(".verdict").text_content() == "Not answered by the sources"  # the library gives no birth date
