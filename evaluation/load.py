"""`flask --app app load`: N clients ask a running server questions at once; prints requests per second, p50, p95.

Each client asks, waits for the answer, and asks again, until the clients together have sent --requests
questions (a bounded loop that stops by itself). Only a server on this machine (127.0.0.1, localhost, ::1)
is loaded: the command refuses any other address.
Does not: start the server (`make run` does) or judge the answers.
"""
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import click

LOOPBACK = ("127.0.0.1", "localhost", "::1")
QUESTIONS = (
    "Who wrote War and Peace?",
    "What is the tallest mountain on Earth?",
    "When did the Second World War end?",
    "How do vaccines work?",
    "Who discovered penicillin?",
    "What is the capital of Australia?",
    "Why is the sky blue?",
    "Who painted the Mona Lisa?",
)


def run(url: str, clients: int, requests: int, timeout: float = 120.0) -> dict:
    """Send requests questions from clients threads; the figures of the run."""
    if urlsplit(url).hostname not in LOOPBACK:
        raise ValueError(f"load only sends traffic to this machine ({', '.join(LOOPBACK)}), not to {url}")
    endpoint = url.rstrip("/") + "/api/query"
    lock, latencies, errors = threading.Lock(), [], []
    counter = iter(range(requests))

    def client() -> None:
        while True:
            with lock:
                n = next(counter, None)
            if n is None:
                return
            body = json.dumps({"question": QUESTIONS[n % len(QUESTIONS)]}).encode()
            request = urllib.request.Request(endpoint, body, {"Content-Type": "application/json"})
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    response.read()
                ok = True
            except (urllib.error.URLError, OSError) as exc:
                ok, reason = False, str(getattr(exc, "code", None) or exc)[:80]
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                (latencies.append(elapsed) if ok else errors.append(reason))

    started = time.perf_counter()
    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "clients": clients, "requests": requests, "answered": len(latencies), "errors": len(errors),
        "error_examples": sorted(set(errors))[:3], "seconds": round(seconds, 2),
        "requests_per_second": round(len(latencies) / seconds, 2) if seconds else 0.0,
        "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1) if ordered else None,
    }


@click.command("load")
@click.option("--url", default="http://127.0.0.1:5000", show_default=True, help="A running server on this machine.")
@click.option("--clients", default=8, show_default=True, help="Clients asking at once.")
@click.option("--requests", "total", default=64, show_default=True, help="Questions in all, then it stops.")
def load_command(url, clients, total):
    """Load a running server with concurrent questions and print requests/s, p50 and p95."""
    try:
        figures = run(url, clients, total)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--url") from None
    click.echo(json.dumps(figures, indent=2))
