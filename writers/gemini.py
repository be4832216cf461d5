"""Gemini through google-genai, answering in a JSON schema: sentences, each with the passages it cites and quotes.

The reply is checked against the schema here (a malformed one is a ProviderError, so the answer degrades
to the offline writer); passage numbers and quotes are judged later by the verifier. Streaming yields
each sentence as soon as its JSON object is complete.
"""
import json
import logging
import re
from collections.abc import Iterator

from models import Draft, Statement, WriteRequest
from writers.hosted import MAX_TOKENS, TEMPERATURE, HostedWriter, statement, with_markers
from checks.declines import decline_text, found_text
from writers.prompt import build_prompt
from writers.research import Turn
from writers.resilience import Failure, status_failure
from writers.tools import TOOLS, ToolCall, ToolReply

log = logging.getLogger(__name__)

GEMINI_JSON = """Reply with JSON only.
If the evidence does not answer the question: "answerable": false, and in "sentences" at most two sentences on what
the evidence does say that is closest to the question (or none).
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


class GeminiWriter(HostedWriter):
    """Gemini through google-genai, answering in the JSON schema ANSWER_SCHEMA."""

    name, label = "gemini", "Gemini"

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0,
                 retries: int = 2, *, max_tokens: int = MAX_TOKENS, backoff: float = 0.5,
                 failures_to_open: int = 5, cooldown: float = 30.0, models: tuple[str, ...] = ()):
        import httpx2
        import pydantic
        from google import genai
        from google.genai import errors, types

        super().__init__(model, retries, max_tokens, backoff, failures_to_open, cooldown, models)
        self.httpx, self.errors, self.types, self.pydantic = httpx2, errors, types, pydantic
        options = types.HttpOptions(
            base_url=base_url or None,
            timeout=int(timeout * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),  # one attempt: retries happen in the Guard only
        )
        self.client = genai.Client(api_key=api_key, http_options=options)

    def failure(self, exc: Exception) -> Failure | None:
        """Whether an SDK or transport exception is worth a retry; a reply the SDK cannot read is not."""
        if isinstance(exc, self.pydantic.ValidationError):
            return Failure("a malformed reply", False)
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

    # searching for itself (writers/research.py): Gemini's function calling

    def tool_conversation(self, system: str, said: list[tuple[str, str]], question: str) -> list:
        part = self.types.Part
        return [*(self.types.Content(role="model" if role == "assistant" else "user", parts=[part(text=text)])
                  for role, text in said), self.types.Content(role="user", parts=[part(text=question)])]

    def tool_turn(self, contents: list, system: str, model: str, tools: bool) -> Turn:
        """One generateContent call with the functions declared (mode NONE when tools is False)."""
        types = self.types
        config = types.GenerateContentConfig(
            system_instruction=system, temperature=TEMPERATURE, max_output_tokens=self.max_tokens,
            tools=[types.Tool(function_declarations=[
                types.FunctionDeclaration(name=t["name"], description=t["description"],
                                          parameters_json_schema=t["parameters"]) for t in TOOLS])],
            tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(
                mode="AUTO" if tools else "NONE")),
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))

        def call():
            response = self.client.models.generate_content(model=model, contents=contents, config=config)
            content = response.candidates[0].content if response.candidates else None
            if content is None or not content.parts:
                raise self.bad_reply("a message or function call")
            calls = [ToolCall(p.function_call.id or "", p.function_call.name or "", p.function_call.args or {})
                     for p in content.parts if p.function_call]
            text = "".join(p.text for p in content.parts if p.text and not p.thought).strip()
            return Turn(text, calls, response.model_version or model, content)

        return self.guard.call(call)

    def tool_results(self, contents: list, turn: Turn, replies: list[ToolReply]) -> None:
        contents.append(turn.raw)
        contents.append(self.types.Content(role="user", parts=[
            self.types.Part(function_response=self.types.FunctionResponse(
                id=c.id or None, name=c.name,
                response={"error" if r.error else "output": json.loads(r.content)}))
            for c, r in zip(turn.calls, replies)]))

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
        if not statements:
            return Draft(decline_text(request.language), None, model)
        text = " ".join(with_markers(s.text, s.cited) for s in statements)
        if not reply["answerable"]:  # the sentences say what the evidence does say, after the decline
            return Draft(f"{decline_text(request.language)} {found_text(request.language)} {text}", None, model,
                         declined=True)
        return Draft(text, statements, model)


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
