"""Writers that search for themselves, in the whole app with the real models and library: Claude, Gemini and an
OpenAI-compatible server (each a local stand-in over real HTTP that reads its tool results as a model would) ask
two searches for a two-part question, and every claim is checked by the real verifier and judge."""
import re

import pytest

from app import create_app
from standin import PROVIDERS, providers_config
from standin_tools import final_text, tool_calls, tool_results

QUESTION = "Who discovered penicillin, and what is the highest mountain on Earth?"


@pytest.fixture(scope="module")
def searching_app(real_library, standins):
    return create_app({"TESTING": True, "LIBRARY_DIR": str(real_library), "LOAD_ON_START": True,
                       **providers_config(standins), "LLM_RETRIES": 0})


def reader(provider):
    """A stand-in model that searches twice, then answers with a sentence of each passage it needs, cited."""
    def reply(request):
        results = [r for r, error in tool_results(provider, request) if not error]
        if len(results) < 2:
            query = ["who discovered penicillin", "highest mountain on Earth"][len(results)]
            return tool_calls(provider, [("search_library", {"query": query})])
        passages = [p for r in results for p in r["passages"]]
        sentences = []
        for word in ("penicillin in 1928", "highest mountain"):
            passage = next(p for p in passages if word in p["text"])
            sentence = next(s for s in re.split(r"(?<=\.) ", passage["text"]) if word in s)
            sentences.append(f"{sentence.rstrip('.')} [{passage['n']}].")
        return final_text(provider, " ".join(sentences))

    return reply


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_two_part_question_gets_two_searches_and_checked_citations(searching_app, standins, provider):
    standins[provider].replies.clear()
    standins[provider].reply(200, reader(provider))
    body = searching_app.test_client().post("/api/query", json={"question": QUESTION, "provider": provider}).json
    assert [s["query"] for s in body["searches"]] == ["who discovered penicillin", "highest mountain on Earth"]
    cited = {c["passage_id"] for c in body["citations"]}
    assert cited == {"Alexander_Fleming#0", "Mount_Everest#0"}, body["answer"]
    assert all(c["verified"] and c["support"] > 0.6 for c in body["citations"])
    assert not body["declined"] and body["generator"] == provider and body["removed_claims"] == []
    assert len(body["passages"]) == len({p["id"] for p in body["passages"]})  # a passage found twice: one number
