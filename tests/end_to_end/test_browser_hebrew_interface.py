"""The page in the reader's language, and a reader's view apart from a reviewer's, in a real headless Chromium
(issue 36): a browser whose language is Hebrew gets the Hebrew page, mirrored right to left, with the catalog's
path reading right to left; the switch to English holds after a reload. A reader meets no passage scores, review
controls or Remove buttons until a card's Details or the reviewer's view (Settings) shows them; with accounts, a
learner never meets them and a reviewer does.

A real library, ingest, history and users; the embedder, classifier and writer are fakes."""
import re

from playwright.sync_api import expect

from accounts.passwords import hash_password
from browser import OUTPUT, PASSWORD, ask, ready_page, require_chromium, sign_in
from builders import BOOK, library_app, upload, wait_for
from conftest import FakeWriter

require_chromium()

HEBREW_TITLE = "תה וקומקומים"  # a Hebrew course whose lessons are named in English: the path mixes directions
HEBREW_BOOK = BOOK.replace("Kettles and Tea", HEBREW_TITLE).encode()
HEBREW_LETTER = re.compile(r"[\u0590-\u05FF]")
SCORE_WORDS = re.compile(r"\b(BM25|dense|hybrid|cross-encoder|fused)\b")
WIDTH = 1100  # open_page's viewport


def box(page, selector):
    """The bounding box of the first element selector matches."""
    return page.locator(selector).first.bounding_box()


def scope_to_lesson_two(page):
    """Open the Hebrew course in the catalog and narrow the search to its second lesson; the path's two names."""
    page.click("#library-panel summary")
    work = page.locator(".catalog-work", has_text=HEBREW_TITLE)
    work.locator("summary").click()
    work.locator(".catalog-section button.section-filter").nth(1).click()
    expect(page.locator("#scope")).to_be_visible()
    names = page.locator("#scope-label bdi")
    expect(names).to_have_count(2)
    assert names.all_text_contents() == [HEBREW_TITLE, "Lesson 2: Brewing"]
    return names.nth(0).bounding_box(), names.nth(1).bounding_box()


