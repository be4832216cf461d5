"""The eval command end to end on a small BEIR folder, with the real models."""
import json
from pathlib import Path

import pytest

from app import create_app


def run_eval(tmp_path, *args):
    app = create_app({"TESTING": True})
    result = app.test_cli_runner().invoke(args=["eval", *map(str, args), "--cache", str(tmp_path / "cache")])
    assert result.exit_code == 0, result.output + str(result.exception)
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def test_eval_prints_metrics_as_the_last_json_line_and_caches_the_index(tmp_path, beir):
    first, log = run_eval(tmp_path, beir, "--mode", "hybrid")
    assert "indexing 8 documents" in log
    assert first["queries"] == 4 and first["ndcg@10"] == 1.0 and first["mrr@10"] == 1.0 and first["recall@5"] == 1.0
    assert first["latency_ms_p95"] >= first["latency_ms_p50"] > 0
    assert first["config"]["mode"] == "hybrid" and first["config"]["dataset"] == "tiny-beir"
    assert "section_hit@10" not in first  # qrels naming documents, not refs
    second, log = run_eval(tmp_path, beir, "--mode", "dense", "--limit", "2", "--seed", "3")
    assert "indexing" not in log and second["queries"] == 2 and second["config"]["mode"] == "dense"


def test_bm25_eval_embeds_nothing_and_keeps_its_own_cache(tmp_path, beir):
    first, log = run_eval(tmp_path, beir, "--mode", "bm25")
    assert "indexing 8 documents (BM25 only)" in log and "Batches" not in log  # no embedding progress bar
    assert first["ndcg@10"] == 1.0 and first["config"]["analyzer"].startswith("he-")
    second, log = run_eval(tmp_path, beir, "--mode", "bm25")
    assert "indexing" not in log and second["ndcg@10"] == 1.0
    _, log = run_eval(tmp_path, beir, "--mode", "dense", "--limit", "1")
    assert "indexing 8 documents (embedded with" in log  # zero vectors are never searched


HEBREW_DOCS = [
    {"_id": "oc-318", "title": "הלכות שבת", "text": "הַמְבַשֵּׁל בַּשַּׁבָּת חייב. מים שהוחמו מערב שבת מותר לשתותם."},
    {"_id": "oc-90", "title": "הלכות תפילה", "text": 'ישתדל אדם להתפלל בביהכ"נ עם הציבור.'},
    {"_id": "oc-1", "title": "הלכות השכמת הבוקר", "text": "יתגבר כארי לעמוד בבוקר לעבודת בוראו."},
    {"_id": "yd-87", "title": "הלכות בשר בחלב", "text": "אסור לבשל בשר בחלב, ואסור לאכלו."},
]
HEBREW_QUERIES = [("h1", "האם מותר לשתות מים שהוחמו לפני השבת?", "oc-318"),
                  ("h2", "איפה עדיף להתפלל, בבית הכנסת?", "oc-90"),
                  ("h3", "מה עושים כשקמים בבוקר?", "oc-1"),
                  ("h4", "מותר לאכול עוף שבושל בחלב?", "yd-87"),
                  ("h5", "מה הדין במבשל?", "oc-318")]  # no plain word of it is in the pointed passage


def test_eval_of_a_question_set_against_another_folders_corpus(tmp_path):
    corpus = tmp_path / "library" / "corpus.jsonl"
    corpus.parent.mkdir()
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in HEBREW_DOCS), encoding="utf-8")
    questions = tmp_path / "halacha-mini"
    (questions / "qrels").mkdir(parents=True)
    (questions / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t}, ensure_ascii=False) + "\n" for q, t, _ in HEBREW_QUERIES), encoding="utf-8")
    (questions / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, _, d in HEBREW_QUERIES))
    result, _ = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", corpus)
    assert result["queries"] == 5 and result["ndcg@10"] == 1.0  # בבית הכנסת finds ביהכ"נ, השבת finds בַּשַּׁבָּת
    assert result["config"]["dataset"] == "halacha-mini" and result["config"]["corpus"] == str(corpus)
    plain, _ = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", corpus, "--plain")  # the baseline
    assert plain["ndcg@10"] < 1.0 and plain["config"]["analyzer"].startswith("plain")  # plain words miss those

    app = create_app({"TESTING": True})
    missing = app.test_cli_runner().invoke(args=["eval", str(questions), "--mode", "bm25"])
    assert missing.exit_code != 0 and "--corpus PATH" in missing.output


SEIFIM = [  # a book of referenced seifim, as ../shared gives the Shulchan Arukh: qrels name refs
    {"ref": "Shulchan Arukh, Orach Chayim 318:1", "siman": 318, "seif": 1,
     "he": "דין המבשל בשבת. ובו ב סעיפים:המבשל בשבת במזיד אסור לו לעולם:"},
    {"ref": "Shulchan Arukh, Orach Chayim 318:2", "siman": 318, "seif": 2,
     "he": "מים שהוחמו מערב שבת מותר לשתותם: הגה ומותר ליתן אותם על גבי כירה (טור):"},
    {"ref": "Shulchan Arukh, Orach Chayim 90:1", "siman": 90, "seif": 1,
     "he": "מקום התפלה. ובו סעיף אחד:ישתדל אדם להתפלל בבית הכנסת עם הציבור:"},
]


