"""Related passages join the evidence, on each backend: a ruling found brings in the gloss that argues with it, the
answer gives both opinions each under its own reference, and the reader's community decides which of two works'
opinions comes first (a gloss always after its ruling); a passage of a hidden document never joins; the posek's
mode follows every kind of relation.

Real libraries, BM25, retrieval, offline writer and citation checks; the embedder and classifier are fakes."""
import pytest

from accounts.roles import Reader
from builders import GLOSS, OTHER, SEIF, ruled_entry, ruled_library
from conftest import FakeClassifier, FakeEmbedder
from generator import Generator
from pipeline import Pipeline
from retrieval import Retriever
from search.related import joining, with_rulings
from search.view import Scope
from writers.offline import ExtractiveWriter
from writers.prompt import OPINIONS
from checks.verify import Verifier, split_claims

QUESTION = "Some say baked bread is cooked again in a second vessel?"  # finds the seif first
PRIVATE = "Private Notes 1:1"
BERURAH = "Mishnah Berurah 318:40"


def reader(community=None, tiers=("canonical", "public")):
    return Reader(1, "reader", "learner", frozenset(tiers), {"community": community})


@pytest.fixture
def library(backend):
    private = ruled_entry("notes", [(PRIVATE, None, None, "A private note on bread in a second vessel.")],
                          tier="private")
    return ruled_library(backend, [ruled_entry(), private])


def pipeline(library, label="explanation"):
    writer = ExtractiveWriter(FakeEmbedder())
    return Pipeline(FakeClassifier(label), Retriever(library, FakeEmbedder()),
                    Generator({"offline": writer}, "offline", verifier=Verifier(FakeEmbedder(), 0.5)),
                    store=library.store, relations=library.relations)


def refs(result) -> list[str]:
    return [h.chunk.ref for h in result.evidence.hits]


def opinion_lines(answer: str) -> list[str]:
    """The lines of the answer's opinions part: each reference, then its cited sentence."""
    return [line for line in answer.split(OPINIONS["en"], 1)[1].splitlines() if line.strip()][:4]


@pytest.mark.parametrize("community, first, second", [
    (None, SEIF, GLOSS),  # the passage found first, its opponent after it
    ("Sephardi", SEIF, GLOSS),
    ("Ashkenazi", SEIF, GLOSS),  # the gloss's community's reader too: a gloss is read after what it glosses
])
def test_an_argued_ruling_brings_its_gloss_and_the_answer_gives_both_under_their_refs(library, community, first,
                                                                                     second):
    library.relations.add(GLOSS, SEIF, "argues_with", 0.85, "the custom is strict")
    plain = pipeline(library).ask(QUESTION, top_k=1, reader=reader(community))
    assert refs(plain) == [first, second]
    hits = plain.evidence.hits
    assert {h.chunk.ref: h.relation["direction"] for h in hits} == {GLOSS: "to", SEIF: "from"}
    assert {h.chunk.ref: h.relation["passage"] for h in hits} == {GLOSS: SEIF, SEIF: GLOSS}
    assert all(h.relation["kind"] == "argues_with" and h.relation["confidence"] == 0.85 for h in hits)

    answer = plain.answer
    assert [c.ref for c in answer.citations] == [first, second] and all(c.verified for c in answer.citations)
    lines = opinion_lines(answer.text)
    assert lines[0] == f"{first}:" and lines[1].endswith("[1].")  # each opinion under its own ref, cited to it
    assert lines[2] == f"{second}:" and lines[3].endswith("[2].")
    assert not answer.removed_claims and all(c.cited for c in split_claims(answer.text) if not c.structural
                                             and "rabbi" not in c.plain)


def test_without_a_relation_the_gloss_is_not_brought_in(library):
    result = pipeline(library).ask(QUESTION, top_k=1)
    assert refs(result) == [SEIF] and result.evidence.hits[0].relation is None
    assert OPINIONS["en"] not in result.answer.text


def test_a_passage_of_a_document_hidden_from_the_reader_never_joins(library):
    library.relations.add(PRIVATE, SEIF, "argues_with")
    learner = pipeline(library).ask(QUESTION, top_k=1, reader=reader())
    assert refs(learner) == [SEIF] and learner.evidence.hits[0].relation is None
    admin = pipeline(library).ask(QUESTION, top_k=1, reader=reader(tiers=("canonical", "public", "private")))
    assert refs(admin) == [SEIF, PRIVATE]


