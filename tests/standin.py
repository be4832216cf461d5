"""A local HTTP server that stands in for a model provider: it replays scripted replies and records requests.

A reply is a JSON body, a raw (possibly malformed) body, or a stream of server-sent events sent with a pause
between events; the stand-in notices when the client hangs up on a stream. Helpers build the bodies of the
Anthropic Messages API, Gemini's generateContent and OpenAI's chat completions, plain and streamed.
"""
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@dataclass
class Stream:
    """Server-sent events (name or None, data as dict or str), sent `interval` seconds apart."""

    events: list
    interval: float = 0.0


class StandIn:
    """Serves queued (status, body, delay, headers) replies on 127.0.0.1; the last one repeats."""

    def __init__(self):
        self.replies: list[tuple[int, object, float, dict]] = []
        self.requests: list[dict] = []
        self.events_sent = 0  # events of streamed replies that reached the socket
        self.disconnected = threading.Event()  # a client hung up before a reply was complete
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                standin.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "json": body})
                status, reply, delay, headers = standin.replies[0] if len(standin.replies) == 1 else standin.replies.pop(0)
                if callable(reply):  # a reply that depends on the request, e.g. on "stream": true
                    reply = reply(body)
                time.sleep(delay)
                try:
                    if isinstance(reply, Stream):
                        self.send_events(status, reply, headers)
                    else:
                        self.send_body(status, reply, headers)
                except (BrokenPipeError, ConnectionResetError):
                    standin.disconnected.set()  # the client gave up (a timeout or a closed stream)

            def send_body(self, status, reply, headers):
                data = reply if isinstance(reply, bytes) else reply.encode() if isinstance(reply, str) else (
                    json.dumps(reply).encode())
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def send_events(self, status, stream, headers):
                self.send_response(status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()  # HTTP/1.0: the body ends when the connection closes
                for name, data in stream.events:
                    text = data if isinstance(data, str) else json.dumps(data)
                    self.wfile.write(((f"event: {name}\n" if name else "") + f"data: {text}\n\n").encode())
                    self.wfile.flush()
                    standin.events_sent += 1
                    time.sleep(stream.interval)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def reply(self, status: int, body, delay: float = 0.0, headers: dict | None = None) -> "StandIn":
        """Queue a reply: a JSON-able body, a raw str/bytes body, a Stream, or a function of the request's JSON."""
        self.replies.append((status, body, delay, headers or {}))
        return self

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def claude_message(text: str = "", blocks: list[dict] | None = None) -> dict:
    """A Messages API response body: one text block, or the given content blocks."""
    return {
        "id": "msg_standin", "type": "message", "role": "assistant", "model": "claude-standin",
        "content": blocks if blocks is not None else [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 100, "output_tokens": 20},
    }


def cited(text: str, *citations: dict) -> dict:
    """A text block of a Claude reply with its citations."""
    return {"type": "text", "text": text, "citations": list(citations)}


def search_result_citation(index: int, cited_text: str, source: str = "", title: str = "") -> dict:
    """Claude's citation of the search_result block at index (0-based)."""
    return {"type": "search_result_location", "search_result_index": index, "cited_text": cited_text,
            "source": source, "title": title, "start_block_index": 0, "end_block_index": 1}


def claude_stream(blocks: list[dict], interval: float = 0.0) -> Stream:
    """The Messages API's event stream for the given content blocks, text in two deltas per block."""
    message = {**claude_message(blocks=[]), "stop_reason": None, "usage": {"input_tokens": 100, "output_tokens": 1}}
    events = [("message_start", {"type": "message_start", "message": message})]
    for index, block in enumerate(blocks):
        events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                               "content_block": {"type": "text", "text": "", "citations": None}}))
        for citation in block.get("citations") or []:
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "citations_delta", "citation": citation}}))
        half = len(block["text"]) // 2
        for part in (block["text"][:half], block["text"][half:]):
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "text_delta", "text": part}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                     "usage": {"output_tokens": 20}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return Stream(events, interval)


def gemini_response(text: str) -> dict:
    """A generateContent response body."""
    return {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
        "modelVersion": "gemini-standin",
    }


def gemini_stream(pieces: list[str], interval: float = 0.0) -> Stream:
    """streamGenerateContent?alt=sse: one response chunk per piece of text."""
    return Stream([(None, gemini_response(piece)) for piece in pieces], interval)


