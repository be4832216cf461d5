"""The chat page in a real headless Chromium: streamed answers, citation links that show and highlight their passage,
unverified citations marked, hostile answers that neither run nor load, history, feedback, settings, Hebrew display."""
import os
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app
from conftest import CORPUS, EndlessWriter, FakeClassifier, FakeEmbedder, FakeWriter, make_pipeline, make_retriever
from generator import Generator
from models import Document
from pipeline import Pipeline
from writers.verify import Verifier

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
OUTPUT = Path("test-output")
VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"
ELSEWHERE = "198.51.100.7"  # a documentation-only address (RFC 5737): nothing there, and the page must never ask
# Passage 1 (Fleming) supports the claim; passage 2 (Everest) does not, so the real verifier marks [2] unverified.
FLEMING_ANSWER = "Fleming discovered penicillin in 1928 [1][2]."
FLEMING_SENTENCE = "He discovered penicillin in 1928."

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


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 650})
    page = context.new_page()
    page.dialogs, page.errors = [], []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()
    assert page.errors == []  # no uncaught script error on any page


@pytest.fixture
def serve():
    servers = []

    def start(app):
        servers.append(Server(app))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def checked_pipeline(writer, docs=CORPUS):
    """Real retrieval and the real citation verifier, over the fake embedder; a fake writer."""
    generator = Generator({writer.name: writer}, writer.name, verifier=Verifier(FakeEmbedder()))
    return Pipeline(FakeClassifier(), make_retriever(docs), generator, {"library": {"chunks": len(docs)}})


def ask(page, question):
    """Type a question and send it with Enter; returns the new turn once its answer is final."""
    count = page.locator(".turn").count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    turn = page.locator(".turn").nth(count)
    turn.locator(".feedback").wait_for()  # shown when `done` arrives with the answer's history id
    return turn


def test_question_gets_a_cited_answer_and_evidence(real_app, page, serve):
    server = serve(real_app)
    page.goto(server.url)
    page.wait_for_selector(".health.ok")
    turn = ask(page, "Who discovered penicillin?")
    assert turn.locator(".question").text_content() == "Who discovered penicillin?"
    assert turn.locator(".query-type").text_content() == "Factual lookup"
    answer = turn.locator(".answer")
    assert "Fleming" in answer.text_content()
    link = answer.locator("a.cite").first
    assert link.text_content() == "[1]" and link.get_attribute("href") == "#turn-1-p1"
    cards = turn.locator(".passage")
    assert cards.count() >= 1 and cards.first.locator(".passage-title").text_content() == "Alexander Fleming"
    assert "BM25" in cards.first.locator(".scores").text_content()
    link.click()
    assert page.evaluate("location.hash") == "#turn-1-p1"
    assert turn.locator("#turn-1-p1 .passage-text mark").count() >= 1  # the sentence the claim rests on
    assert page.input_value("#question") == ""  # cleared for the next question
    OUTPUT.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1100, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(OUTPUT / "answer.png"))


def test_clicking_a_citation_scrolls_to_its_passage_and_marks_the_cited_sentence(page, serve):
    answer = "Fleming discovered penicillin in 1928 [1]. Photosynthesis releases oxygen [4]."
    server = serve(create_app({"TESTING": True}, pipeline=checked_pipeline(FakeWriter("offline", [answer]))))
    page.set_viewport_size({"width": 1000, "height": 500})  # small, so that the last card starts below the fold
    page.goto(server.url)
    turn = ask(page, "Who discovered penicillin in 1928?")
    page.evaluate("window.scrollTo(0, 0)")
    card = turn.locator("#turn-1-p4")
    assert card.locator(".passage-title").text_content() == "Photosynthesis"
    assert page.evaluate("document.querySelector('#turn-1-p4').getBoundingClientRect().top") > 500
    assert turn.locator(".passage mark").count() == 0

    first, last = turn.locator(".answer a.cite").all()
    first.hover()  # hover shows the passage: its title, what was checked, and the cited sentence marked
    popover = page.locator("#cite-popover")
    popover.wait_for(state="visible")
    assert popover.locator(".popover-title").text_content() == "Alexander Fleming"
    assert popover.locator("mark").text_content() == FLEMING_SENTENCE
    assert popover.locator(".popover-check").text_content().startswith("supported")
    page.mouse.move(0, 0)
    popover.wait_for(state="hidden")

    last.click()
    page.wait_for_function("""() => { const r = document.querySelector('#turn-1-p4').getBoundingClientRect();
                                      return r.top >= 0 && r.bottom <= window.innerHeight; }""")
    assert card.locator("mark").text_content() == "It releases oxygen."
    assert card.locator(".passage-text").text_content() == CORPUS[2].text  # marked, not changed
    assert "is-target" in card.get_attribute("class") and page.evaluate("location.hash") == "#turn-1-p4"
    first.click()  # another citation moves the mark
    assert turn.locator(".passage mark").all_text_contents() == [FLEMING_SENTENCE]

    page.focus("#question")  # keyboard focus shows the passage too
    for _ in range(40):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.classList.contains('cite')"):
            break
    assert page.evaluate("document.activeElement.textContent") == "[4]"
    assert page.locator("#cite-popover .popover-title").text_content() == "Photosynthesis"
    assert page.locator("#cite-popover").is_visible()


