"""/v1/chat/completions and /v1/models through the `openai` Python client over real HTTP, as a chat app calls them.

A real server on the loopback over a real library, store and history (tests/builders.library_app); the embedder,
classifier and writer are fakes (the writer quotes passage [1], and every claim is checked as usual).
"""
import re

import openai
import pytest

from accounts.passwords import digest, hash_password, new_token
from builders import library_app

QUESTION = "Who discovered penicillin?"


@pytest.fixture
def app(tmp_path):
    return library_app({"TESTING": True}, tmp_path / "lib")


@pytest.fixture
def client(app, serve):
    return openai.OpenAI(base_url=serve(app).url + "/v1", api_key="unused on a personal server", max_retries=0)


def test_an_answer_and_its_checked_citations_come_back_as_a_chat_completion(client, app):
    reply = client.chat.completions.create(model="evidenz", messages=[{"role": "user", "content": QUESTION}])
    content = reply.choices[0].message.content
    assert reply.object == "chat.completion" and reply.choices[0].finish_reason == "stop" and "[1]" in content
    citations = reply.model_extra["citations"]
    assert citations and citations[0]["passage_id"] == "fleming#0" and citations[0]["valid"] is True
    assert "penicillin" in citations[0]["text"] and citations[0]["title"] == "Alexander Fleming"
    logged = app.extensions["history"].get(reply.model_extra["evidenz"]["answer_id"])
    assert logged["answer"] == content and reply.id == f"chatcmpl-{logged['id']}"
    # tokens counted as words (docs/protocols.md): the question's, and the answer's
    assert reply.usage.prompt_tokens == len(QUESTION.split()) and reply.usage.completion_tokens == len(
        re.findall(r"\w+", content))
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens > 0


def test_a_streamed_completion_carries_the_same_checked_answer_then_its_citations(client):
    whole = client.chat.completions.create(model="evidenz", messages=[{"role": "user", "content": QUESTION}])
    chunks = list(client.chat.completions.create(model="evidenz-offline", stream=True,
                                                 messages=[{"role": "user", "content": QUESTION}]))
    assert chunks[0].choices[0].delta.role == "assistant" and chunks[-1].choices[0].finish_reason == "stop"
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert text == whole.choices[0].message.content and len(chunks) >= 3
    assert chunks[-1].model_extra["citations"][0]["passage_id"] == "fleming#0"


def test_earlier_messages_are_the_conversation_a_follow_up_is_rewritten_from(client):
    reply = client.chat.completions.create(model="evidenz", messages=[
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Tell me about Alexander Fleming."},
        {"role": "assistant", "content": "Alexander Fleming was a Scottish physician [1]."},
        {"role": "user", "content": [{"type": "text", "text": "What did he discover?"}]}])
    standalone = reply.model_extra["evidenz"]["standalone_question"]
    assert "Fleming" in standalone and standalone != "What did he discover?"


def test_models_and_refusals_in_the_clients_own_errors(client):
    assert {m.id for m in client.models.list()} == {"evidenz", "evidenz-offline"}
    with pytest.raises(openai.NotFoundError, match="GET /v1/models"):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": QUESTION}])
    with pytest.raises(openai.BadRequestError, match="last message"):
        client.chat.completions.create(model="evidenz", messages=[{"role": "assistant", "content": "hi"}])
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="evidenz", messages=[])
    with pytest.raises(openai.BadRequestError, match='"stream" must be true'):  # not a stream for "no"
        client.chat.completions.create(model="evidenz", messages=[{"role": "user", "content": QUESTION}],
                                       extra_body={"stream": "no"})


def test_a_shared_server_takes_the_users_token_as_the_api_key(app, serve):
    user = app.extensions["history"].accounts.create("reader", "learner", hash_password("correct horse battery"))
    token = new_token()
    app.extensions["history"].accounts.add_token(user["id"], digest(token), "chat app", None)
    url = serve(app).url + "/v1"
    with pytest.raises(openai.AuthenticationError, match="not valid"):
        openai.OpenAI(base_url=url, api_key="evz_wrong", max_retries=0).models.list()
    signed = openai.OpenAI(base_url=url, api_key=token, max_retries=0)
    reply = signed.chat.completions.create(model="evidenz", messages=[{"role": "user", "content": QUESTION}])
    assert reply.model_extra["citations"]
    assert app.extensions["history"].get(reply.model_extra["evidenz"]["answer_id"])["user_id"] == user["id"]


def test_tool_turns_and_an_assistant_message_without_content_are_read_past(client):
    messages = [{"role": "user", "content": "Who discovered penicillin?"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                                        "function": {"name": "x", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "nothing"},
                {"role": "user", "content": QUESTION}]
    reply = client.chat.completions.create(model="evidenz", messages=messages)
    assert reply.model_extra["citations"][0]["passage_id"] == "fleming#0"
    with pytest.raises(openai.BadRequestError, match="last message"):
        client.chat.completions.create(model="evidenz", messages=[{"role": "system", "content": "Be brief."}])
