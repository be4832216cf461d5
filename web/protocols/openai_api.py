"""Evidenz as a model for OpenAI-compatible chat apps: POST /v1/chat/completions (streamed or not) and GET /v1/models.

The last user message is the question; the earlier user and assistant messages are the conversation, which
rewrites a follow-up into a standalone question as the page's conversations do. The model names the writer:
"evidenz" is the server's default, "evidenz-offline", "evidenz-claude" ... a configured one. The reply is the
checked answer with its [n] markers, and `citations` beside `choices` holds each checked citation with its
passage (title, reference, text), which a client that knows nothing of Evidenz simply ignores. A stream sends the
answer only once every claim in it is checked (the role first, then the checked text in pieces, then
`citations`, then [DONE]): a chat app never shows a sentence that the checks later remove.
Same sign-in, tiers and limits as /api/query (web/auth.py, accounts/limits.py); the answer is logged.
"""
import json
import time

from flask import Blueprint, Response, stream_with_context

from accounts.roles import ASK
from hebrew.words import tokenize
from web.auth import require
from web.errors import ApiError
from web.query import count_question
from web.services import services
from web.shaping import logged
from web.validation import MAX_QUESTION_CHARS, json_body
from checks.instructions import warning
from checks.markup import inert

bp = Blueprint("openai", __name__)

MODEL = "evidenz"
FIELDS = ("model", "messages", "stream", "temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "user",
          "stream_options", "presence_penalty", "frequency_penalty", "seed", "stop")  # the rest are accepted, unused
MAX_MESSAGES = 50
ROLES = ("system", "developer", "user", "assistant", "tool", "function")
PIECE_CHARS = 80  # of the checked answer per streamed chunk


def models_of(pipeline) -> list[str]:
    return [MODEL, *(f"{MODEL}-{name}" for name in sorted(pipeline.generator.writers))]


@bp.get("/v1/models")
def models():
    """The models a chat app may pick: the default writer and each configured one."""
    require(ASK)
    created = int(time.time())
    return {"object": "list", "data": [{"id": name, "object": "model", "created": created, "owned_by": "evidenz"}
                                       for name in models_of(services().pipeline)]}


def usage(messages: list[dict], answer: str) -> dict:
    """Tokens as the offline writer counts them: words (hebrew.words.tokenize) of the user's and assistant's
    messages read, and of the answer (docs/protocols.md)."""
    read = sum(len(tokenize(text_of(m.get("content")))) for m in messages if m.get("role") in ("user", "assistant"))
    written = len(tokenize(answer))
    return {"prompt_tokens": read, "completion_tokens": written, "total_tokens": read + written}


def conversation(messages) -> tuple[str, list[dict]]:
    """The question (the last user message) and the earlier turns as the rewrite reads them."""
    if not isinstance(messages, list) or not messages or len(messages) > MAX_MESSAGES:
        raise ApiError(f'"messages" must be a list of 1 to {MAX_MESSAGES} messages, the last one from the user.')
    said = []
    for message in messages:
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise ApiError('Each message must be an object with "role" (system, user, assistant or tool) and '
                           '"content".')
        if message["role"] in ("user", "assistant"):  # the rest (instructions, tool results) are read past
            said.append((message["role"], text_of(message.get("content"))))
    if not said or said[-1][0] != "user" or not said[-1][1].strip():
        raise ApiError("The last message must be the user's question, as text.")
    question = said[-1][1].strip()
    if len(question) > MAX_QUESTION_CHARS:
        raise ApiError(f"The question has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}.")
    turns, asked = [], None
    for role, content in said[:-1]:
        if role == "user":
            asked = content
        elif role == "assistant" and asked is not None:
            turns.append({"question": asked, "standalone_question": asked, "answer": content})
            asked = None
    return question, turns[-3:]


def text_of(content) -> str:
    """A message's text: a string, or the text parts of a list of content parts; none for an assistant's tool call."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(p, dict) for p in content):
        return "\n".join(p.get("text", "") for p in content if p.get("type") == "text" and isinstance(p.get("text"), str))
    raise ApiError('A message\'s "content" must be text, or a list of {"type": "text", "text": ...} parts.')


def citations_of(body: dict) -> list[dict]:
    """Each checked citation with its passage's title, reference and text."""
    passages = {p["n"]: p for p in body["passages"]}
    return [{**c, "text": inert(passages.get(c["n"], {}).get("chunk"))} for c in body["citations"]]


@bp.post("/v1/chat/completions")
def chat():
    """The checked answer to the last user message, as a chat completion (or its stream)."""
    who = require(ASK)
    body = json_body(FIELDS, '{"model": "evidenz", "messages": [{"role": "user", "content": "Who discovered penicillin?"}]}')
    pipeline = services().pipeline
    model = body.get("model") or MODEL
    if model not in models_of(pipeline):
        raise ApiError(f'Unknown model {str(model)[:100]!r}; GET /v1/models lists them ({", ".join(models_of(pipeline))}).',
                       404)
    provider = model[len(MODEL) + 1:] or None
    question, turns = conversation(body.get("messages"))
    if body.get("stream") is not None and not isinstance(body["stream"], bool):
        raise ApiError('"stream" must be true (the answer as server-sent events) or false.')
    count_question(who, pipeline, provider)
    answer = logged(pipeline.ask(question, provider=provider, turns=turns, reader=who,
                                 language=who.profile.get("answer_language")), who)
    reply_id, created = f"chatcmpl-{answer['id'] or 'unlogged'}", int(time.time())
    head = {"id": reply_id, "created": created, "model": model}
    extra = {"citations": citations_of(answer), "evidenz": {
        "declined": answer["declined"], "answer_id": answer["id"], "query_type": answer["query_type"],
        "standalone_question": answer["standalone_question"], "generator": answer["generator"],
        "flagged_claims": answer["flagged_claims"]}}
    text = inert("\n\n".join(t for t in (warning(answer["flagged_claims"]), answer["answer"]) if t))
    if not body.get("stream"):
        return {**head, "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": usage(body.get("messages"), text), **extra}

    def chunk(delta: dict, finish=None, **more) -> str:
        data = {**head, "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **more}
        return f"data: {json.dumps(data, ensure_ascii=False)}\n\n"

    def events():
        yield chunk({"role": "assistant", "content": ""})
        for start in range(0, len(text), PIECE_CHARS):
            yield chunk({"content": text[start:start + PIECE_CHARS]})
        yield chunk({}, "stop", **extra)
        yield "data: [DONE]\n\n"

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
