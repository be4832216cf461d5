"""A page on another origin, open in a real Chromium, tries to change the user's library and history the ways a
browser allows without CORS: no-cors multipart and text/plain POSTs, a DELETE, a plain form. Every write is
refused (web/guard.py), while the Evidenz page itself still uploads, removes and gives feedback."""
from flask import Flask, request

from browser import Server, ask, require_chromium, reviewer_view
from builders import BOOK, library_app

require_chromium()

ATTACK = """<!doctype html><title>cat pictures</title>
<form id="form" method="post" enctype="text/plain" target="sink"><input name='{"rating":"up","x":"' value='"}'></form>
<iframe name="sink"></iframe>
<script>
window.attack = async (target, answer) => {
  const form = new FormData();
  form.append("file", new Blob([BOOK], {type: "text/plain"}), "planted.txt");
  const calls = [
    fetch(target + "/api/documents", {method: "POST", mode: "no-cors", body: form}),
    fetch(target + "/api/documents/fleming/reindex", {method: "POST", mode: "no-cors", body: "x",
                                                         headers: {"Content-Type": "text/plain"}}),
    fetch(target + "/api/documents/everest", {method: "DELETE", mode: "cors"}),
    fetch(target + "/api/documents/everest", {method: "POST", mode: "no-cors",
                                              headers: {"X-Evidenz-Client": "page"}}),
    fetch(target + `/api/history/${answer}/feedback`, {method: "POST", mode: "no-cors",
        headers: {"Content-Type": "text/plain"}, body: JSON.stringify({rating: "down", comment: "planted"})}),
    fetch(target + `/api/history/${answer}/review`, {method: "POST", mode: "no-cors",
        headers: {"Content-Type": "text/plain"}, body: JSON.stringify({status: "rejected"})}),
  ];
  const outcomes = await Promise.allSettled(calls);
  const form2 = document.getElementById("form");
  form2.action = target + `/api/history/${answer}/feedback`;
  form2.submit();
  return outcomes.map(o => o.status);
};
</script>"""


def attacker_app():
    site = Flask("attacker")
    site.add_url_rule("/", "index", lambda: ATTACK.replace("BOOK", repr(BOOK.replace("\n", " "))))
    return site


def test_another_origin_cannot_write_and_the_page_still_can(browser, serve, tmp_path):
    from playwright.sync_api import expect

    app = library_app({"TESTING": True}, tmp_path / "lib")
    seen = []

    @app.after_request
    def record(response):
        seen.append((request.method, request.path, response.status_code))
        return response

    evidenz = serve(app)
    client = app.test_client()
    answer = client.post("/api/query", json={"question": "Who discovered penicillin?"}).get_json()["id"]
    documents = client.get("/api/documents").get_json()["total"]
    seen.clear()
    attacker = Server(attacker_app())
    context = browser.new_context()
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        page.goto(attacker.url)
        outcomes = page.evaluate("([target, answer]) => window.attack(target, answer)", [evidenz.url, answer])
        page.wait_for_timeout(500)  # the form's post

        writes = [(method, path, status) for method, path, status in seen if method in ("POST", "DELETE")]
        assert len(writes) >= 5, seen  # the no-cors POSTs and the form reached the server ...
        assert all(status == 403 for _, _, status in writes), writes  # ... and every one was refused
        assert not any(method == "DELETE" for method, _, _ in seen)  # the DELETE never passed its preflight
        assert outcomes[2] == "rejected"
        assert client.get("/api/documents").get_json()["total"] == documents
        assert client.get("/api/stats").get_json()["jobs"] == {}
        logged = client.get(f"/api/history/{answer}").get_json()
        assert logged["feedback"] == [] and logged["review_status"] == "unreviewed"

        # The page itself still asks, rates, re-indexes and removes.
        page.goto(evidenz.url)
        page.wait_for_selector(".health.ok")
        reviewer_view(page)  # the owner's Re-index and Remove buttons
        turn = ask(page, "Who discovered penicillin?")
        turn.locator("button.rate-up").click()
        expect(turn.locator(".feedback-status")).to_contain_text("feedback saved")
        page.click("#library-panel summary")
        book = tmp_path / "kettles.txt"
        book.write_text(BOOK)
        page.set_input_files("#upload-file", str(book))
        page.click("#upload-button")
        expect(page.locator("#upload-status")).to_contain_text("passages indexed", timeout=30_000)
        row = page.locator("#documents tbody tr", has_text="Kettles and Tea")
        row.locator("button.reindex").click()
        expect(page.locator("#upload-status")).to_contain_text("Re-indexing “Kettles and Tea”: 2 passages indexed", timeout=30_000)
        row.locator("button.remove").click()
        expect(page.locator("#upload-status")).to_contain_text("Removed")
        assert client.get("/api/documents").get_json()["total"] == documents
        assert [s for m, _, s in seen if m in ("POST", "DELETE") and s == 403] == [403] * len(writes)
    finally:
        context.close()
        attacker.close()
