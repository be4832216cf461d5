"""The answer path reads straight through: following a question from the request to the answer, no module is
entered more than twice, and no function on the way is over 50 lines.

A question is asked over HTTP (/api/query and /api/query/stream) of a pipeline with real retrieval, the offline
writer and the citation check (fake embedder and classifier). Every call the profiler sees is placed on a call
tree of the project's modules; a module is *entered* when a call crosses into it from another module. The
stages of the question are the crossings within three of the request's view (web/query.py -> pipeline.py -> a
stage such as generator.py -> what that stage calls): deeper calls are a stage's own business. A module entered
from one place of the code counts once however often that place runs (a loop over passages), and a generator
resumed is the same visit. The stages are the modules of the answer path (ANSWER_PATH); the web layer's plumbing
(services, validation), the library's index a search reads (search/view.py) and the helpers (hebrew/, storage/)
are not stages.
"""
import ast
import sys
from collections import Counter
from pathlib import Path

import pytest

from app import create_app
from checks.verify import Verifier
from conftest import FakeClassifier, FakeEmbedder, make_retriever
from generator import Generator
from pipeline import Pipeline
from writers.offline import ExtractiveWriter

ROOT = Path(__file__).resolve().parents[1]
STAGE_DEPTH = 3  # crossings below the view: pipeline (1), its stages (2), what a stage calls (3)
ANSWER_PATH = ["web/query.py", "web/shaping.py", "pipeline.py", "generator.py", "retrieval.py", "question/work.py",
               "question/policy.py", "question/subjects.py", "question/rewrite.py", "checks", "writers/offline.py",
               "writers/answering.py", "writers/writer.py", "search/related.py"]
RECORDS = {"question/work.py"}  # the question's record on its way (Work, Found): read by every stage
MAX_FUNCTION_LINES = 50


def module_of(frame) -> str | None:
    """The project module a frame runs in (tests and libraries: None)."""
    path = Path(frame.f_code.co_filename).absolute()
    if ROOT not in path.parents or not path.is_file() or {".venv", "tests"} & set(path.relative_to(ROOT).parts):
        return None
    return str(path.relative_to(ROOT))


def entries(run) -> Counter:
    """How often run() enters each project module within STAGE_DEPTH crossings of web/query.py's view."""
    depth: dict = {}  # frame -> crossings from the view (frames of the project's modules only)
    seen: set = set()  # the frames entered: held, so that no new frame takes a finished one's place
    sites: dict[str, set] = {}  # module -> the places (file, line) the flow crossed into it from

    def profile(frame, event, arg):
        if event != "call" or frame in seen:  # a resumed generator is the same visit
            return
        seen.add(frame)
        mine = module_of(frame)
        caller = frame.f_back
        while caller is not None and module_of(caller) is None:
            caller = caller.f_back
        if mine is None:
            return
        if mine == "web/query.py" and frame.f_code.co_name in ("query", "query_stream", "events"):
            depth[frame] = 0  # the view, and the stream's events it returns to the server
            return
        if caller is None or caller not in depth:
            return
        crossing = depth[caller] + (module_of(caller) != mine)
        depth[frame] = crossing
        if module_of(caller) != mine and crossing <= STAGE_DEPTH:
            sites.setdefault(mine, set()).add((caller.f_code.co_filename, caller.f_lineno))

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return Counter({module: len(places) for module, places in sites.items()})


@pytest.fixture
def client():
    embedder = FakeEmbedder()
    generator = Generator({"offline": ExtractiveWriter(embedder)}, "offline", verifier=Verifier(embedder, 0.3))
    pipeline = Pipeline(FakeClassifier(), make_retriever(), generator, {"library": {"chunks": 4}})
    return create_app({"TESTING": True}, pipeline=pipeline).test_client()


def stage(module: str) -> bool:
    """Whether a module is a stage of the answer path (the question's record is read by them, not a stage)."""
    return module not in RECORDS and any(module == entry or module.startswith(entry + "/") for entry in ANSWER_PATH)


@pytest.mark.parametrize("route", ["/api/query", "/api/query/stream"])
def test_following_a_question_no_module_is_entered_more_than_twice(client, route):
    question = {"question": "Who discovered penicillin?"}
    counts = entries(lambda: client.post(route, json=question).get_data())
    print(route, dict(counts.most_common()))
    assert counts["pipeline.py"] and counts["generator.py"] and counts["checks/answer.py"], counts  # it was followed
    assert counts["search/view.py"] > 2  # the retriever reads the library's view from several places: re-entry shows
    assert {module: n for module, n in counts.items() if stage(module) and n > 2} == {}


def test_no_function_on_the_answer_path_is_over_50_lines():
    files = [p for entry in ANSWER_PATH for p in ((ROOT / entry).glob("*.py") if (ROOT / entry).is_dir()
                                                  else [ROOT / entry])]
    long = {f"{p.relative_to(ROOT)}:{node.name}": node.end_lineno - node.lineno + 1
            for p in files for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES}
    assert long == {}
