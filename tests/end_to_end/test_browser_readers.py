"""Readers in a real headless Chromium (issue 16), as people would use the page: on a shared server an admin signs
in and makes users in the users panel, an editor uploads a private book and is answered from it, a learner asks the
same and never meets the book, and a reviewer corrects an answer; a personal server asks no one to sign in.

A real library, ingest, history and users (scrypt passwords, cookie sessions with CSRF tokens); the embedder,
classifier and writer are fakes. The writer quotes the first sentence of the passage it is given first."""
import re

from playwright.sync_api import expect

from accounts.passwords import hash_password
from app import create_app
from browser import OUTPUT, PASSWORD, ask, open_page, require_chromium, sign_in
from builders import BOOK, library_app
from conftest import FakeWriter, make_pipeline
from models import Draft
from web.documents import uploader_mark

require_chromium()

KETTLE = "How hot should the water for green tea be?"
BOOK_TITLE = "Kettles and Tea"
SENTENCE = re.compile(r"(?<=[.?!])\s")


class QuotingWriter(FakeWriter):
    """Answers with the first sentence of passage [1], cited."""

    def write(self, request):
        first = SENTENCE.split(" ".join(request.hits[0].chunk.text.split()))[0]
        return Draft(f"{first} [1]")


def create_user(page, name, role):
    """Create a user in the admin's users panel."""
    page.fill("#new-user input[name=name]", name)
    page.fill("#new-user input[name=password]", PASSWORD)
    page.select_option("#new-user-role", role)
    page.click("#new-user-button")
    expect(page.locator("#users-status")).to_contain_text(f"Created {name} ({role})")
    expect(page.locator(f"#users tr[data-name='{name}']")).to_have_count(1)


def kettles_cited(turn) -> bool:
    return turn.locator(".passage.cited", has_text=BOOK_TITLE).count() > 0


