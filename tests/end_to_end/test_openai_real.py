"""The `openai` client against the real pipeline (real embedder, classifier, judge and checks) over real HTTP:
a chat app gets a checked answer and its verified citations, streamed and not."""
import openai

QUESTION = "Who discovered penicillin?"


def test_the_openai_client_gets_a_checked_answer_from_the_real_pipeline(real_app, serve):
    client = openai.OpenAI(base_url=serve(real_app).url + "/v1", api_key="personal", max_retries=0)
    reply = client.chat.completions.create(model="evidenz", messages=[{"role": "user", "content": QUESTION}])
    content, citations = reply.choices[0].message.content, reply.model_extra["citations"]
    assert "Fleming" in content and "[1]" in content and not reply.model_extra["evidenz"]["declined"]
    assert citations and all(c["verified"] for c in citations)
    assert any(c["passage_id"].startswith("Alexander_Fleming") and "penicillin" in c["text"] for c in citations)
    stream = client.chat.completions.create(model="evidenz", stream=True,
                                            messages=[{"role": "user", "content": QUESTION}])
    chunks = list(stream)
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == content
    assert [c["passage_id"] for c in chunks[-1].model_extra["citations"]] == [c["passage_id"] for c in citations]
