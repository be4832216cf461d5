"""The page as a reader uses it (issue 47), in real Chromium, in English and in Hebrew, at desktop and phone width:
each claim marks its own sentence, an answer from one passage keeps its order, the language switch keeps the
conversation, a question in a language the library lacks says so, and a marker in mixed-direction text sits on its
own sentence. Screenshots go to test-output/ (test_browser_own_uploads.py has the rest of the issue's)."""
from dataclasses import replace

from playwright.sync_api import expect

from app import create_app
from browser import PHONE, ask, checked_pipeline, loaded_page, open_page, require_chromium, shot
from conftest import CORPUS, FakeWriter, WIKI_SAMPLE
from models import Document

require_chromium()

FRANKLIN = Document("franklin", "Rosalind Franklin", (
    "Rosalind Franklin was an English chemist and X-ray crystallographer. Her images of DNA by X-ray diffraction led "
    "to the discovery of the double helix. Although her works on coal and viruses were appreciated in her lifetime, "
    "her contributions to the structure of DNA were largely recognised after her death."))
SENTENCES = ["Rosalind Franklin was an English chemist and X-ray crystallographer.",
             "Her images of DNA by X-ray diffraction led to the discovery of the double helix.",
             "Although her works on coal and viruses were appreciated in her lifetime, her contributions to the "
             "structure of DNA were largely recognised after her death."]
SHABBAT = Document("oc-318", "שולחן ערוך, אורח חיים", (
    "מותר לחמם מים לפני השבת ולהשאירם על האש המכוסה. אסור לבשל בשבת אוכל שלא נתבשל כל צרכו. "
    "תבשיל שנתבשל כל צרכו מותר להניחו על הכירה המכוסה."))
HEBREW_SENTENCES = ["מותר לחמם מים לפני השבת ולהשאירם על האש המכוסה.", "אסור לבשל בשבת אוכל שלא נתבשל כל צרכו.",
                    "תבשיל שנתבשל כל צרכו מותר להניחו על הכירה המכוסה."]


def three_claims_app(docs, sentences):
    """An app whose writer answers with the passage's three sentences, each citing [1]."""
    answer = " ".join(f"{s[:-1]} [1]." for s in sentences)
    return create_app({"TESTING": True}, pipeline=checked_pipeline(FakeWriter("offline", [answer] * 4), docs))


def test_each_claim_marks_its_own_sentence_alone_in_both_languages_and_widths(browser, serve):
    cases = (("en", "en-US", [FRANKLIN, *CORPUS], SENTENCES, "Who was Rosalind Franklin?"),
             ("he", "he-IL", [SHABBAT, *CORPUS], HEBREW_SENTENCES, "האם מותר לחמם מים בשבת?"))
    for language, locale, docs, sentences, question in cases:
        server = serve(three_claims_app(docs, sentences))
        for width, size in (("desktop", None), ("phone", PHONE)):
            page = open_page(browser, server, locale)
            try:
                if size:
                    page.set_viewport_size(size)
                page.wait_for_selector(".health.ok")
                turn = ask(page, question)
                links = turn.locator(".answer a.cite").all()
                assert [link.text_content() for link in links] == ["[1]"] * 3
                popover = page.locator("#cite-popover")
                for k, link in enumerate(links):  # hover: the popover marks this claim's sentence alone, whole
                    link.hover()
                    popover.wait_for(state="visible")
                    assert popover.locator("mark").all_text_contents() == [sentences[k]]
                    assert sentences[k] in popover.locator(".popover-text").text_content()
                    page.mouse.move(0, 0)
                    popover.wait_for(state="hidden")
                links[1].hover()
                popover.wait_for(state="visible")
                shot(page, f"claim-popover-{language}-{width}")
                page.mouse.move(0, 0)
                links[1].click()  # click: the card marks the second sentence alone
                card = turn.locator("#turn-1-p1")
                expect(card).to_have_class("passage cited is-target")
                assert card.locator("mark").all_text_contents() == [sentences[1]]
                shot(page, f"claim-card-{language}-{width}", card)
                links[2].click()
                assert card.locator("mark").all_text_contents() == [sentences[2]]
                assert page.errors == []
            finally:
                page.context.close()


def test_an_answer_from_one_passage_keeps_its_reading_order(real_app, browser, serve):
    with loaded_page(browser, serve(real_app)) as page:
        turn = ask(page, "Who was Alexander Fleming?")
        answer = turn.locator(".answer").text_content()
        fleming = WIKI_SAMPLE[0].text
        openings = ("Sir Alexander Fleming was", "He discovered penicillin", "He shared the 1945")
        said = [s for s in openings if s in answer]
        assert said, answer  # the answer quotes the passage
        assert sorted(said, key=answer.index) == sorted(said, key=fleming.index)  # in the passage's order
        shot(page, "reading-order-en-desktop", turn)