def test_admin_editor_learner_and_reviewer_each_get_what_their_role_allows(tmp_path, browser, serve):
    app = library_app({"TESTING": True}, tmp_path / "lib", writer=QuotingWriter("offline"))
    accounts, history = app.extensions["history"].accounts, app.extensions["history"]
    accounts.create("admin", "admin", hash_password(PASSWORD))
    server = serve(app)
    pages = []
    try:
        # The admin: a wrong password is refused on the page; then the users panel makes three users.
        page = open_page(browser, server)
        pages.append(page)
        expect(page.locator("#sign-in")).to_be_visible()
        assert page.locator("#app").is_hidden() and page.locator("#account-bar").is_hidden()
        page.fill("#sign-in-name", "admin")
        page.fill("#sign-in-password", "not the password")
        page.click("#sign-in-button")
        expect(page.locator("#sign-in-status")).to_have_text("Wrong name or password.")
        admin = sign_in(browser, server, "admin")
        pages.append(admin)
        admin.click("#users-panel summary")
        expect(admin.locator("#users tr[data-name='admin'] .user-tiers")).to_contain_text("private")
        create_user(admin, "lea", "learner")
        create_user(admin, "eli", "editor")
        create_user(admin, "rut", "learner")
        admin.select_option("#users tr[data-name='rut'] select.user-role", "reviewer")
        expect(admin.locator("#users-status")).to_have_text("rut is now reviewer.")
        assert accounts.user_named("rut")["role"] == "reviewer"
        expect(admin.locator("#users tr[data-name='lea'] .user-tiers")).to_have_text("canonical, public")

        # The editor: no users panel; uploads a private book and, asking in deep-research mode, is answered from it.
        editor = sign_in(browser, server, "eli")
        pages.append(editor)
        assert editor.locator("#users-panel").is_hidden() and editor.locator("#profile-panel").is_visible()
        bodies = []
        editor.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith("/api/query/stream") else None)
        editor.click("#library-panel summary")
        book = tmp_path / "kettles.txt"
        book.write_text(BOOK)
        editor.set_input_files("#upload-file", str(book))
        editor.select_option("#upload-tier", "private")
        editor.click("#upload-button")
        expect(editor.locator("#upload-status")).to_contain_text("passages indexed", timeout=30_000)
        expect(editor.locator("#documents tbody tr", has_text=BOOK_TITLE)).to_have_count(1)
        kettles = f"kettles-{uploader_mark(accounts.user_named('eli')['id'])}"  # marked as hers (web/documents.py)
        book_row = app.extensions["rag"].services.store.document(kettles)
        assert (book_row.tier, book_row.owner) == ("private", accounts.user_named("eli")["id"])
        editor.select_option("#mode", "deep")
        turn = ask(editor, KETTLE)
        assert kettles_cited(turn) and turn.locator(".answer a.cite").count() >= 1
        assert "Green tea wants water below boiling" in turn.locator(".answer").text_content()
        assert bodies[-1]["mode"] == "deep"
        assert turn.locator(".review-controls").count() == 0  # an editor does not review

        # The learner: sets a profile, asks the same question, and meets no trace of the book anywhere.
        learner = sign_in(browser, server, "lea")
        pages.append(learner)
        assert learner.locator("#users-panel").is_hidden()
        learner.click("#profile-panel summary")
        expect(learner.locator("#profile-tiers")).to_have_text("canonical, public")
        learner.fill("#profile-display-name", "Lea")
        assert learner.locator("#profile-community").is_hidden()  # no work of religious law here: no community asked
        learner.select_option("#profile-language", "en")
        learner.click("#profile-save")
        expect(learner.locator("#profile-status")).to_have_text("Profile saved.")
        expect(learner.locator("#account-name")).to_have_text("Lea")
        stored = accounts.user_named("lea")
        assert (stored["display_name"], stored["community"], stored["answer_language"]) == ("Lea", None, "en")
        sent = []
        learner.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/query/stream") else None)
        turn = ask(learner, KETTLE)
        assert sent[-1]["language"] == "en" and sent[-1]["mode"] == "practical"  # the profile's language
        assert turn.locator(".passage").count() >= 1 and not kettles_cited(turn)
        assert "kettle" not in turn.text_content().lower() and "green tea wants" not in turn.text_content().lower()
        assert turn.locator(".review-controls").count() == 0
        learner.click("#library-panel summary")
        expect(learner.locator("#documents tbody tr")).to_have_count(4)
        assert learner.locator("#upload").is_hidden() and learner.locator("#documents button.remove").count() == 0
        assert "Kettles" not in learner.text_content("#documents")
        status, error, token, kept = learner.evaluate("""async (kettles) => {
            const me = await (await fetch("/api/me")).json();
            const response = await fetch(`/api/documents/${kettles}`, { method: "DELETE",
                headers: { "X-Evidenz-Client": "page", "X-CSRF-Token": me.csrf_token } });
            return [response.status, (await response.json()).error, me.csrf_token,
                    document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)];
        }""", kettles)
        assert status == 403 and "learner" in error
        assert token not in kept and "evidenz_session" not in kept  # the token in memory only, the cookie HttpOnly
        expect(editor.locator("#documents tbody tr", has_text=BOOK_TITLE)).to_have_count(1)  # still there

        # The reviewer: opens the learner's answer from the history and corrects it on the page.
        reviewer = sign_in(browser, server, "rut")
        pages.append(reviewer)
        expect(reviewer.locator(".history-entry")).to_have_count(2)  # the review queue: every answer
        reviewer.locator(".history-entry").first.click()
        opened = reviewer.locator(".turn")
        expect(opened.locator(".from-history")).to_be_visible()
        answer_id = reviewer.locator(".history-entry.current").get_attribute("data-id")
        assert history.get(answer_id)["user_id"] == stored["id"]
        corrected = "Green tea is brewed below boiling, at about eighty degrees."
        opened.locator(".review-status").select_option("corrected")
        opened.locator(".review-text").fill(corrected)
        opened.locator(".review-controls button").click()
        expect(opened.locator(".review-controls .review-saved")).to_have_text("Review saved: corrected.")
        expect(opened.locator(".review-note .corrected")).to_have_text(corrected)
        expect(reviewer.locator(".history-entry").first.locator(".review")).to_have_text("corrected")
        record = history.get(answer_id)
        assert (record["review_status"], record["corrected_text"], record["reviewed_by"]) == (
            "corrected", corrected, accounts.user_named("rut")["id"])
        OUTPUT.mkdir(exist_ok=True)
        reviewer.screenshot(path=str(OUTPUT / "reviewer-correction.png"), full_page=True)

        # Signing out brings the sign-in form back; a user the admin disables is asked to sign in at their next step.
        learner.click("#sign-out")
        expect(learner.locator("#sign-in")).to_be_visible()
        expect(learner.locator("#app")).to_be_hidden()
        admin.click("#users tr[data-name='eli'] button")
        expect(admin.locator("#users-status")).to_have_text("eli is disabled and signed out.")
        expect(admin.locator("#users tr[data-name='eli']")).to_contain_text("disabled")
        editor.fill("#question", KETTLE)
        editor.press("#question", "Enter")
        expect(editor.locator("#sign-in-status")).to_have_text("Your session has ended; sign in again.")
        expect(editor.locator("#app")).to_be_hidden()
        for each in pages:
            assert each.errors == []
    finally:
        for each in pages:
            each.context.close()


def test_a_personal_server_asks_no_one_to_sign_in(page, serve):
    server = serve(create_app({"TESTING": True}, pipeline=make_pipeline(FakeWriter("offline"))))
    page.goto(server.url)
    page.wait_for_selector(".health.ok")
    expect(page.locator("#app")).to_be_visible()
    assert page.locator("#sign-in").is_hidden() and page.locator("#account-bar").is_hidden()
    assert page.locator("#profile-panel").is_hidden() and page.locator("#users-panel").is_hidden()
    assert page.locator("#upload").get_attribute("hidden") is None  # the owner may upload
    turn = ask(page, "Who discovered penicillin?")
    assert turn.locator(".answer").text_content().strip().startswith("Fleming discovered penicillin")
    assert turn.locator(".review-controls").count() == 1  # the owner may do everything, reviews included
