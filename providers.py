"""Writers backed by model servers: Anthropic Claude, Google Gemini, and any OpenAI-compatible server.

Claude reads the passages as search_result blocks and cites them natively; Gemini answers in a JSON
schema of sentences, each with the passages it cites and what it quotes from them; an OpenAI-compatible
server (Ollama, llama.cpp server, vLLM) gets generator.py's text prompt and writes [n] markers.
Each returns a Draft and judges none of its citations: a passage number that was not given, or a quote
that is not in its passage, is passed on as the model gave it, for the verifier to reject.
Every call has a timeout and a max_tokens here and goes through one Guard (resilience.py) for retries
and the circuit breaker; the SDKs' own retries are off. Base URLs are configurable, which is also how
the tests reach local stand-ins.
"""
import json
import logging
import re
from collections.abc import Iterator

from generator import (CITATION_RE, SYSTEM_PROMPT, ProviderError, build_prompt, decline_text, is_decline,
                       passage_label, task_text)
from models import Draft, Statement, WriteRequest
from resilience import CircuitBreaker, Failure, Guard, RetryPolicy, status_failure

log = logging.getLogger(__name__)

TEMPERATURE = 0.1
MAX_TOKENS = 1024

SENTENCE_BREAK_RE = re.compile(r"((?<=[.!?])\s+|\s*\n\s*)")  # a sentence ends at . ! ? and at a line break
TAIL_RE = re.compile(r"[.!?:;]*\s*\Z")  # a sentence's closing punctuation: its markers go before it

GEMINI_JSON = """Reply with JSON only.
If the evidence does not answer the question: {"answerable": false, "sentences": []}.
Otherwise "answerable": true and one entry in "sentences" per sentence of the answer: its "text" without [n] markers,
and "citations": for each passage the sentence rests on, its number as "passage" and as "quote" a short span copied
word for word from that passage."""

ANSWER_SCHEMA = {  # Gemini's schema dialect (OpenAPI 3.0 subset); answerable first, so it streams first
    "type": "OBJECT",
    "properties": {
        "answerable": {"type": "BOOLEAN"},
        "sentences": {"type": "ARRAY", "items": {
            "type": "OBJECT",
            "properties": {
                "text": {"type": "STRING"},
                "citations": {"type": "ARRAY", "items": {
                    "type": "OBJECT",
                    "properties": {"passage": {"type": "INTEGER"}, "quote": {"type": "STRING"}},
                    "required": ["passage", "quote"]}},
            },
            "required": ["text", "citations"], "propertyOrdering": ["text", "citations"]}},
    },
    "required": ["answerable", "sentences"],
    "propertyOrdering": ["answerable", "sentences"],
}


def marker_numbers(text: str) -> list[int]:
    """The passage numbers of the [n] markers in text, in order."""
    return [int(n) for m in CITATION_RE.finditer(text) for n in m.group(2).split(",")]


def with_markers(text: str, cited: list[int]) -> str:
    """text with an [n] for each cited number it does not carry yet, before its closing punctuation."""
    new = [n for n in dict.fromkeys(cited) if n not in marker_numbers(text)]
    if not new:
        return text
    cut = TAIL_RE.search(text).start()
    return text[:cut] + " " + "".join(f"[{n}]" for n in new) + text[cut:]


def statement(text: str, cited: list[int], quotes: list[str]) -> Statement | None:
    """A claim without its markers, citing what it was given and what its own markers name; None if empty."""
    bare = CITATION_RE.sub("", text).strip()
    if not bare:
        return None
    return Statement(bare, list(dict.fromkeys(cited + marker_numbers(text))), [q for q in quotes if q])


class Writer:
    """What every hosted writer shares: the guard around its calls and its status."""

    name = label = ""

    def __init__(self, model: str, retries: int, max_tokens: int, backoff: float, failures_to_open: int,
                 cooldown: float):
        self.model = model
        self.max_tokens = max_tokens
        self.guard = Guard(self.label, self.failure, RetryPolicy(retries, backoff),
                           CircuitBreaker(failures_to_open, cooldown))

    def write(self, request: WriteRequest) -> Draft:
        """The model's draft answer to request."""
        return self.guard.call(lambda: self._write(request))

    def stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """Text deltas as the model writes them, then the Draft; closing it closes the HTTP response."""
        return self.guard.stream(lambda: self._stream(request))

    def complete(self, system: str, user: str, model: str | None = None, max_tokens: int = 256) -> str:
        """A short completion (question rewriting), without evidence or citations."""
        return self.guard.call(lambda: self._complete(system, user, model or self.model, max_tokens))

    def status(self) -> dict:
        """Name, model, circuit state and how the last call went, for /api/health."""
        return {"name": self.name, "model": self.model, "configured": True, **self.guard.status()}

    def bad_reply(self, what: str) -> ProviderError:
        """The error for a reply that is not what was asked for."""
        return ProviderError(f"{self.label}: the reply was not {what}")