def test_a_hebrew_browser_gets_the_hebrew_page_mirrored_and_english_is_a_switch_away(tmp_path, browser, serve):
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=FakeWriter("offline", ["Fleming [1]."] * 3))
    client = app.test_client()
    assert wait_for(client, upload(client, "tea.txt", HEBREW_BOOK).get_json())["status"] == "done"
    server = serve(app)
    OUTPUT.mkdir(exist_ok=True)
    with ready_page(browser, server, locale="he-IL") as page:
        # The browser speaks Hebrew: so does the page, from the right, with its numbers and plurals.
        assert (page.get_attribute("html", "lang"), page.get_attribute("html", "dir")) == ("he", "rtl")
        expect(page.locator("#send")).to_have_text("שאל")
        expect(page.locator("#new-conversation")).to_have_text("שיחה חדשה")
        expect(page.locator("#sources-toggle")).to_have_text("הסתר את כל המקורות")
        expect(page.locator("#history-heading")).to_have_text("היסטוריה")
        assert page.input_value("#page-language") == "he"
        assert page.get_attribute("#question", "placeholder").startswith("שאל שאלה")
        assert re.search(r"מוכן · \d+ קטעים", page.text_content("#health"))
        assert page.evaluate("""async () => {
            const { t } = await import("/static/i18n.js");
            return [1, 2, 7].map((n) => t("count.passages", { n }));
        }""") == ["קטע אחד", "שני קטעים", "7 קטעים"]

        # Mirrored: the history on the right, the Ask button to the left of the question box.
        history, question, send = box(page, "aside.history"), box(page, "#question"), box(page, "#send")
        assert history["x"] > WIDTH / 2
        assert send["x"] + send["width"] <= question["x"]
        turn = ask(page, "Who discovered penicillin?")
        expect(page.locator("#status")).to_have_text("התשובה מוכנה.")
        assert turn.locator(".evidence-heading").text_content() == "מקורות"
        expect(page.locator(".history-entry")).to_have_count(1)
        entry, details = box(page, ".history-entry"), page.text_content(".history-details")
        assert HEBREW_LETTER.search(details)  # the date, written in Hebrew (Intl)
        question_text = page.locator(".history-entry .history-question")
        assert question_text.evaluate("e => getComputedStyle(e.parentElement).textAlign") == "start"
        assert entry["x"] + entry["width"] > history["x"] + history["width"] - 30  # the list holds to the right

        # The catalog's path reads right to left: the work on the right, its lesson to its left.
        work, lesson = scope_to_lesson_two(page)
        assert work["x"] > lesson["x"]
        assert page.locator("#scope-label .path").get_attribute("dir") == "rtl"
        page.screenshot(path=str(OUTPUT / "hebrew-interface.png"), full_page=True)

        # The switch to English: the page reads left to right, and stays English after a reload.
        page.select_option("#page-language", "en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_selector(".health.ok")
        assert page.get_attribute("html", "dir") == "ltr"
        expect(page.locator("#send")).to_have_text("Ask")
        assert box(page, "aside.history")["x"] < WIDTH / 2
        page.reload()
        page.wait_for_selector(".health.ok")
        expect(page.locator("#sources-toggle")).to_have_text("Hide all sources")
        assert page.input_value("#page-language") == "en"
        work, lesson = scope_to_lesson_two(page)
        assert work["x"] < lesson["x"]
        assert page.text_content("#scope-label") == f"{HEBREW_TITLE} › Lesson 2: Brewing"
        page.screenshot(path=str(OUTPUT / "english-interface.png"), full_page=True)
        assert page.errors == []


def visible_scores(page) -> list[str]:
    """The score words the reader can see on the page (a closed Details or a hidden element shows none)."""
    return SCORE_WORDS.findall(page.locator("#conversation").inner_text())


def test_a_reader_meets_no_scores_or_review_controls_until_the_reviewer_view(tmp_path, browser, serve):
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=FakeWriter("offline", ["Fleming [1]."] * 2))
    client = app.test_client()
    assert wait_for(client, upload(client, "tea.txt", BOOK.encode()).get_json())["status"] == "done"
    server = serve(app)
    OUTPUT.mkdir(exist_ok=True)
    with ready_page(browser, server) as page:
        # A personal server: its owner may do everything, but reads first.
        turn = ask(page, "Who discovered penicillin?")
        cards = turn.locator(".passage")
        assert cards.count() >= 1 and visible_scores(page) == []
        assert turn.locator(".review-controls").count() == 1 and turn.locator(".review-controls").is_hidden()
        assert page.locator(".history-filter").is_hidden()
        page.click("#library-panel summary")
        removes = page.locator("#documents button.remove")
        expect(removes).to_have_count(1)  # the uploaded book's: the owner's own, theirs to remove (issue 47)
        assert removes.first.is_visible()
        page.screenshot(path=str(OUTPUT / "reader-view.png"), full_page=True)

        # One card's Details shows its scores, and only its own.
        cards.first.locator(".passage-details summary").click()
        expect(cards.first.locator(".scores")).to_be_visible()
        assert "BM25" in cards.first.locator(".scores").inner_text()
        assert len(visible_scores(page)) == len(SCORE_WORDS.findall(cards.first.locator(".scores").inner_text()))

        # The reviewer's view, switched on in Settings, shows them all, and is remembered.
        page.click("#settings-panel summary")
        page.check("#setting-reviewer-view")
        expect(turn.locator(".review-controls")).to_be_visible()
        expect(removes.first).to_be_visible()
        expect(page.locator(".history-filter")).to_be_visible()
        assert all(card.locator(".scores").is_visible() for card in cards.all())
        page.screenshot(path=str(OUTPUT / "reviewer-view.png"), full_page=True)
        page.reload()
        page.wait_for_selector(".health.ok")
        assert page.is_checked("#setting-reviewer-view")
        again = ask(page, "Who discovered penicillin?")
        expect(again.locator(".review-controls")).to_be_visible()
        assert again.locator(".passage .scores").first.is_visible()
        assert page.errors == []


def test_with_accounts_a_learner_never_meets_review_controls_and_a_reviewer_does(tmp_path, browser, serve):
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=FakeWriter("offline", ["Fleming [1]."] * 2))
    accounts = app.extensions["history"].accounts
    accounts.create("lea", "learner", hash_password(PASSWORD))
    accounts.create("rut", "reviewer", hash_password(PASSWORD))
    server, pages = serve(app), []
    try:
        # A learner (in Hebrew): no switch, no review controls, no Remove button; scores behind Details only.
        learner = sign_in(browser, server, "lea", locale="he-IL")
        pages.append(learner)
        expect(learner.locator("#account-role")).to_have_text("לומד")
        turn = ask(learner, "Who discovered penicillin?")
        assert turn.locator(".review-controls").count() == 0 and visible_scores(learner) == []
        learner.click("#settings-panel summary")
        assert learner.locator("#setting-reviewer-view").is_hidden()
        learner.click("#library-panel summary")
        expect(learner.locator("#documents tbody tr")).to_have_count(4)
        assert learner.locator("#documents button.remove, #documents button.reindex").count() == 0
        assert learner.locator(".history-filter").is_hidden()
        learner.screenshot(path=str(OUTPUT / "learner-hebrew.png"), full_page=True)

        # A reviewer: the reviewer's view is on from the start, with its controls; it may be switched off.
        reviewer = sign_in(browser, server, "rut")
        pages.append(reviewer)
        assert reviewer.is_checked("#setting-reviewer-view")
        turn = ask(reviewer, "Who discovered penicillin?")
        expect(turn.locator(".review-controls")).to_be_visible()
        assert turn.locator(".passage .scores").first.is_visible()
        reviewer.click("#settings-panel summary")
        reviewer.uncheck("#setting-reviewer-view")
        expect(turn.locator(".review-controls")).to_be_hidden()
        assert visible_scores(reviewer) == []
        for each in pages:
            assert each.errors == []
    finally:
        for each in pages:
            each.context.close()