def test_an_unverified_citation_is_marked(page, serve):
    server = serve(create_app({"TESTING": True}, pipeline=checked_pipeline(FakeWriter("offline", [FLEMING_ANSWER]))))
    page.goto(server.url)
    turn = ask(page, "Who discovered penicillin in 1928?")
    supported, unsupported = turn.locator(".answer a.cite").all()
    assert (supported.text_content(), unsupported.text_content()) == ("[1]", "[2]")
    assert "unverified" not in supported.get_attribute("class") and supported.get_attribute("title") is None
    assert "unverified" in unsupported.get_attribute("class")
    assert unsupported.get_attribute("title") == "not supported by this passage"
    style = "el => [getComputedStyle(el).color, getComputedStyle(el).textDecorationStyle]"
    assert supported.evaluate(style) != unsupported.evaluate(style)
    assert unsupported.evaluate(style)[1] == "dotted"
    unsupported.hover()
    assert page.locator("#cite-popover .popover-check").text_content() == "not supported by this passage"


def test_the_answer_streams_in_then_becomes_the_verified_markdown(page, serve):
    text = "**Fleming** discovered penicillin in 1928 [1]. He was a Scottish physician [1]."
    server = serve(create_app({"TESTING": True},
                              pipeline=checked_pipeline(FakeWriter("offline", [text], delay=0.25))))
    page.goto(server.url)
    page.fill("#question", "Who discovered penicillin in 1928?")
    page.press("#question", "Enter")
    answer = page.locator(".turn .answer")
    page.wait_for_function("() => document.querySelector('.turn .answer.streaming')?.textContent.length > 0")
    partial = answer.text_content()
    assert text.startswith(partial) and len(partial) < len(text)  # some of it, before the answer event
    assert answer.locator("a.cite, strong").count() == 0  # plain text while streaming
    assert page.locator(".turn .passage").count() >= 1  # the sources arrived first
    assert page.locator("#stop").is_visible() and page.locator("#send").is_disabled()

    page.locator(".turn .answer strong").wait_for()
    assert answer.locator("strong").text_content() == "Fleming"
    assert answer.text_content().strip() == "Fleming discovered penicillin in 1928[1]. He was a Scottish physician[1]."
    assert "streaming" not in answer.get_attribute("class") and answer.locator("a.cite").count() == 2
    page.locator(".turn .feedback").wait_for()
    assert page.locator("#stop").is_hidden() and page.locator("#send").is_enabled()


def test_stop_disconnects_and_the_server_stops_writing(page, serve):
    writer = EndlessWriter()
    server = serve(create_app({"TESTING": True}, pipeline=make_pipeline(writer)))
    page.goto(server.url)
    page.fill("#question", "Who discovered penicillin?")
    page.press("#question", "Enter")
    page.wait_for_function("() => document.querySelector('.turn .answer')?.textContent.includes('word3 ')")
    page.click("#stop")
    assert writer.closed.wait(5), "the writer kept going after Stop"
    assert len(writer.produced) < 400
    page.locator(".turn .turn-error").wait_for()
    assert page.locator(".turn .turn-error").text_content().startswith("Stopped.")
    assert page.locator("#send").is_enabled() and page.input_value("#question") == "Who discovered penicillin?"