class ClaudeWriter(Writer):
    """Claude through the Messages API; passages go as search_result blocks and come back as native citations."""

    name, label = "claude", "Claude"

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 retries: int = 2, *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5,
                 failures_to_open: int = 5, cooldown: float = 30.0):
        import anthropic

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown)
        self.anthropic = anthropic
        # max_retries=0: retries happen in the Guard only
        self.client = anthropic.Anthropic(api_key=api_key, base_url=base_url or None, timeout=timeout, max_retries=0)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether an SDK exception is worth a retry."""
        errors = self.anthropic
        if isinstance(exc, errors.APITimeoutError):
            return Failure("timed out", True)
        if isinstance(exc, errors.APIConnectionError):
            return Failure("could not connect", True)
        if isinstance(exc, errors.APIStatusError) and exc.status_code >= 400:
            return status_failure(exc.status_code, exc.response.headers)
        if isinstance(exc, errors.APIStatusError):  # an error event inside a stream that began well (overloaded)
            return Failure("error event in the stream", True)
        if isinstance(exc, errors.APIError):
            return Failure(type(exc).__name__, False)
        return None

    def params(self, request: WriteRequest) -> dict:
        """The Messages API request: each passage a citable search result, then the task."""
        results = [{"type": "search_result", "source": hit.chunk.id, "title": passage_label(hit),
                    "content": [{"type": "text", "text": hit.chunk.text}], "citations": {"enabled": True}}
                   for hit in request.hits]
        # no temperature: the current Messages API no longer takes one
        return {"model": request.model or self.model, "max_tokens": self.max_tokens, "system": SYSTEM_PROMPT,
                "messages": [{"role": "user", "content": [*results, {"type": "text", "text": task_text(request)}]}]}

    def _write(self, request: WriteRequest) -> Draft:
        """One Messages API call."""
        message = self.message(self.client.messages.create(**self.params(request)))
        return claude_draft(message.content, message.model)

    def _stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """Text deltas, the markers of each cited block as it closes, then the Draft."""
        started = False
        with self.client.messages.stream(**self.params(request)) as stream:
            for event in stream:
                started = started or event.type == "message_start"
                if event.type == "text":
                    yield event.text
                elif event.type == "content_block_stop" and getattr(event.content_block, "citations", None):
                    yield " " + "".join(f"[{n}]" for n in dict.fromkeys(cited_numbers(event.content_block)))
            if not started:  # e.g. a proxy that answered with a page, not an event stream
                raise self.bad_reply("a message stream")
            message = stream.get_final_message()
        yield claude_draft(message.content, message.model)

    def message(self, reply):
        """reply, if it is a Message (the SDK hands back a body it cannot read as one as text)."""
        if not isinstance(getattr(reply, "content", None), list):
            raise self.bad_reply("a message")
        return reply

    def _complete(self, system: str, user: str, model: str, max_tokens: int) -> str:
        """One short Messages API call."""
        message = self.message(self.client.messages.create(model=model, max_tokens=max_tokens, system=system,
                                                           messages=[{"role": "user", "content": user}]))
        return "".join(block.text for block in message.content if block.type == "text").strip()


def cited_numbers(block) -> list[int]:
    """The passage numbers (1-based) a text block's search-result citations name, as Claude gave them."""
    return [c.search_result_index + 1 for c in block.citations or []
            if getattr(c, "type", None) == "search_result_location" and isinstance(c.search_result_index, int)]


def claude_draft(blocks, model: str | None) -> Draft:
    """Claude's text blocks as a Draft: [n] markers where it cited, and one Statement per sentence."""
    text, statements = "", []
    current, cited, quotes = "", [], []
    for block in blocks:
        if block.type != "text":
            continue
        if re.search(r"[.!?]\s*\Z", current) and block.text[:1].isspace():  # the block opens a new sentence
            statements.append(statement(current, cited, quotes))
            current, cited, quotes = "", [], []
        numbers = cited_numbers(block)
        block_quotes = [c.cited_text for c in block.citations or []
                        if getattr(c, "type", None) == "search_result_location"]
        pieces = SENTENCE_BREAK_RE.split(block.text)  # sentence, break, sentence, ...
        for i, piece in enumerate(pieces):
            if i % 2:  # a break: the sentence so far is complete
                text += piece
                statements.append(statement(current, cited, quotes))
                current, cited, quotes = "", [], []
                continue
            text += with_markers(piece, numbers) if numbers and piece.strip() else piece
            current += piece
            if numbers and piece.strip():
                cited, quotes = cited + numbers, quotes + block_quotes
    statements.append(statement(current, cited, quotes))
    text = text.strip()
    if is_decline(text):
        return Draft(text, None, model)
    return Draft(text, [s for s in statements if s], model)