def test_eval_against_the_library_of_an_ingested_book_ranks_by_ref(tmp_path, monkeypatch):
    # the judge alone orders and decides: the decision and ranking beside it were fitted on whole libraries, whose
    # search scores a book of four passages, searched with an English embedder, does not have
    judge = tmp_path / "judge"
    judge.mkdir()
    for name in ("judge.json", "model.safetensors"):
        (judge / name).symlink_to((Path("data/models/answerability") / name).resolve())
    monkeypatch.setenv("FLASK_JUDGE_DIR", str(judge))
    book = tmp_path / "sa.jsonl"
    book.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in SEIFIM), encoding="utf-8")
    questions = tmp_path / "halacha-book"
    (questions / "qrels").mkdir(parents=True)
    asked = [("q1", "מותר לשים את המים על הכירה?", "Shulchan Arukh, Orach Chayim 318:2"),  # the gloss counts as its seif
             ("q2", "מה הדין אם מישהו בישל בשבת בכוונה?", "Shulchan Arukh, Orach Chayim 318:1"),
             ("q3", "איפה עדיף להתפלל?", "Shulchan Arukh, Orach Chayim 90:1"),  # found by the siman's topic
             ("q4", "מים שהוחמו מערב שבת", "Shulchan Arukh, Orach Chayim 318:7")]  # a seif the book lacks: its siman
    (questions / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t}, ensure_ascii=False) + "\n" for q, t, _ in asked), encoding="utf-8")
    (questions / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, _, d in asked))
    result, log = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", book)
    assert "ingesting" in log and "(4 passages" in log  # two rulings, one gloss, one ruling
    assert result["queries"] == 4 and result["mrr@10"] == 0.75 and result["section_hit@10"] == 1.0
    again, log = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", book)
    assert "ingesting" not in log and again["mrr@10"] == 0.75

    # answers where search did its part (the gold seif ranked first), each asked again with its seif left out
    answered, _ = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", book, "--answers", "--unanswerable",
                           "--found-within", "1")
    assert answered["found_within_questions"] == 3 and answered["config"]["found_within"] == 1  # not q4's
    # a seif's question holds its gold when the answer cites its seif, the fact first when its first sentence does
    assert 0 < answered["answered_fact_first"] <= answered["answer_contains_gold"] <= answered["answered_rate"]
    assert answered["answer_contains_gold"] == pytest.approx(answered["citation_hits_gold"] * answered["answered_rate"], abs=1e-3)
    assert "unanswerable_abstain_rate" in answered and answered["unanswerable_citation_valid"] == 1.0
    app = create_app({"TESTING": True})
    refused = app.test_cli_runner().invoke(args=["eval", str(questions), "--corpus", str(book), "--found-within", "0"])
    assert refused.exit_code != 0 and "--found-within takes a rank" in refused.output


