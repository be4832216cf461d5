"""The orchestration of a question, each branch of its two paths: the plain path (one search, one per subject,
deep mode, once more for missing words) and the research path (a writer that searches for itself, one that replies
without searching, one whose provider fails).

Real BM25 and FAISS over the four-document corpus; the classifier, embedder and writers are fakes.
"""
from conftest import FakeClassifier, FakeWriter, make_pipeline, make_retriever
from generator import Generator
from models import Ask, Draft
from pipeline import Pipeline
from writers.research import Turn
from writers.tools import ToolCall
from writers.writer import ProviderError, Writer


def test_a_reasoning_question_with_weak_evidence_gets_one_follow_up_retrieval():
    pipeline = make_pipeline(label="reasoning")
    searches = []
    search = pipeline.retriever.search
    pipeline.retriever.search = lambda query, *a, **kw: searches.append(query) or search(query, *a, **kw)
    result = pipeline.ask("Why was Rome an empire and photosynthesis xylophones?", top_k=4)
    assert len(searches) == 2 and result.evidence.followup == {"query": "xylophones", "added": 0}
    searches.clear()
    result = pipeline.ask("Why was Rome founded around the Mediterranean?", top_k=2)
    assert len(searches) == 1 and result.evidence.followup is None  # every word was found: no second search


def test_follow_up_retrieval_adds_passages_for_the_missing_part():
    pipeline = make_pipeline(label="reasoning")
    result = pipeline.ask("Why does photosynthesis matter for Everest climbers?", top_k=1)
    follow = result.evidence.followup
    assert follow and follow["added"] >= 1 and len(result.evidence.hits) == 1 + follow["added"]


def test_language_follows_the_question_unless_set():
    pipeline = make_pipeline()
    assert pipeline.ask("מי גילה את הפניצילין?").question.language == "he"
    assert pipeline.ask("Who discovered penicillin?", language="he").question.language == "he"
    assert pipeline.ask("Who discovered penicillin?").question.language == "en"


# the plain path's branches


def test_a_two_subject_question_searches_each_subject_and_the_writer_gets_its_parts():
    pipeline = make_pipeline(label="explanation")
    searches = []
    search = pipeline.retriever.search
    pipeline.retriever.search = lambda query, *a, **kw: searches.append(query) or search(query, *a, **kw)
    writer = pipeline.generator.writers["offline"]
    result = pipeline.ask("What is the difference between penicillin and photosynthesis?")
    assert len(searches) == 2 and [s["query"] for s in result.evidence.searches] == searches
    assert [label for label, *_ in writer.last_request.parts] == ["penicillin", "photosynthesis"]


def test_deep_mode_shows_twice_the_passages_and_searches_for_missing_words():
    pipeline = make_pipeline(label="factual_lookup")
    plain = pipeline.ask("Who discovered penicillin and xylophones?", top_k=1)
    deep = pipeline.ask("Who discovered penicillin and xylophones?", top_k=1, mode="deep")
    assert len(plain.evidence.hits) == 1 and plain.evidence.followup is None
    first, more = deep.evidence.searches
    assert len(first["results"]) == 2 and more["query"] == deep.evidence.followup["query"] == "xylophones"
    assert deep.mode == "deep"


def test_the_record_of_a_question_is_what_the_stages_read():
    pipeline = make_pipeline()
    ask = Ask("Who discovered penicillin?", top_k=2, language="he", session_id="s1", streaming=False)
    result = pipeline.answer(ask)
    assert (result.question.session_id, result.question.language, len(result.evidence.hits)) == ("s1", "he", 2)
    assert set(result.timings) >= {"classify", "retrieve", "generate", "total", "stages"}


# the research path's branches


