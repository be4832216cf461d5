"""Relations on the chat page in a real headless Chromium: over a small Shulchan Arukh library (four simanim of the
Orach Chayim from ../shared, the Rema's glosses as units of their own) with the relations of
data/relations/shulchan-arukh-rema.jsonl imported, a question that finds one opinion shows both, the seif and the
Rema's gloss on it, each as its own passage under its own reference, and the answer gives both, each cited."""
import json
from pathlib import Path

import pytest

from app import create_app
from browser import OUTPUT, ask, require_chromium
from conftest import FakeClassifier, FakeEmbedder
from generator import Generator
from ingest.jobs import Ingestor
from ingest.relation_import import import_relations
from pipeline import Pipeline
from retrieval import Retriever
from search.library import Library
from writers.offline import ExtractiveWriter
from writers.prompt import OPINIONS
from checks.verify import Verifier

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
RELATIONS = Path(__file__).resolve().parents[2] / "data" / "relations" / "shulchan-arukh-rema.jsonl"
SIMANIM = (31, 253, 318, 493)  # cooking and heating on Shabbat, with two unrelated simanim
SEIF_HE, GLOSS_HE = 'שו"ע או"ח שי"ח:ה', 'שו"ע או"ח שי"ח:ה רמ"א'

pytestmark = pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")
require_chromium()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sa-relations")
    source = folder / "orach_chayim.jsonl"
    source.write_text("".join(line for line in SHARED_SA.open(encoding="utf-8")
                              if (json.loads(line)["part"], json.loads(line)["siman"]) in
                              {("Orach Chayim", s) for s in SIMANIM}), encoding="utf-8")
    library = Library.open(folder / "library", FakeEmbedder(), create=True)
    ingestor = Ingestor(library)
    job = ingestor.submit_file(source, source.name, {"language": "he", "tier": "canonical"})
    ingestor.run(*ingestor.claim(job.id))
    assert library.store.job(job.id).status == "done"
    report = import_relations(library.relations, RELATIONS.read_text(encoding="utf-8").splitlines())
    assert report["bad"] == [] and report["added"] >= 20
    writer = ExtractiveWriter(FakeEmbedder())
    pipeline = Pipeline(FakeClassifier("explanation"), Retriever(library, FakeEmbedder()),
                        Generator({"offline": writer}, "offline", verifier=Verifier(FakeEmbedder(), 0.5)),
                        store=library.store, relations=library.relations)
    return create_app({"TESTING": True}, pipeline=pipeline, library=library)


def test_a_question_shows_the_seif_and_the_rema_s_gloss_that_overrides_it(app, page, serve):
    server = serve(app)
    page.goto(server.url)
    page.wait_for_selector(".health.ok")
    page.click("#settings-panel summary")
    page.fill("#setting-top-k", "1")  # one passage found: the other opinion comes only through the relation
    page.click("#settings-panel summary")
    turn = ask(page, "האם מותר ליתן פת בכלי שני בשבת?")

    cards = turn.locator(".passage")
    assert cards.count() == 2
    refs = cards.locator(".passage-ref")
    assert sorted(refs.all_text_contents()) == [SEIF_HE, GLOSS_HE]  # each under its own reference, in Hebrew
    assert sorted(r.get_attribute("title") for r in refs.all()) == [
        "Shulchan Arukh, Orach Chayim 318:5", "Shulchan Arukh, Orach Chayim 318:5, Rema"]
    texts = cards.locator(".passage-text").all_text_contents()
    assert any(t.startswith("הגה") and "ונהגו ליזהר" in t for t in texts)  # the Rema's custom
    assert any("ויש מתירין" in t for t in texts)  # the ruling that brings both views
    standing = " ".join(cards.locator(".passage-standing").all_text_contents())
    assert "overridden by the custom of Shulchan Arukh, Orach Chayim 318:5, Rema" in standing
    assert "a custom overriding Shulchan Arukh, Orach Chayim 318:5" in standing
    scores = cards.locator(".scores").all_text_contents()  # the authority weight is a score too (issue 47)
    assert any(s.startswith("not searched: brought in with the passage it relates to") for s in scores), scores

    answer = turn.locator(".answer")
    said = answer.text_content()
    assert OPINIONS["he"] in said and SEIF_HE in said and GLOSS_HE in said
    assert sorted(answer.locator("a.cite").all_text_contents()) == ["[1]", "[2]"]  # each opinion cited to its own
    n_of = {r.text_content(): c.get_attribute("data-n") for r, c in zip(refs.all(), cards.all())}
    position = {label: said.index(label + ":") for label in (SEIF_HE, GLOSS_HE)}
    first, second = sorted(position, key=position.get)
    assert said.index(f"[{n_of[first]}]") < position[second] < said.index(f"[{n_of[second]}]")
    OUTPUT.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1100, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(OUTPUT / "relations.png"))