def openai_completion(text: str) -> dict:
    """A chat completion response body."""
    return {"id": "chatcmpl-standin", "object": "chat.completion", "model": "local-standin",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}


def openai_stream(deltas: list[str], interval: float = 0.0) -> Stream:
    """A streamed chat completion: one chunk per delta, then [DONE]."""
    chunks = [{"id": "chatcmpl-standin", "object": "chat.completion.chunk", "model": "local-standin",
               "choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": None}]} for delta in deltas]
    return Stream([(None, chunk) for chunk in chunks] + [(None, "[DONE]")], interval)


def providers_config(standins: dict) -> dict:
    """The app's config of all three hosted writers, each pointed at its stand-in, with a short timeout."""
    return {"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": standins["claude"].url,
            "GEMINI_API_KEY": "test-key", "GEMINI_BASE_URL": standins["gemini"].url,
            "OPENAI_BASE_URL": standins["openai"].url + "/v1", "OPENAI_MODEL": "local-standin", "LLM_TIMEOUT": 3.0}


def error_body(status: int) -> dict:
    """An error body in the shape all three providers use closely enough for their clients."""
    return {"type": "error", "error": {"type": "overloaded_error", "code": status, "message": "stand-in says no",
                                       "status": "UNAVAILABLE"}}


# The three writers against a stand-in, and a reply each can turn into the same draft.

PROVIDERS = ("claude", "gemini", "openai")
ANSWER = "Fleming discovered penicillin [1]."  # the draft text of answer_body() for every provider
GEMINI_ANSWER = {"answerable": True, "sentences": [
    {"text": "Fleming discovered penicillin.",
     "citations": [{"passage": 1, "quote": "He discovered penicillin in 1928."}]}]}


def make_hits():
    """Three passages about different things, the second with a canonical reference."""
    from models import Chunk, Hit

    chunks = [
        Chunk("fleming#0", "fleming", "Alexander Fleming",
              "Alexander Fleming was a Scottish physician. He discovered penicillin in 1928.", 0, 76),
        Chunk("everest#0", "everest", "Mount Everest", "Mount Everest is Earth's highest mountain above sea level.",
              0, 58, ref="Geography 1:2"),
        Chunk("rome#0", "rome", "Ancient Rome", "Rome was founded, by tradition, in 753 BC.", 0, 42),
    ]
    return [Hit(chunk, 1.0, 0.5, 0.8) for chunk in chunks]


def make_writer(provider: str, url: str, **options):
    """A hosted writer pointed at url, with a short timeout and backoff unless told otherwise."""
    from writers.claude import ClaudeWriter
    from writers.gemini import GeminiWriter
    from writers.openai_compatible import OpenAIWriter

    options = {"timeout": 2.0, "backoff": 0.01, **options}
    if provider == "claude":
        return ClaudeWriter("test-key", "claude-standin", url, **options)
    if provider == "gemini":
        return GeminiWriter("test-key", "gemini-standin", url, **options)
    return OpenAIWriter(url + "/v1", "local-standin", "test-key", **options)


def answer_body(provider: str) -> dict:
    """A successful reply whose draft text is ANSWER."""
    if provider == "claude":
        return claude_message(ANSWER)
    if provider == "gemini":
        return gemini_response(json.dumps(GEMINI_ANSWER))
    return openai_completion(ANSWER)


def answer_stream(provider: str, words: int = 3, interval: float = 0.0) -> Stream:
    """A streamed reply of `words` sentences "Word 0." ... (Gemini: as JSON sentences citing passage 1)."""
    sentences = [f"Word {i}." for i in range(words)]
    if provider == "claude":
        return claude_stream([{"type": "text", "text": s + " "} for s in sentences], interval)
    if provider == "gemini":
        raw = json.dumps({"answerable": True, "sentences": [{"text": s, "citations": [{"passage": 1, "quote": "x"}]}
                                                            for s in sentences]})
        return gemini_stream([raw[i:i + 16] for i in range(0, len(raw), 16)], interval)
    return openai_stream([s + " " for s in sentences], interval)


@pytest.fixture(scope="module")
def standins():
    """A stand-in for each hosted provider (claude, gemini, openai), shared by a test module that imports this."""
    servers = {name: StandIn() for name in PROVIDERS}
    yield servers
    for server in servers.values():
        server.close()