HOSTILE_ANSWER = f"""**Fleming** discovered penicillin [1]. <script>alert(1)</script>
<img src="http://{ELSEWHERE}/x.png" onerror="alert(2)"> <iframe src="http://{ELSEWHERE}/"></iframe>
<form action="http://{ELSEWHERE}/"><input name=q></form> <b style="color:red" onclick="alert(3)">bold</b>
<style>body {{ background: url(http://{ELSEWHERE}/bg.png) }}</style> [click](javascript:alert(4)) [1]"""


def test_a_hostile_answer_neither_runs_nor_loads(page, serve):
    server = serve(create_app({"TESTING": True}, pipeline=make_pipeline(FakeWriter("offline", [HOSTILE_ANSWER]))))
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.url)
    page.fill("#question", "<script>alert(5)</script><img src=x onerror=alert(6)>")
    page.click("#send")
    answer = page.locator(".turn .answer")
    page.locator(".turn .feedback").wait_for()
    assert answer.locator("strong").text_content() == "Fleming"  # markdown is rendered...
    for tag in ("script", "img", "iframe", "form", "input", "style", "b"):  # ...raw HTML is not
        assert answer.locator(tag).count() == 0, tag
    assert "<script>alert(1)</script>" in answer.text_content()  # shown as the text it is
    assert page.evaluate("""() => [...document.querySelectorAll('.turn *')].flatMap(el => [...el.attributes])
                                  .filter(a => a.name.startsWith('on') || a.name === 'style').length""") == 0
    assert page.evaluate("[...document.querySelectorAll('.turn a')].filter(a => a.href.startsWith('javascript')).length") == 0
    assert page.locator(".turn .question").text_content() == "<script>alert(5)</script><img src=x onerror=alert(6)>"

    # Markdown images: from elsewhere removed by the DOMPurify hook, from this origin kept.
    page.evaluate(f"""async () => {{
        const {{ renderMarkdown }} = await import('/static/markdown.js');
        const box = document.createElement('div');
        box.id = 'sandbox';
        document.body.appendChild(box);
        renderMarkdown(box, '![far](http://{ELSEWHERE}/y.png) ![near](/static/no-such-image.png) ' +
                            '<img src="http://{ELSEWHERE}/z.png" onerror="alert(7)"> [2]', n => {{
            const a = document.createElement('a'); a.className = 'cite'; a.textContent = `[${{n}}]`; return a; }});
    }}""")
    sandbox = page.locator("#sandbox")
    assert [img.get_attribute("alt") for img in sandbox.locator("img").all()] == ["near"]
    assert sandbox.locator("a.cite").text_content() == "[2]"
    page.wait_for_timeout(500)
    assert page.dialogs == []
    assert not [url for url in requested if ELSEWHERE in url]
    assert page.evaluate("() => document.querySelector('#sandbox img').src").endswith("/static/no-such-image.png")
    response = page.request.get(server.url)
    assert "img-src 'self'" in response.headers["content-security-policy"]


def test_server_errors_are_shown_to_the_user(page, serve):
    class Broken:
        generator = make_pipeline().generator

        def ask(self, **kwargs):
            raise RuntimeError("internal detail")

        def stream(self, **kwargs):
            raise RuntimeError("internal detail")
            yield  # a generator: the failure happens once the stream has begun

    server = serve(create_app({"TESTING": False}, pipeline=Broken()))
    page.goto(server.url)
    page.click("#send")
    assert page.text_content("#status") == "Write a question first."
    page.fill("#question", "Anything?")
    page.click("#send")
    page.wait_for_selector("#status.error >> text=Something went wrong")
    assert "Something went wrong" in page.locator(".turn .turn-error").text_content()
    assert "internal detail" not in page.text_content("body")


def test_without_the_stream_endpoint_the_page_asks_api_query(page, serve):
    server = serve(create_app({"TESTING": True}, pipeline=checked_pipeline(FakeWriter("offline", [FLEMING_ANSWER]))))
    page.route("**/api/query/stream", lambda route: route.fulfill(status=404, json={"error": "Not found"}))
    asked = []
    page.on("request", lambda request: asked.append(request.url.split("/", 3)[-1]) if "/api/query" in request.url else None)
    page.goto(server.url)
    turn = ask(page, "Who discovered penicillin in 1928?")
    assert asked == ["api/query/stream", "api/query"]
    assert turn.locator(".answer a.cite.unverified").text_content() == "[2]"


