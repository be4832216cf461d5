"""Reviewed answers to similar questions in a real headless Chromium (issue 34): a learner asks, a reviewer
corrects the answer on the page, and when the learner asks the same question in other words the correction is
shown under the new answer, marked corrected, with the reviewer and the date; another learner asking it sees
nothing of it, and an unrelated question shows none.

A real library, history and users on a shared server; the embedder (a bag of hashed words), classifier and writer
are fakes, so questions that share their words are near (the fake embedder's threshold is UNCALIBRATED's 0.80)."""
from playwright.sync_api import expect

from accounts.passwords import hash_password
from browser import OUTPUT, PASSWORD, ask, require_chromium, sign_in
from builders import library_app

require_chromium()

CORRECTION = "Alexander Fleming discovered penicillin in 1928, at St Mary's Hospital in London."


def test_a_correction_is_shown_beside_the_same_question_asked_again(browser, serve, tmp_path):
    app = library_app({"TESTING": True}, tmp_path / "lib")
    accounts = app.extensions["history"].accounts
    for name, role in (("dan", "learner"), ("eli", "learner"), ("rivka", "reviewer")):
        accounts.create(name, role, hash_password(PASSWORD))
    server, pages = serve(app), []
    try:
        learner = sign_in(browser, server, "dan")
        pages.append(learner)
        first = ask(learner, "Who discovered penicillin?")
        assert first.locator(".reviewed-answers").count() == 0  # nothing reviewed yet

        reviewer = sign_in(browser, server, "rivka")  # corrects it from the review queue
        pages.append(reviewer)
        reviewer.locator(".history-entry").first.click()
        opened = reviewer.locator(".turn")
        opened.locator(".review-status").select_option("corrected")
        opened.locator(".review-text").fill(CORRECTION)
        opened.locator(".review-controls button").click()
        expect(opened.locator(".review-controls .review-saved")).to_have_text("Review saved: corrected.")

        again = ask(learner, "Who first discovered penicillin?")
        shown = again.locator(".reviewed-answers .reviewed-answer")
        expect(shown).to_have_count(1)
        expect(shown.locator(".reviewed-heading")).to_have_text("Reviewed answer to a similar question")
        expect(shown.locator(".reviewed-question")).to_have_text("Asked before: Who discovered penicillin?")
        expect(shown.locator(".reviewed-mark")).to_contain_text("Corrected by rivka, ")
        today = learner.evaluate("() => new Date().toLocaleDateString()")
        assert today in shown.locator(".reviewed-mark").text_content()  # the day it was reviewed
        expect(shown.locator(".reviewed-text")).to_have_text(CORRECTION)
        assert shown.locator(".review-corrected").count() == 1  # marked as a correction
        assert again.locator(".answer").text_content() != CORRECTION  # beside the new answer, not instead of it
        OUTPUT.mkdir(exist_ok=True)
        learner.screenshot(path=str(OUTPUT / "similar-reviewed-answer.png"), full_page=True)

        assert ask(learner, "How high is Mount Everest?").locator(".reviewed-answers").count() == 0
        other = sign_in(browser, server, "eli")  # another learner's answers are not theirs to read
        pages.append(other)
        assert ask(other, "Who first discovered penicillin?").locator(".reviewed-answers").count() == 0
        for each in pages:
            assert each.errors == []
    finally:
        for each in pages:
            each.context.close()
