"""The providers panel in a real headless Chromium: on a shared server an admin pastes Claude's key and a model,
saves, and the next question is written by Claude's real SDK, which sends that key to its stand-in (tests/standin.py);
the key is never filled back into the page, is in no response the page receives, and a learner sees no panel and
is refused the API. A personal server's owner gets the panel too, and clearing brings the environment's back.

The hosted writers are built as a server builds them (writers/live.py); the embedder and classifier are fakes."""
from playwright.sync_api import expect

from accounts.passwords import hash_password
from app import create_app
from browser import OUTPUT, PASSWORD, ask, require_chromium
from configuration.settings import Settings
from conftest import FakeClassifier, FakeWriter, make_retriever
from generator import Generator
from pipeline import Pipeline
from standin import claude_message, claude_stream
from writers.live import LiveWriters

require_chromium()

KEY = "sk-ant-api03-" + "b" * 40 + "LAST"
QUESTION = "Who discovered penicillin?"


def provider_app(standins, **config):
    """A server whose Claude writer talks to the stand-in; no key in the environment."""
    config = {"TESTING": True, "ANTHROPIC_BASE_URL": standins["claude"].url, "ANTHROPIC_API_KEY": "",
              "GEMINI_API_KEY": "", "OPENAI_API_KEY": "", "LLM_TIMEOUT": 3.0, "LLM_RETRIES": 0, **config}
    writers = LiveWriters(Settings.of(config).writers, {"offline": FakeWriter("offline")})
    pipeline = Pipeline(FakeClassifier(), make_retriever(), Generator(writers, None), {"library": {"chunks": 4}},
                        max_searches=0)
    standins["claude"].replies.clear()
    standins["claude"].reply(200, lambda body: claude_stream([{"type": "text", "text": "Fleming did [1]."}])
                             if body.get("stream") else claude_message("Fleming did [1]."))
    return create_app(config, pipeline=pipeline)


def open_page(browser, server, name=None):
    """A fresh context on the page, signed in as name (None: a personal server); every response body is kept."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.errors, page.bodies = [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("response", lambda r: page.bodies.append(r.text()) if "/api/" in r.url and "stream" not in r.url else None)
    page.goto(server.url)
    if name:
        page.fill("#sign-in-name", name)
        page.fill("#sign-in-password", PASSWORD)
        page.click("#sign-in-button")
    expect(page.locator("#app")).to_be_visible()
    return page


def row(page, name="claude"):
    return page.locator(f"#providers tr[data-provider='{name}']")


def test_an_admin_sets_claudes_key_on_the_page_and_the_next_answer_uses_it(browser, serve, standins):
    app = provider_app(standins)
    accounts = app.extensions["history"].accounts
    accounts.create("rivka", "admin", hash_password(PASSWORD))
    accounts.create("lea", "learner", hash_password(PASSWORD))
    server = serve(app)
    admin = open_page(browser, server, "rivka")
    try:
        admin.click("#providers-panel summary")
        expect(row(admin)).to_contain_text("no key")
        expect(row(admin, "openai")).to_contain_text("OPENAI_BASE_URL")
        key_input = row(admin).locator("input.provider-key")
        assert key_input.get_attribute("type") == "password" and key_input.input_value() == ""
        key_input.fill(KEY)
        row(admin).locator("input.provider-model").fill("claude-opus-4-1")
        row(admin).locator("button.provider-save").click()
        expect(admin.locator("#providers-status")).to_have_text(
            "Claude: key saved (key …LAST, set here); it answers with claude-opus-4-1.")
        expect(key_input).to_have_value("")  # emptied: the key is the server's now
        expect(row(admin)).to_contain_text("answers")
        expect(admin.locator("#setting-provider option[value='claude']")).to_have_count(1)  # the writers read again

        admin.click("#settings-panel summary")
        admin.select_option("#setting-provider", "claude")
        turn = ask(admin, QUESTION)
        expect(turn.locator(".generator")).to_have_text("answered by claude (claude-standin)")
        sent = standins["claude"].requests[-1]
        assert KEY in (sent["headers"].get("x-api-key"), sent["headers"].get("authorization", "").removeprefix("Bearer "))
        assert sent["json"]["model"] == "claude-opus-4-1"

        admin.reload()  # a fresh page: the key field is empty, and the key is nowhere in it
        expect(admin.locator("#app")).to_be_visible()
        admin.click("#providers-panel summary")
        expect(row(admin)).to_contain_text("key …LAST, set here")
        assert row(admin).locator("input.provider-key").input_value() == ""
        assert KEY not in admin.content() and not any(KEY in body for body in admin.bodies)
        OUTPUT.mkdir(exist_ok=True)
        admin.locator("#providers-panel").screenshot(path=str(OUTPUT / "providers-panel.png"))

        learner = open_page(browser, server, "lea")
        assert learner.locator("#providers-panel").is_hidden()
        status = learner.evaluate("async () => (await fetch('/api/admin/providers')).status")
        assert status == 403
        assert admin.errors == [] and learner.errors == []
    finally:
        admin.context.close()


def test_a_personal_owner_clears_the_key_and_the_environments_stands_again(browser, serve, standins):
    app = provider_app(standins, ANTHROPIC_API_KEY="sk-ant-environment-key-ENVK")
    app.extensions["history"].provider_settings.put("claude", {"api_key": KEY}, "owner")
    page = open_page(browser, serve(app))
    try:
        page.click("#providers-panel summary")
        expect(row(page)).to_contain_text("key …LAST, set here")
        row(page).locator("button.provider-clear").click()
        expect(page.locator("#providers-status")).to_have_text(
            "Claude: the key and model set here are cleared; the environment's key stands.")
        expect(row(page)).to_contain_text("key …ENVK, from the server's environment")
        expect(row(page).locator("button.provider-clear")).to_be_disabled()
        row(page).locator("button.provider-save").click()
        expect(page.locator("#providers-status")).to_have_text("Nothing to save for Claude: type a key or a model.")
        assert app.extensions["history"].provider_settings.all() == {} and page.errors == []
    finally:
        page.context.close()
