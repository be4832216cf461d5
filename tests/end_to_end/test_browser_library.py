"""The chat page in a real headless Chromium: history, feedback, settings and conversations, Hebrew display, and
the book manager."""
from dataclasses import replace

from app import create_app
from browser import OUTPUT, ask, checked_pipeline, require_chromium, reviewer_view
from builders import BOOK, library_app
from conftest import CORPUS, FakeWriter, make_pipeline
from models import Document

require_chromium()


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
STANDING = {"oc-318": {"community": "Sephardi", "era": "Acharonim", "authority_weight": 1.0, "tier": "canonical"}}


def hebrew_pipeline(writer):
    """checked_pipeline over HEBREW, whose Shulchan Arukh passages carry canonical refs as imported ones do."""
    pipeline = checked_pipeline(writer, HEBREW)
    view = pipeline.retriever.library.current()
    view.chunks[:] = [replace(c, ref=HEBREW_REFS.get(c.doc_id), **STANDING.get(c.doc_id, {})) for c in view.chunks]
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
    assert hebrew_card.locator(".passage-standing").text_content() == "Sephardi · Acharonim"
    assert hebrew_card.locator(".scores").text_content().endswith("authority 1.0")  # a score: in the details
    assert english.locator(".answer").evaluate(direction) == "ltr"
    assert english.locator(".passage", has_text="Fleming").first.locator(".passage-text").evaluate(direction) == "ltr"
    assert english.locator(".passage", has_text="Fleming").first.locator(".passage-standing").text_content() == ""
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

    server = serve(library_app({"TESTING": True}, tmp_path / "lib"))
    context = browser.new_context()
    page = context.new_page()
    confirmations = []
    page.on("dialog", lambda dialog: (confirmations.append(dialog.message), dialog.accept()))
    book = tmp_path / "kettles.txt"
    book.write_text(BOOK)
    try:
        page.goto(server.url)
        reviewer_view(page)  # where the Remove buttons are
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