def test_eval_boosts_the_readers_community_when_asked(tmp_path):
    twin = "אסור לילך בקומה זקופה ויכסה כל גופו:"
    book = tmp_path / "sa.jsonl"
    seifim = [{"ref": "Shulchan Arukh, Orach Chayim 2:1", "he": twin},  # the Mechaber's ruling: Sephardi
              {"ref": "Shulchan Arukh, Orach Chayim 3:1", "he": f"הגה {twin}"}]  # a seif that is all the Rema's gloss
    book.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in seifim), encoding="utf-8")
    questions = tmp_path / "twins"
    (questions / "qrels").mkdir(parents=True)
    (questions / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "מותר ללכת בקומה זקופה?"}) + "\n")
    (questions / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tShulchan Arukh, Orach Chayim 3:1\t1\n")
    # the boost alone: without the questions written beside the real seifim these refs name (--no-questions)
    run = lambda *more: run_eval(tmp_path, questions, "--mode", "hybrid", "--corpus", book, "--no-questions",  # noqa: E731
                                 *more)[0]
    ashkenazi = run("--community-boost", "--community", "Ashkenazi")
    sephardi = run("--community-boost", "--community", "Sephardi")
    assert (ashkenazi["mrr@10"], sephardi["mrr@10"]) == (1.0, 0.5)  # each reader's passage first
    assert ashkenazi["config"]["community_boost"] is True and ashkenazi["config"]["community"] == "Ashkenazi"
    off = run("--no-community-boost", "--community", "Ashkenazi")
    assert off["config"]["community_boost"] is False and off["config"]["community"] == "Ashkenazi"


def test_eval_answers_and_unanswerable(tmp_path, beir):
    result, _ = run_eval(tmp_path, beir, "--answers", "--unanswerable")
    assert result["citation_valid"] == 1.0 and result["unanswerable_citation_valid"] == 1.0
    assert result["answer_contains_gold"] >= 0.75 and result["citation_hits_gold"] >= 0.75
    assert result["abstain_rate"] + result["answered_rate"] == pytest.approx(1.0)
    assert result["unanswerable_abstain_rate"] >= 0.5  # with the gold article gone, most questions are declined


def test_eval_unknown_split_says_what_exists(tmp_path, beir):
    app = create_app({"TESTING": True})
    result = app.test_cli_runner().invoke(args=["eval", str(beir), "--split", "dev"])
    assert result.exit_code != 0 and "choose a split" in str(result.exception)


def test_support_calibration_separates_gold_from_other_paragraphs(beir):
    from conftest import FakeEmbedder
    from training.calibrate import calibrate_support
    from checks.verify import Verifier

    result = calibrate_support(Verifier(FakeEmbedder()), beir, limit=10)
    assert result["claims"] > 0 and 0.2 <= result["threshold"] <= 0.94
    assert result["support_mean_gold"] > result["support_mean_other"]


def test_decline_calibration_finds_thresholds_at_least_as_good_as_the_current_ones(tmp_path, beir):
    app = create_app({"TESTING": True})
    result = app.test_cli_runner().invoke(args=["calibrate-decline", str(beir), "--limit", "4", "--cache", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output + str(result.exception)
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["questions"] > 0 and 0.2 <= figures["min_similarity"] <= 0.95 and 0.2 <= figures["min_score"] <= 0.95
    assert figures["balanced_accuracy"] >= figures["current_balanced_accuracy"]  # the current pair is on the grid
    assert figures["mean_best_score_gold"] > figures["mean_best_score_without"]


def test_eval_asks_a_metadata_field_instead_of_the_text(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in HEBREW_DOCS), encoding="utf-8")
    questions = tmp_path / "halacha-en"
    (questions / "qrels").mkdir(parents=True)
    rows = [{"_id": "h1", "text": "מותר לשתות מים שהוחמו?", "metadata": {"en": "May I drink water heated before Shabbat?"}},
            {"_id": "h2", "text": "איפה עדיף להתפלל?"}]  # no English: left out
    (questions / "queries.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (questions / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nh1\toc-318\t1\nh2\toc-90\t1\n")
    result, _ = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", corpus, "--text-field", "en")
    assert result["queries"] == 1 and result["config"]["text_field"] == "en"
    assert result["mrr@10"] == 1.0  # English words reach the Hebrew passage through the glossary
    plain, _ = run_eval(tmp_path, questions, "--mode", "bm25", "--corpus", corpus, "--text-field", "en", "--plain")
    assert plain["mrr@10"] == 0.0  # without it, no English word is in the text


def test_eval_searches_a_book_with_the_questions_written_beside_it_and_without_them(tmp_path):
    book = tmp_path / "sa.jsonl"
    seifim = [{"ref": "Shulchan Arukh, Orach Chayim 318:1", "he": "המבשל בשבת במזיד אסור לו לעולם:"},
              {"ref": "Shulchan Arukh, Orach Chayim 318:2", "he": "מים שהוחמו בשבת אסורים ברחיצה:"}]
    book.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in seifim), encoding="utf-8")
    written = tmp_path / "questions.jsonl"
    written.write_text(json.dumps({"id": "w1", "ref": "Shulchan Arukh, Orach Chayim 318:2", "language": "en",
                                   "text": "Can I shower with water heated on Shabbat?"}) + "\n")
    asked = tmp_path / "asked"
    (asked / "qrels").mkdir(parents=True)
    (asked / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "shower with heated water"}) + "\n")
    (asked / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tShulchan Arukh, Orach Chayim 318:2\t1\n")
    run = lambda *more: run_eval(tmp_path, asked, "--mode", "hybrid", "--corpus", book, *more)  # noqa: E731
    on, log = run("--questions", written)
    off, _ = run("--no-questions")
    assert "embedding the questions" in log and on["config"]["questions"] == str(written)
    assert on["mrr@10"] == 1.0 and off["config"]["questions"] is None  # English words only its question holds
    assert on["config"]["asked_weight"] > 0


def test_a_decline_that_quotes_the_answer_is_counted():
    """"The sources do not answer", then a quote that does: the worst decline, counted as declined_quoting_gold."""
    from contextlib import nullcontext
    from types import SimpleNamespace

    from measuring.evaluate import evaluate_answers

    said = {"q1": "The provided sources do not answer this question. What they do say: Construction was completed "
                  "in AD 80 [1].", "q2": "The provided sources do not answer this question."}
    pipeline = SimpleNamespace(
        retriever=SimpleNamespace(excluding=lambda docs: nullcontext()),
        ask=lambda text: SimpleNamespace(answer=SimpleNamespace(declined=True, text=said[text], citations=[],
                                                                invalid_citations=[]),
                                         evidence=SimpleNamespace(hits=[])))
    queries = [{"id": q, "text": q, "answers": ["AD 80"]} for q in said]
    figures = evaluate_answers(pipeline, queries, {"q1": {"d": 1}, "q2": {"d": 1}}, unanswerable=False)
    assert figures["declined_quoting_gold"] == 0.5 and figures["answered_rate"] == 0.0
