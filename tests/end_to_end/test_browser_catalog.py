"""The catalog and a writer's searches in a real headless Chromium: a course script uploaded in the page appears in
the Library panel's catalog with its lessons and links; clicking lesson 2 narrows the next question to it; a writer
that searches for itself (Claude's stand-in over real HTTP) shows its searches, and long evidence is grouped by work
and section in collapsible groups."""
from app import create_app
from browser import OUTPUT, ask, require_chromium
from builders import COURSE
from conftest import CORPUS, FakeClassifier, FakeEmbedder
from generator import Generator
from ingest import corpus
from pipeline import Pipeline
from retrieval import Retriever
from standin import StandIn, make_writer
from standin_tools import final_text, tool_calls, tool_results
from writers.offline import ExtractiveWriter
from checks.verify import Verifier

require_chromium()



def test_the_catalog_narrows_a_question_and_a_writer_shows_its_searches(tmp_path, page, serve):
    from playwright.sync_api import expect

    claude = StandIn()
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path / "lib", 1200, 200)
    writers = {"offline": ExtractiveWriter(FakeEmbedder()), "claude": make_writer("claude", claude.url, retries=0)}
    pipeline = Pipeline(FakeClassifier(), Retriever(lib, FakeEmbedder()),
                        Generator(writers, "offline", verifier=Verifier(FakeEmbedder(), 0.5)),
                        store=lib.store, relations=lib.relations)
    app = create_app({"TESTING": True, "HISTORY_DB": str(tmp_path / "history.sqlite3")}, pipeline=pipeline, library=lib)
    server = serve(app)
    script = tmp_path / "tea.txt"
    script.write_text(COURSE)
    bodies = []
    page.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith("/api/query/stream") else None)
    try:
        page.goto(server.url)
        page.wait_for_selector(".health.ok")

        # Uploaded in the page, the course appears in the catalog with its lessons and their links.
        page.click("#library-panel summary")
        page.set_input_files("#upload-file", str(script))
        page.click("#upload-button")
        expect(page.locator("#upload-status")).to_contain_text("passages indexed", timeout=30_000)
        work = page.locator(".catalog-work", has_text="Kettles and Tea")
        expect(work).to_have_count(1)
        expect(page.locator(".catalog-work")).to_have_count(5)
        page.fill("#doc-search", "kettles")  # Find narrows the catalog too
        expect(page.locator(".catalog-work")).to_have_count(1)
        work.locator("summary").click()
        lessons = work.locator(".catalog-section")
        expect(lessons).to_have_count(2)
        assert "Lesson 2: Brewing" in lessons.nth(1).text_content()
        assert lessons.nth(1).locator("a").get_attribute("href") == "https://tea.example.org/course/2"
        assert work.locator("a.catalog-link", has_text="course page").get_attribute("href") == \
            "https://tea.example.org/course"

        # Clicking lesson 2 narrows the next question to it: the request carries the filter, every passage is of it,
        # and each shows its lesson's link.
        lessons.nth(1).locator("button.section-filter").click()
        expect(page.locator("#scope")).to_be_visible()
        assert page.text_content("#scope-label") == "Kettles and Tea › Lesson 2: Brewing"
        turn = ask(page, "How hot should the water be?")
        assert bodies[-1]["filters"] == {"document_ids": ["tea"], "section": 2}
        titles = turn.locator(".passage .passage-ref").all_text_contents()
        assert titles and all("Lesson 2" in t for t in titles)
        assert turn.locator(".passage-link").first.get_attribute("href") == "https://tea.example.org/course/2"
        assert "section: 2" in turn.locator(".searches").text_content()
        page.click("#scope-clear")
        expect(page.locator("#scope")).to_be_hidden()

        # Claude searches twice for a two-part question: both searches are shown, and the evidence is grouped.
        def answer(request):
            found = [r for r, error in tool_results("claude", request) if not error]
            if len(found) < 2:
                query = ["who discovered penicillin", "Rome founded empire Mediterranean"][len(found)]
                return tool_calls("claude", [("search_library", {"query": query})])
            n = {p["id"]: p["n"] for r in found for p in r["passages"]}
            return final_text("claude", f"Alexander Fleming discovered penicillin in 1928 [{n['fleming#0']}]. "
                                        f"Rome was founded, by tradition, in 753 BC [{n['rome#0']}].")

        claude.reply(200, answer)
        page.click("#settings-panel summary")
        page.select_option("#setting-provider", "claude")
        page.fill("#setting-top-k", "4")
        turn = ask(page, "Who discovered penicillin, and when was Rome founded?")
        assert "filters" not in bodies[-1]
        searches = turn.locator(".searches li")
        expect(searches).to_have_count(2)
        assert "“who discovered penicillin”" in searches.nth(0).text_content()
        assert turn.locator(".searches-panel").get_attribute("open") is not None
        groups = turn.locator(".source-group")
        assert groups.count() >= 2 and turn.locator(".passage").count() > 4
        first_group = groups.first.locator(":scope > details")  # a group; its cards hold their own Details
        assert "Alexander Fleming" in first_group.locator(":scope > summary").text_content()
        first_group.locator(":scope > summary").click()  # collapsed: its passages are hidden
        expect(first_group.locator(".passage").first).to_be_hidden()
        turn.locator(".answer a.cite").first.click()  # a citation opens the group of its passage
        expect(first_group.locator(".passage").first).to_be_visible()
        assert [c.get_attribute("class") for c in turn.locator(".answer a.cite").all()] == ["cite", "cite"]
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "catalog-and-searches.png"), full_page=True)
    finally:
        claude.close()