def test_history_feedback_settings_and_conversations(page, serve):
    app = create_app({"TESTING": True}, pipeline=make_pipeline(FakeWriter("offline", [
        "Fleming discovered penicillin [1].", "Everest lies in the Himalayas [1].", "In 1928 [1].", "In 1928 [1]."])))
    server = serve(app)
    bodies = []
    page.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith("/api/query/stream") else None)
    page.goto(server.url)
    page.wait_for_selector(".health.ok")

    # Settings: chosen, kept across a reload, sent with the question.
    page.click("#settings-panel summary")
    page.select_option("#setting-provider", "offline")
    page.fill("#setting-model", "my-model")
    page.fill("#setting-top-k", "3")
    page.select_option("#setting-language", "he")
    assert [o.get_attribute("value") for o in page.locator("#setting-language option").all()] == ["auto", "en", "he"]
    page.reload()
    page.wait_for_selector(".health.ok")
    assert page.input_value("#setting-provider") == "offline" and page.input_value("#setting-model") == "my-model"
    assert page.input_value("#setting-top-k") == "3" and page.input_value("#setting-language") == "he"
    first = ask(page, "Who discovered penicillin?")
    assert first.locator(".passage").count() == 3
    sent = bodies[-1]
    assert {k: sent[k] for k in ("question", "provider", "model", "top_k", "language")} == {
        "question": "Who discovered penicillin?", "provider": "offline", "model": "my-model", "top_k": 3, "language": "he"}
    page.click("#settings-panel summary")
    page.select_option("#setting-language", "auto")
    page.fill("#setting-top-k", "")

    # History: both questions listed, newest first; search narrows the list.
    ask(page, "Where is Mount Everest?")
    entries = page.locator(".history-entry .history-question")
    page.wait_for_function("() => document.querySelectorAll('.history-entry').length === 2")
    assert entries.all_text_contents() == ["Where is Mount Everest?", "Who discovered penicillin?"]
    assert "unreviewed" in page.locator(".history-entry").first.text_content()
    page.fill("#history-search", "everest")
    page.wait_for_function("() => document.querySelectorAll('.history-entry').length === 1")
    assert entries.all_text_contents() == ["Where is Mount Everest?"]
    page.fill("#history-search", "penicillin")
    page.wait_for_function("() => document.querySelector('.history-entry')?.textContent.includes('penicillin')")

    # Feedback: a click POSTs the rating and comment, and says it was saved.
    second = page.locator(".turn").nth(1)
    second.locator(".feedback-comment").fill("clear and sourced")
    with page.expect_request(lambda r: r.url.endswith("/feedback")) as posted:
        second.locator("button.rate-up").click()
    assert posted.value.post_data_json == {"rating": "up", "comment": "clear and sourced"}
    page.wait_for_function("() => document.querySelectorAll('.feedback-status')[1].textContent.includes('feedback saved')")
    answer_id = posted.value.url.split("/")[-2]
    assert app.extensions["history"].get(answer_id)["feedback"][0]["comment"] == "clear and sourced"
    assert second.locator("button.rate-up").get_attribute("aria-pressed") == "true"

    # Opening an entry shows it with its review; a follow-up continues its conversation and shows what was searched.
    corrected = "Everest lies in the Himalayas, on the China–Nepal border [1]."
    assert app.test_client().post(f"/api/history/{answer_id}/review",
                                  json={"status": "corrected", "corrected_text": corrected}).status_code == 200
    page.fill("#history-search", "")
    page.wait_for_function("() => document.querySelectorAll('.history-entry').length === 2")
    assert "corrected" in page.locator(".history-entry").first.locator(".review").text_content()
    page.locator(".history-entry").first.click()
    page.wait_for_selector(".turn .from-history:not([hidden])")
    assert page.locator(".turn").count() == 1
    assert page.locator(".turn .question").text_content() == "Where is Mount Everest?"
    assert page.locator(".turn .answer").text_content().strip() == "Everest lies in the Himalayas[1]."
    assert page.locator(".turn .review-note .corrected").text_content() == corrected
    assert page.locator(".turn .passage-title").first.text_content() == "Mount Everest"
    follow = ask(page, "And in what year?")
    assert follow.locator(".rewritten").is_visible()
    assert follow.locator(".standalone").text_content() == "Where is Mount Everest? And in what year?"
    assert bodies[-1]["session_id"] == sent["session_id"]

    # A new conversation has a new session, so nothing is rewritten.
    page.click("#new-conversation")
    assert page.locator(".turn").count() == 0
    fresh = ask(page, "And in what year?")
    assert bodies[-1]["session_id"] != sent["session_id"] and fresh.locator(".rewritten").is_hidden()