class Researcher(Writer):
    """A model writer that searches for itself: each turn of `turns` is (text, [search queries])."""

    name, uses_tools = "researcher", True

    def __init__(self, turns=(), fails=False):
        self.turns, self.fails = list(turns), fails

    def write(self, request):
        return Draft("Fleming discovered penicillin [1].")

    def tool_conversation(self, system, said, question):
        return []

    def tool_turn(self, conversation, system, model, tools):
        if self.fails:
            raise ProviderError("researcher: HTTP 503")
        text, queries = self.turns.pop(0) if self.turns else ("Fleming discovered penicillin [1].", [])
        return Turn(text, [ToolCall(str(n), "search_library", {"query": q}) for n, q in enumerate(queries)])

    def tool_results(self, conversation, turn, replies):
        conversation.extend(replies)

    def tool_draft(self, turn):
        return Draft(turn.text)


def research_pipeline(writer):
    generator = Generator({"researcher": writer, "offline": FakeWriter("offline", ["Offline answer [1]."])},
                          "researcher")
    return Pipeline(FakeClassifier(), make_retriever(), generator, {})


def test_a_writer_that_searches_answers_from_what_its_searches_found():
    result = research_pipeline(Researcher([("", ["penicillin"])])).ask("Who discovered penicillin?")
    assert [s["query"] for s in result.evidence.searches] == ["penicillin"] and result.evidence.hits
    assert result.answer.generator == "researcher" and result.answer.citations


def test_a_reply_that_searched_nothing_cites_nothing_and_says_so():
    result = research_pipeline(Researcher([("Hello [1]!", [])])).ask("Hello")
    assert result.answer.text.startswith("Hello!") and "does not come from the library" in result.answer.text
    assert result.answer.citations == [] and result.answer.from_library is False


def test_a_provider_failing_while_searching_hands_the_question_to_the_plain_path_offline():
    result = research_pipeline(Researcher(fails=True)).ask("Who discovered penicillin?")
    assert result.answer.generator == "offline" and result.answer.text == "Offline answer [1]."
    assert "HTTP 503" in result.answer.degraded and "written offline" in result.answer.degraded


def test_a_decline_to_a_question_in_a_language_the_library_has_no_texts_in_says_so(tmp_path):
    from pg import Backend

    from conftest import CORPUS, FakeEmbedder
    from retrieval import Retriever

    library = Backend("embedded", tmp_path / "lib").build(CORPUS)
    declining = FakeWriter("offline", [Draft("", declined=True)] * 2)
    pipeline = Pipeline(FakeClassifier(), Retriever(library, FakeEmbedder()), Generator({"offline": declining}, "offline"),
                        {}, store=library.store, relations=library.relations)
    hebrew = pipeline.ask("מי גילה את הפניצילין?")
    assert hebrew.answer.declined and hebrew.answer.text == (
        "המקורות שסופקו אינם עונים על שאלה זו. הטקסטים בספרייה כתובים באנגלית, לא בעברית; "
        "אפשר לשאול את השאלה באנגלית כדי לחפש בהם.")
    assert hebrew.answer.citations == []  # what words of another language found is not about the question
    english = pipeline.ask("Who discovered penicillin?")
    assert english.answer.declined and "texts are in" not in english.answer.text


def test_a_library_asked_in_a_language_beside_its_texts_keeps_its_decline_as_it_was():
    """Questions kept beside the passages in English (the Shulchan Arukh's) make English a language the library is
    asked in: its decline names the nearest seifim, cited, and says nothing of languages (issue 36 over issue 47)."""
    from checks.declines import in_other_languages
    from models import Answer, Citation

    class Hebrew:
        def __call__(self):
            return {"he"}

        def askable(self):
            return {"he", "en"}

    declined = Answer("The provided sources do not answer this question. The nearest passages found: X [1].",
                      [Citation(1, "sa#1", "Shulchan Arukh")], declined=True)
    in_other_languages(declined, "How many candles are lit on the first night?", "en", Hebrew())
    assert declined.text.endswith("X [1].") and declined.citations
    Hebrew.askable = Hebrew.__call__  # the same library without its English questions
    in_other_languages(declined, "How many candles are lit on the first night?", "en", Hebrew())
    assert "The library's texts are in Hebrew, not in English" in declined.text and declined.citations == []