def test_only_opposing_relations_join_but_the_posek_follows_every_kind(library):
    library.relations.add(OTHER, SEIF, "contextualizes")
    assert refs(pipeline(library).ask(QUESTION, top_k=1)) == [SEIF]
    posek = pipeline(library).ask(QUESTION, top_k=1, mode="posek")
    assert refs(posek) == [SEIF, OTHER] and posek.evidence.hits[1].relation["kind"] == "contextualizes"
    assert OPINIONS["en"] not in posek.answer.text  # a context is no second opinion


def test_when_both_opinions_were_found_the_gloss_stays_after_its_ruling(library):
    library.relations.add(GLOSS, SEIF, "minhag_override")
    found = pipeline(library).ask(QUESTION, top_k=2, reader=reader())
    assert refs(found)[:2] == [SEIF, GLOSS]
    ashkenazi = pipeline(library).ask(QUESTION, top_k=2, reader=reader("Ashkenazi"))
    assert refs(ashkenazi)[:2] == [SEIF, GLOSS] and len(ashkenazi.evidence.hits) == 2  # not added twice


@pytest.mark.parametrize("community, first, second", [(None, SEIF, BERURAH), ("Ashkenazi", BERURAH, SEIF)])
def test_of_two_works_that_argue_the_reader_s_community_s_opinion_comes_first(backend, community, first, second):
    other_work = ruled_entry("mb", [(BERURAH, "Mishnah Berurah 318", "Ashkenazi",
                                     "Bread that was baked is not cooked again in a second vessel at all.")])
    library = ruled_library(backend, [ruled_entry(), other_work])
    library.relations.add(BERURAH, SEIF, "argues_with")
    assert refs(pipeline(library).ask(QUESTION, top_k=1, reader=reader(community))) == [first, second]


def fetch(library, scope=Scope()):
    """The library's passages by key within scope, as the pipeline gives with_rulings."""
    return lambda refs: joining(library.current(), refs, scope)


GLOSS_QUESTION = "The custom is to take care not to put bread even into a second vessel?"  # finds the gloss first


def test_a_gloss_found_without_its_ruling_brings_the_ruling_in_before_it(library):
    searched = Retriever(library, FakeEmbedder()).search(GLOSS_QUESTION, 1)
    assert [h.chunk.ref for h in searched] == [GLOSS]  # the search alone finds the gloss only
    result = pipeline(library).ask(GLOSS_QUESTION, top_k=1)
    assert refs(result) == [SEIF, GLOSS]
    assert result.evidence.hits[0].hybrid_score > 0  # the search's own hit for the ruling (ranked after those shown)
    assert result.evidence.searches[0]["results"] == [2]  # the search found [2]; [1] is its ruling


def test_the_ruling_comes_from_the_library_when_the_search_did_not_rank_it(library):
    gloss = Retriever(library, FakeEmbedder()).search(GLOSS_QUESTION, 1)
    ordered = with_rulings(gloss, fetch(library))
    assert [h.chunk.ref for h in ordered] == [SEIF, GLOSS] and ordered[0].hybrid_score == 0.0
    assert with_rulings(gloss, fetch(library), most=0) == gloss  # none may be brought: the gloss stays alone
    hidden = Scope(excluded=frozenset({"sa"}))  # a ruling the reader may not see is not brought
    assert with_rulings(gloss, fetch(library, hidden)) == gloss


def test_a_gloss_ranked_before_its_ruling_moves_right_after_it(library):
    hits = Retriever(library, FakeEmbedder()).search(GLOSS_QUESTION, 3)
    assert [h.chunk.ref for h in hits].index(GLOSS) < [h.chunk.ref for h in hits].index(SEIF)
    ordered = [h.chunk.ref for h in with_rulings(hits, fetch(library))]
    assert ordered.index(GLOSS) == ordered.index(SEIF) + 1 and sorted(ordered) == sorted(h.chunk.ref for h in hits)
    shown = refs(pipeline(library).ask(GLOSS_QUESTION, top_k=3))
    assert shown.index(GLOSS) == shown.index(SEIF) + 1


def test_only_a_named_glossator_s_passage_is_a_gloss():
    from types import SimpleNamespace

    from search.related import glossed

    def of(ref, parent=None):
        return SimpleNamespace(chunk=SimpleNamespace(ref=ref, parent_ref=parent))

    assert glossed(of("Shulchan Arukh, Orach Chayim 511:2, Rema", "Shulchan Arukh, Orach Chayim 511:2")) == (
        "Shulchan Arukh, Orach Chayim 511:2")
    assert glossed(of("Pirkei Avot 1, Introduction")) is None and glossed(of("X 4, Epilogue", "X 4")) is None
    assert glossed(of("Shulchan Arukh, Orach Chayim 511:2, Rema", "Shulchan Arukh, Orach Chayim 511")) is None
