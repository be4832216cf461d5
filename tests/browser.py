"""What the browser tests share: Debian's chromium driven by Playwright, the app served on a loopback port,
and pages whose script errors fail the test. Test modules import the fixtures they use from here."""
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from conftest import CORPUS, FakeClassifier, FakeEmbedder, make_retriever
from generator import Generator
from pipeline import Pipeline
from checks.verify import Verifier

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
OUTPUT = Path("test-output")
VENDOR = Path(__file__).resolve().parents[1] / "static" / "vendor"
ELSEWHERE = "198.51.100.7"  # a documentation-only address (RFC 5737): nothing there, and the page must never ask
# Passage 1 (Fleming) supports the claim; passage 2 (Everest) does not, so the real verifier marks [2] unverified.
FLEMING_ANSWER = "Fleming discovered penicillin in 1928 [1][2]."
FLEMING_SENTENCE = "He discovered penicillin in 1928."
PASSWORD = "correct horse battery"  # every test account's
PHONE = {"width": 390, "height": 844}  # a phone's viewport, as the page is checked at it


def shot(page, name, on=None):
    """A screenshot of what the reader sees (the question box stays where it sticks), with the element on in sight
    when given; kept in test-output/ as reading-<name>.png."""
    OUTPUT.mkdir(exist_ok=True)
    if on is not None:
        on.evaluate("element => element.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(OUTPUT / f"reading-{name}.png"))



def require_chromium() -> None:
    """Skip the calling test module without Debian's chromium (outside CI); fail it without the page's libraries."""
    if not shutil.which(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip("Debian's chromium is not installed; `make test` installs it", allow_module_level=True)
    if not (VENDOR / "marked.umd.js").exists() or not (VENDOR / "purify.min.js").exists():
        pytest.fail("static/vendor/ has no marked or DOMPurify; run `make vendor` (part of `make install`)", pytrace=False)


class Server:
    """A Flask app served on a free loopback port in a thread."""

    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()


def checked_pipeline(writer, docs=CORPUS):
    """Real retrieval and the real citation verifier, over the fake embedder; a fake writer."""
    generator = Generator({writer.name: writer}, writer.name, verifier=Verifier(FakeEmbedder()))
    return Pipeline(FakeClassifier(), make_retriever(docs), generator, {"library": {"chunks": len(docs)}})


def open_page(browser, server, locale="en-US", height=800):
    """A page on the app in a fresh context (its own storage and cookies) whose browser speaks locale; script errors
    are collected in page.errors and dialogs accepted. Close it with page.context.close()."""
    context = browser.new_context(locale=locale, viewport={"width": 1100, "height": height})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(server.url)
    return page


@contextmanager
def ready_page(browser, server, locale="en-US", height=800):
    """open_page, once the page says the server is ready; its context is closed after."""
    page = open_page(browser, server, locale, height)
    try:
        page.wait_for_selector(".health.ok")
        yield page
    finally:
        page.context.close()


@contextmanager
def loaded_page(browser, server, locale="en-US"):
    """open_page on an app whose real models load as it starts (slower than the fakes), once it is ready; its
    context is closed after."""
    page = open_page(browser, server, locale)
    try:
        page.wait_for_selector(".health.ok", timeout=120_000)
        yield page
    finally:
        page.context.close()


def sign_in(browser, server, name, locale="en-US"):
    """A page of its own (its own cookies), signed in as name with PASSWORD, the chat shown and the server ready."""
    from playwright.sync_api import expect

    page = open_page(browser, server, locale)
    expect(page.locator("#sign-in")).to_be_visible()
    page.fill("#sign-in-name", name)
    page.fill("#sign-in-password", PASSWORD)
    page.click("#sign-in-button")
    expect(page.locator("#account-name")).to_have_text(name)
    expect(page.locator("#app")).to_be_visible()
    expect(page.locator("#sign-in")).to_be_hidden()
    page.wait_for_selector(".health.ok")
    return page


def reviewer_view(page):
    """Switch the page to the reviewer's view in Settings: review controls, passage scores and Remove buttons shown."""
    page.click("#settings-panel summary")
    page.check("#setting-reviewer-view")
    page.click("#settings-panel summary")


def ask(page, question):
    """Type a question and send it with Enter; returns the new turn once its answer is final."""
    count = page.locator(".turn").count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    turn = page.locator(".turn").nth(count)
    turn.locator(".feedback").wait_for()  # shown when `done` arrives with the answer's history id
    return turn
