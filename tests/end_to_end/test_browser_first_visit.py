"""What a first visit meets, in a real headless Chromium: words that fit the library, the built-in library shown
read-only after the user's own books with the day each was added, markdown passages rendered, the
show/hide-all-sources toggle, feedback that sticks, the review queue, and the page on a phone."""
import re

from browser import OUTPUT, ask, require_chromium, reviewer_view
from builders import library_app, upload, wait_for
from conftest import FakeWriter

require_chromium()

NOTES = b"""# Tea notes

## Brewing green tea

Green tea wants water at about eighty degrees for **two minutes**.
"""
SHULCHAN_ARUKH = b"Shulchan Arukh, Orach Chayim\n\nSiman 1\n\nOne should rise in the morning like a lion.\n"
ONE_PASSAGE = re.compile(r"\b1 (passages|documents)\b")


def test_a_general_library_reads_in_general_words_and_the_users_books_come_first(page, serve, tmp_path):
    writer = FakeWriter("offline", ["Green tea wants water at about eighty degrees [1]."] * 3)
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=writer)
    client = app.test_client()
    notes = wait_for(client, upload(client, "tea-notes.md", NOTES).get_json())
    assert notes["status"] == "done"
    server = serve(app)
    page.goto(server.url)
    page.wait_for_selector(".health.ok")

    # Words of religious law are not shown over a library that holds no work of it.
    assert page.eval_on_selector("#mode option[value=posek]", "o => o.hidden") is True
    assert page.text_content(".catalog-heading .panel-note") == "click a work or section to search only it"
    assert page.eval_on_selector("#upload-tier option:nth-child(5)", "o => o.textContent + ':' + o.hidden") == "apocrypha:true"

    # The book manager: the user's own book first, with a Remove button; the built-in ones read-only; dates shown.
    page.click("#library-panel summary")
    page.wait_for_selector("#documents tbody tr")
    rows = page.locator("#documents tbody tr")
    assert rows.count() == 5 and "Tea notes" in rows.first.text_content()
    assert rows.first.locator("button.remove").count() == 1 and rows.first.locator(".built-in").count() == 0
    for n in range(1, 5):
        assert rows.nth(n).locator("button.remove").count() == 0 and rows.nth(n).locator(".built-in").is_visible()
    assert all(re.search(r"\d", cell) for cell in page.locator("#documents td.added").all_text_contents())
    assert not ONE_PASSAGE.search(page.text_content("#library-panel"))
    page.click("#library-panel summary")

    # A markdown passage reads as markdown: a heading, bold text, no "##".
    turn = ask(page, "How hot should the water for green tea be?")
    card = turn.locator(".passage", has_text="Brewing green tea").first
    assert card.locator(".passage-text h2").text_content() == "Brewing green tea"
    assert card.locator(".passage-text strong").text_content() == "two minutes"
    assert "##" not in card.locator(".passage-text").text_content()

    # Hide all sources; a citation followed shows its answer's evidence again; the choice outlives a reload.
    page.click("#sources-toggle")
    assert turn.locator(".passages").is_hidden() and page.text_content("#sources-toggle") == "Show all sources"
    turn.locator(".answer a.cite").first.click()
    assert turn.locator(".passages").is_visible()
    page.reload()
    page.wait_for_selector(".health.ok")
    assert page.get_attribute("#sources-toggle", "aria-pressed") == "true"
    page.click("#sources-toggle")

    # Once the library holds a work of religious law, its words appear.
    law = upload(client, "oc.txt", SHULCHAN_ARUKH, work="Shulchan Arukh, Orach Chayim")
    assert wait_for(client, law.get_json())["status"] == "done"
    page.reload()
    page.wait_for_function("() => !document.querySelector('#mode option[value=posek]').hidden")
    assert page.text_content(".catalog-heading .panel-note") == "click a lesson, siman or chapter to search only it"