def test_the_language_switch_words_the_page_again_and_keeps_the_conversation(browser, serve):
    server = serve(three_claims_app([FRANKLIN, *CORPUS], SENTENCES))
    for width, size in (("desktop", None), ("phone", PHONE)):
        page = open_page(browser, server)
        try:
            if size:
                page.set_viewport_size(size)
            page.wait_for_selector(".health.ok")
            page.evaluate("window.notReloaded = true")
            first = ask(page, "Who was Rosalind Franklin?")
            ask(page, "And what did her images show?")
            answer = first.locator(".answer").text_content()
            assert first.locator(".query-type").text_content() == "Factual lookup"
            page.select_option("#page-language", "he")
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
            expect(page.locator("#send")).to_have_text("שאל")
            assert page.evaluate("window.notReloaded") is True  # in place, not reloaded
            turns = page.locator(".turn")
            assert turns.count() == 2 and turns.first.locator(".answer").text_content() == answer
            assert turns.first.locator(".query-type").text_content() == "שאלה עובדתית"
            assert turns.first.locator(".evidence-heading").text_content() == "מקורות"
            assert turns.first.locator(".feedback button.rate-up").get_attribute("title") == "כן, תשובה טובה"
            turns.first.locator(".answer a.cite").nth(1).hover()  # the citations still work
            expect(page.locator("#cite-popover mark")).to_have_text(SENTENCES[1])
            page.mouse.move(0, 0)
            shot(page, f"language-switched-he-{width}", turns.first)
            page.select_option("#page-language", "en")
            expect(page.locator("html")).to_have_attribute("dir", "ltr")
            assert page.locator(".turn").first.locator(".query-type").text_content() == "Factual lookup"
            assert page.locator(".turn").first.locator(".answer").text_content() == answer
            shot(page, f"language-switched-en-{width}", page.locator(".turn").first)
            assert page.errors == []
        finally:
            page.context.close()


def test_a_hebrew_question_over_an_english_library_says_so_and_cites_nothing(real_app, browser, serve):
    with loaded_page(browser, serve(real_app), "he-IL") as page:
        turn = ask(page, "מי גילה את הפניצילין?")
        answer = turn.locator(".answer").text_content()
        if "הטקסטים בספרייה כתובים באנגלית" in answer:  # declined: the language is named
            assert "אפשר לשאול את השאלה באנגלית" in answer
            if "מה שהם כן אומרים" not in answer:  # nothing near the question was found: nothing is cited
                assert turn.locator(".answer a.cite").count() == 0
        else:  # answered across languages: what it cites is the passage that answers
            assert "penicillin" in answer and turn.locator(".passage.cited", has_text="Fleming").count() == 1
        shot(page, "hebrew-over-english-he-desktop", turn.locator(".answer"))
        page.set_viewport_size(PHONE)
        shot(page, "hebrew-over-english-he-phone", turn.locator(".answer"))


def test_a_marker_in_mixed_direction_text_sits_on_its_own_sentence(browser, serve):
    answer = "המקורות אומרים: Fleming discovered penicillin in 1928 [1]. והוא רופא סקוטי [1]."
    docs = [replace(CORPUS[0], text="Alexander Fleming was a Scottish physician. He discovered penicillin in 1928.")]
    server = serve(create_app({"TESTING": True}, pipeline=checked_pipeline(FakeWriter("offline", [answer]), docs)))
    page = open_page(browser, server, "he-IL")
    try:
        page.wait_for_selector(".health.ok")
        turn = ask(page, "מי גילה את הפניצילין?")
        first = turn.locator(".answer a.cite").first.bounding_box()
        year = page.evaluate("""() => {  // where "1928" is drawn
            const node = [...document.querySelectorAll('.answer p')].flatMap((p) => [...p.childNodes])
              .find((n) => n.nodeType === 3 && n.data.includes('1928'));
            const range = document.createRange();
            const at = node.data.indexOf('1928');
            range.setStart(node, at); range.setEnd(node, at + 4);
            const box = range.getBoundingClientRect();
            return { left: box.left, right: box.right };
        }""")
        assert 0 <= first["x"] - year["right"] < 12  # right after "1928", on its English sentence
        stop = page.evaluate("""() => {  // and the sentence's full stop right after the marker
            const link = document.querySelector('.answer a.cite');
            const node = link.nextSibling;
            const range = document.createRange();
            range.setStart(node, 0); range.setEnd(node, 1);
            return [node.data[0], range.getBoundingClientRect().left];
        }""")
        assert stop[0] == "." and 0 <= stop[1] - (first["x"] + first["width"]) < 6
        shot(page, "mixed-direction-marker-he-desktop")
    finally:
        page.context.close()


def test_a_measure_a_rule_sets_is_labelled_a_lookup_not_a_calculation(real_app, browser, serve):
    with loaded_page(browser, serve(real_app)) as page:
        turn = ask(page, "How much matzah must one eat at the Seder?")
        assert turn.locator(".query-type").text_content() == "Factual lookup"
        shot(page, "matzah-label-en-desktop", turn.locator(".meta"))
