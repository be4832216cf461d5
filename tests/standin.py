"""A local HTTP server that stands in for a model provider: it replays scripted responses and records requests."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StandIn:
    """Serves queued (status, json body, delay seconds) replies on 127.0.0.1; the last one repeats."""

    def __init__(self):
        self.replies: list[tuple[int, dict, float]] = []
        self.requests: list[dict] = []
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                standin.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "json": body})
                status, reply, delay = standin.replies[0] if len(standin.replies) == 1 else standin.replies.pop(0)
                time.sleep(delay)
                data = json.dumps(reply).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reply(self, status: int, body: dict, delay: float = 0.0) -> "StandIn":
        self.replies.append((status, body, delay))
        return self

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def claude_message(text: str) -> dict:
    """A Messages API response body."""
    return {
        "id": "msg_standin", "type": "message", "role": "assistant", "model": "claude-standin",
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 20},
    }


def gemini_response(text: str) -> dict:
    """A generateContent response body."""
    return {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
        "modelVersion": "gemini-standin",
    }


def error_body(status: int) -> dict:
    """An error body in the shape both providers use closely enough for their SDKs."""
    return {"type": "error", "error": {"type": "overloaded_error", "code": status, "message": "stand-in says no", "status": "UNAVAILABLE"}}
