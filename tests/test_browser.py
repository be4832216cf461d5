"""The chat page in a real headless Chromium: ask, see the answer and evidence, and no HTML injection."""
import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app
from conftest import FakeWriter, make_pipeline

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
OUTPUT = Path("test-output")
HOSTILE = "<img src=x onerror=alert(1)>"

if not shutil.which(CHROMIUM) and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed; `make test` installs it", allow_module_level=True)


class Server:
    """A Flask app served on a free loopback port in a thread."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()


def serve(app):
    server = Server(app)
    return server


def test_question_gets_a_cited_answer_and_evidence(real_app, page):
    server = serve(real_app)
    try:
        page.goto(server.url)
        page.wait_for_selector(".health.ok")
        page.fill("#question", "Who discovered penicillin?")
        page.press("#question", "Enter")
        turn = page.wait_for_selector(".turn")
        assert turn.query_selector(".question").text_content() == "Who discovered penicillin?"
        assert turn.query_selector(".query-type").text_content() == "Factual lookup"
        answer = turn.query_selector(".answer")
        assert "Fleming" in answer.text_content()
        link = answer.query_selector("a.cite")
        assert link.text_content() == "[1]" and link.get_attribute("href") == "#turn-1-p1"
        cards = turn.query_selector_all(".passage")
        assert len(cards) >= 1 and cards[0].query_selector(".passage-title").text_content() == "Alexander Fleming"
        assert "BM25" in cards[0].query_selector(".scores").text_content()
        link.click()
        assert page.evaluate("location.hash") == "#turn-1-p1"
        assert page.input_value("#question") == ""  # cleared for the next question
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "answer.png"), full_page=True)
    finally:
        server.close()


def test_hostile_answer_is_shown_as_text(page):
    writer = FakeWriter("offline", [f"{HOSTILE} Fleming discovered penicillin [1]."])
    server = serve(create_app({"TESTING": True}, pipeline=make_pipeline(writer)))
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        page.goto(server.url)
        page.fill("#question", "<script>alert(2)</script>")
        page.click("#send")
        answer = page.wait_for_selector(".turn .answer")
        assert HOSTILE in answer.text_content()
        assert page.query_selector_all(".turn img") == [] and page.query_selector_all(".turn script") == []
        assert page.query_selector(".turn .question").text_content() == "<script>alert(2)</script>"
        page.wait_for_timeout(300)
        assert page.dialogs == []
        assert not [url for url in requested if url.endswith("/x")]  # the <img> never loaded
    finally:
        server.close()


def test_server_errors_are_shown_to_the_user(page):
    class Broken:
        generator = make_pipeline().generator

        def ask(self, **kwargs):
            raise RuntimeError("internal detail")

    server = serve(create_app({"TESTING": False}, pipeline=Broken()))
    try:
        page.goto(server.url)
        page.click("#send")
        assert page.text_content("#status") == "Write a question first."
        page.fill("#question", "Anything?")
        page.click("#send")
        page.wait_for_selector("#status.error >> text=Something went wrong")
        assert "internal detail" not in page.text_content("body")
    finally:
        server.close()


def test_book_manager_uploads_lists_and_removes_a_document(tmp_path, browser):
    from playwright.sync_api import expect

    from test_documents import BOOK, library_pipeline

    server = serve(create_app({"TESTING": True}, pipeline=library_pipeline(tmp_path / "lib")))
    context = browser.new_context()
    page = context.new_page()
    confirmations = []
    page.on("dialog", lambda dialog: (confirmations.append(dialog.message), dialog.accept()))
    book = tmp_path / "kettles.txt"
    book.write_text(BOOK)
    try:
        page.goto(server.url)
        page.click("#library-panel summary")
        page.wait_for_selector("#documents tbody tr")
        assert "4 documents" in page.text_content("#library-stats")
        page.set_input_files("#upload-file", str(book))
        page.fill("#upload input[name=author]", "A. Brewer")
        page.click("#upload-button")
        expect(page.locator("#upload-status")).to_contain_text("passages indexed", timeout=30_000)
        assert page.eval_on_selector("#upload-progress", "p => p.value") == 100
        expect(page.locator("#library-stats")).to_contain_text("5 documents")
        row = page.locator("#documents tbody tr", has_text="Kettles and Tea")
        assert row.locator("td").nth(1).text_content() == "txt"
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "book-manager.png"), full_page=True)

        page.fill("#question", "How hot should the water for green tea be?")
        page.press("#question", "Enter")
        card = page.wait_for_selector(".passage")
        assert "Kettles and Tea" in card.query_selector(".passage-ref").text_content()

        row.locator("button.remove").click()
        expect(page.locator("#upload-status")).to_contain_text("Removed")
        assert confirmations and "Kettles and Tea" in confirmations[0]
        expect(page.locator("#documents tbody tr", has_text="Kettles and Tea")).to_have_count(0)
    finally:
        context.close()
        server.close()