HEBREW = [
    Document("oc-318", "שולחן ערוך, אורח חיים", "המבשל בשבת חייב. מותר לחמם מים לפני השבת ולהשאירם על האש המכוסה."),
    Document("oc-495", "Shulchan Arukh", "ביום טוב מותר לבשל אוכל נפש. אסור לבשל ביום טוב לצורך יום אחר."),  # as imported
    *CORPUS,
]
HEBREW_REFS = {"oc-318": "Shulchan Arukh, Orach Chayim 318:1", "oc-495": "Shulchan Arukh, Orach Chayim 495:1"}


def hebrew_pipeline(writer):
    """checked_pipeline over HEBREW, whose Shulchan Arukh passages carry canonical refs as imported ones do."""
    pipeline = checked_pipeline(writer, HEBREW)
    view = pipeline.retriever.library.current()
    view.chunks[:] = [replace(c, ref=HEBREW_REFS.get(c.doc_id)) for c in view.chunks]
    return pipeline


def test_hebrew_reads_right_to_left_and_english_left_to_right(page, serve):
    writer = FakeWriter("offline", [
        "מותר לחמם מים לפני השבת ולהשאירם על האש המכוסה [1].",
        "ביום טוב מותר לבשל אוכל נפש [1]. אסור לבשל ביום טוב לצורך יום אחר [1].",
        "Fleming discovered penicillin in 1928 [1].",
    ])
    server = serve(create_app({"TESTING": True}, pipeline=hebrew_pipeline(writer)))
    page.goto(server.url)
    hebrew = ask(page, "האם מותר לחמם מים בשבת?")
    ask(page, "ומה ביום טוב?")
    english = ask(page, "Who discovered penicillin in 1928?")
    direction = "el => getComputedStyle(el).direction"
    assert hebrew.locator(".answer").evaluate(direction) == "rtl"
    assert hebrew.locator(".answer p").first.evaluate(direction) == "rtl"
    assert hebrew.locator(".question").evaluate(direction) == "rtl"
    hebrew_card = hebrew.locator(".passage", has_text="שולחן ערוך").first
    assert hebrew_card.locator(".passage-text").evaluate(direction) == "rtl"
    assert hebrew_card.locator("bdi.passage-title").text_content() == "שולחן ערוך, אורח חיים"
    ref = hebrew_card.locator("bdi.passage-ref")  # the Hebrew label of the canonical ref, the English on hover
    assert (ref.text_content(), ref.get_attribute("title")) == ('שו"ע או"ח שי"ח:א', "Shulchan Arukh, Orach Chayim 318:1")
    assert english.locator(".answer").evaluate(direction) == "ltr"
    assert english.locator(".passage", has_text="Fleming").first.locator(".passage-text").evaluate(direction) == "ltr"
    page.wait_for_function("() => document.querySelectorAll('.history-question').length === 3")
    assert [q.evaluate(direction) for q in page.locator(".history-question").all()] == ["ltr", "rtl", "rtl"]

    hebrew.locator(".answer a.cite").first.click()
    assert hebrew.locator(".passage-text mark").first.text_content() == "מותר לחמם מים לפני השבת ולהשאירם על האש המכוסה."
    assert hebrew_card.evaluate(direction) == "rtl"  # the whole card, its title first on the right
    yom_tov = page.locator(".turn").nth(1).locator(".passage", has_text="ביום טוב").first  # an English title
    assert yom_tov.evaluate(direction) == "rtl" and yom_tov.locator("bdi.passage-ref").text_content() == 'שו"ע או"ח תצ"ה:א'
    # The window as tall as the page, so the sticky question box sits at the bottom of the picture.
    page.set_viewport_size({"width": 1100, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.evaluate("window.scrollTo(0, 0)")
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "hebrew-conversation.png"))


def test_book_manager_uploads_lists_and_removes_a_document(tmp_path, browser, serve):
    from playwright.sync_api import expect
    from test_documents import BOOK, library_app

    server = serve(library_app({"TESTING": True}, tmp_path / "lib"))
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