class GeminiWriter(Writer):
    """Gemini through google-genai, answering in the JSON schema ANSWER_SCHEMA."""

    name, label = "gemini", "Gemini"

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 retries: int = 2, *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5,
                 failures_to_open: int = 5, cooldown: float = 30.0):
        import httpx2
        from google import genai
        from google.genai import errors, types

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown)
        self.httpx, self.errors, self.types = httpx2, errors, types
        options = types.HttpOptions(
            base_url=base_url or None,
            timeout=int(timeout * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),  # one attempt: retries happen in the Guard only
        )
        self.client = genai.Client(api_key=api_key, http_options=options)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether an SDK or transport exception is worth a retry."""
        if isinstance(exc, self.errors.APIError):
            if not isinstance(exc.code, int):
                return Failure("error reply", False)
            return status_failure(exc.code, getattr(exc.response, "headers", None))
        if isinstance(exc, self.httpx.TimeoutException):
            return Failure("timed out", True)
        if isinstance(exc, self.httpx.TransportError):
            return Failure("could not connect", True)
        return None

    def config(self, system: str, max_tokens: int, answer: bool):
        """Generation settings; an answer comes as JSON in ANSWER_SCHEMA."""
        schema = {"response_mime_type": "application/json", "response_schema": ANSWER_SCHEMA} if answer else {}
        return self.types.GenerateContentConfig(system_instruction=system, temperature=TEMPERATURE,
                                                max_output_tokens=max_tokens, **schema)

    def prompt(self, request: WriteRequest) -> tuple[str, dict]:
        """The user message (generator's prompt and the JSON instruction) and the call's arguments."""
        system, user = build_prompt(request)
        return f"{user}\n\n{GEMINI_JSON}", {"model": request.model or self.model,
                                             "config": self.config(system, self.max_tokens, True)}

    def _write(self, request: WriteRequest) -> Draft:
        """One generateContent call, its JSON checked."""
        user, args = self.prompt(request)
        response = self.client.models.generate_content(contents=user, **args)
        return self.draft(response.text, request, response.model_version or args["model"])

    def _stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """Each sentence as soon as its JSON object is complete in the stream, then the Draft."""
        user, args = self.prompt(request)
        scanner, raw, model, streamed = SentenceScanner(), [], args["model"], False
        for chunk in self.client.models.generate_content_stream(contents=user, **args):
            model = chunk.model_version or model
            raw.append(chunk.text or "")
            for sentence in scanner.feed(raw[-1]):
                claim = sentence_statement(sentence)
                if claim:
                    yield (" " if streamed else "") + with_markers(claim.text, claim.cited)
                    streamed = True
        draft = self.draft("".join(raw), request, model)
        if not streamed:
            yield draft.text
        yield draft

    def _complete(self, system: str, user: str, model: str, max_tokens: int) -> str:
        """One short generateContent call, plain text."""
        response = self.client.models.generate_content(model=model, contents=user,
                                                       config=self.config(system, max_tokens, False))
        return (response.text or "").strip()

    def draft(self, raw: str | None, request: WriteRequest, model: str | None) -> Draft:
        """The Draft of a JSON reply, or a ProviderError when it is not the requested JSON."""
        try:
            reply = json.loads(raw or "")
        except ValueError:
            reply = None
        if not (isinstance(reply, dict) and isinstance(reply.get("answerable"), bool)
                and isinstance(reply.get("sentences"), list)
                and all(valid_sentence(s) for s in reply["sentences"])):
            log.warning("Gemini replied %d characters that are not the requested JSON", len(raw or ""))
            raise self.bad_reply("the requested JSON")
        statements = [s for s in map(sentence_statement, reply["sentences"]) if s]
        if not reply["answerable"] or not statements:
            return Draft(decline_text(request.language), None, model)
        return Draft(" ".join(with_markers(s.text, s.cited) for s in statements), statements, model)


def valid_sentence(sentence) -> bool:
    """Whether one entry of "sentences" has the schema's shape (its passage numbers are judged later)."""
    return (isinstance(sentence, dict) and isinstance(sentence.get("text"), str)
            and isinstance(sentence.get("citations"), list)
            and all(isinstance(c, dict) and type(c.get("passage")) is int and isinstance(c.get("quote", ""), str)
                    for c in sentence["citations"]))


def sentence_statement(sentence: dict) -> Statement | None:
    """One entry of "sentences" as a Statement; None when it is not valid or says nothing."""
    if not valid_sentence(sentence):
        return None
    citations = sentence["citations"]
    return statement(sentence["text"], [c["passage"] for c in citations], [c.get("quote", "") for c in citations])


class SentenceScanner:
    """Finds the objects of the "sentences" array of a JSON reply as each one completes in a growing text."""

    START_RE = re.compile(r'"sentences"\s*:\s*\[')

    def __init__(self):
        self.text = ""
        self.pos: int | None = None  # where the next sentence object may start
        self.decoder = json.JSONDecoder()

    def feed(self, more: str) -> list[dict]:
        """Add text; return the sentence objects it completed."""
        self.text += more
        if self.pos is None:
            match = self.START_RE.search(self.text)
            if not match:
                return []
            self.pos = match.end()
        found = []
        while True:
            start = self.pos
            while start < len(self.text) and self.text[start] in " \t\r\n,":
                start += 1
            if start >= len(self.text) or self.text[start] != "{":
                return found  # more to come, or the array ended
            try:
                obj, self.pos = self.decoder.raw_decode(self.text, start)
            except ValueError:
                return found  # the object is not complete yet
            found.append(obj)


class OpenAIWriter(Writer):
    """Any server with an OpenAI-compatible /chat/completions (Ollama, llama.cpp server, vLLM)."""

    name, label = "openai", "OpenAI-compatible server"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0, retries: int = 2,
                 *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5, failures_to_open: int = 5,
                 cooldown: float = 30.0):
        import httpx2

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown)
        self.httpx = httpx2
        self.url = base_url.rstrip("/") + "/chat/completions"  # base_url ends in /v1, e.g. http://localhost:11434/v1
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.client = httpx2.Client(timeout=timeout, headers=headers)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether a transport or HTTP status error is worth a retry."""
        if isinstance(exc, self.httpx.HTTPStatusError):
            return status_failure(exc.response.status_code, exc.response.headers)
        if isinstance(exc, self.httpx.TimeoutException):
            return Failure("timed out", True)
        if isinstance(exc, self.httpx.TransportError):
            return Failure("could not connect", True)
        return None

    def body(self, system: str, user: str, model: str, max_tokens: int, stream: bool = False) -> dict:
        """A chat completion request."""
        return {"model": model, "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
                "max_tokens": max_tokens, "temperature": TEMPERATURE, **({"stream": True} if stream else {})}

    def _complete(self, system: str, user: str, model: str, max_tokens: int) -> str:
        """One chat completion."""
        return self.chat(self.body(system, user, model, max_tokens))[0].strip()

    def chat(self, body: dict) -> tuple[str, str]:
        """POST a chat completion; (its text, the model that wrote it)."""
        response = self.client.post(self.url, json=body)
        response.raise_for_status()
        try:
            reply = response.json()
            text = reply["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            text = None
        if not isinstance(text, str):
            raise self.bad_reply("a chat completion")
        return text, reply.get("model") or body["model"]

    def _write(self, request: WriteRequest) -> Draft:
        """One chat completion of generator.py's prompt; the [n] markers are parsed later."""
        system, user = build_prompt(request)
        text, model = self.chat(self.body(system, user, request.model or self.model, self.max_tokens))
        return Draft(text.strip(), None, model)

    def _stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """The server-sent content deltas, then the Draft."""
        system, user = build_prompt(request)
        body = self.body(system, user, request.model or self.model, self.max_tokens, stream=True)
        parts, model, events = [], body["model"], 0
        with self.client.stream("POST", self.url, json=body) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data, events = line[5:].strip(), events + 1
                if data == "[DONE]":
                    break
                try:
                    event = json.loads(data)
                    delta = (event["choices"][0].get("delta") or {}).get("content") if event["choices"] else None
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    raise self.bad_reply("a chat completion stream") from None
                model = event.get("model") or model
                if delta:
                    parts.append(delta)
                    yield delta
        if not events:
            raise self.bad_reply("a chat completion stream")
        yield Draft("".join(parts).strip(), None, model)