def test_feedback_sticks_and_reviewers_filter_the_log_by_status(page, serve, tmp_path):
    writer = FakeWriter("offline", ["Fleming discovered penicillin [1].", "Everest lies in the Himalayas [1]."])
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=writer)
    server = serve(app)
    page.goto(server.url)
    page.wait_for_selector(".health.ok")
    reviewer_view(page)  # a personal server's owner reviews in the reviewer's view
    first = ask(page, "Who discovered penicillin?")
    ask(page, "Where is Mount Everest?")
    assert first.locator(".review-status").input_value() == "unreviewed"  # no verdict is offered as given

    # A thumb, then a comment written after it: the comment changes the same entry, and says so.
    with page.expect_request(lambda r: r.url.endswith("/feedback")) as rated:
        first.locator("button.rate-down").click()
    page.wait_for_function("() => document.querySelector('.feedback-status').textContent.includes('saved')")
    first.locator(".feedback-comment").fill("It was 1928, say so")
    assert first.locator(".send-comment").is_visible()
    with page.expect_request(lambda r: r.url.endswith("/feedback")) as commented:
        first.locator(".feedback-comment").press("Enter")
    entry = commented.value.post_data_json["entry"]
    assert rated.value.post_data_json == {"rating": "down"}
    assert commented.value.post_data_json == {"rating": "down", "comment": "It was 1928, say so", "entry": entry}
    page.wait_for_function("() => document.querySelector('.feedback-status').textContent.includes('with your comment')")
    answer_id = commented.value.url.split("/")[-2]
    stored = app.extensions["history"].get(answer_id)["feedback"]
    assert [(f["rating"], f["comment"]) for f in stored] == [("down", "It was 1928, say so")]  # one entry

    # Opened again from the history, the answer shows the rating and comment given.
    page.locator(".history-entry", has_text="penicillin").click()
    page.wait_for_selector(".turn .from-history:not([hidden])")
    opened = page.locator(".turn").first
    assert opened.locator("button.rate-down").get_attribute("aria-pressed") == "true"
    assert opened.locator("button.rate-up").get_attribute("aria-pressed") == "false"
    assert opened.locator(".feedback-comment").input_value() == "It was 1928, say so"
    assert "Your feedback: poor answer, with your comment" in opened.locator(".feedback-status").text_content()

    # The review queue: approve one, then list only the approved, then only the unreviewed.
    opened.locator(".review-status").select_option("approved")
    opened.locator(".review-controls button[type=submit]").click()
    page.wait_for_function("() => document.querySelector('.review-saved').textContent.includes('approved')")
    page.select_option("#history-filter", "approved")
    page.wait_for_function("() => document.querySelectorAll('.history-entry').length === 1")
    assert "penicillin" in page.text_content(".history-entry")
    page.select_option("#history-filter", "unreviewed")
    page.wait_for_function("() => document.querySelector('.history-entry')?.textContent.includes('Everest')")
    assert page.locator(".history-entry").count() == 1


def test_the_page_is_usable_on_a_phone(browser, serve, tmp_path):
    writer = FakeWriter("offline", ["Fleming discovered penicillin in 1928 [1]."])
    server = serve(library_app({"TESTING": True}, tmp_path / "lib", writer=writer))
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(server.url)
        page.wait_for_selector(".health.ok")
        turn = ask(page, "Who discovered penicillin?")
        assert turn.locator(".answer").text_content().startswith("Fleming discovered penicillin")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
        box = page.locator("#question").bounding_box()
        assert box["width"] >= 330  # the question box takes the width, not a squeezed column
        for control in ("#send", "#mode"):
            placed = page.locator(control).bounding_box()
            assert placed["x"] >= 0 and placed["x"] + placed["width"] <= 390 and placed["height"] >= 28
        page.click("#library-panel summary")
        page.wait_for_selector("#documents tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls inside itself
        page.click("#library-panel summary")
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "phone-390.png"), full_page=True)
        assert (OUTPUT / "phone-390.png").stat().st_size > 10_000
    finally:
        context.close()
    assert errors == []
