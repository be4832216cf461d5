"""`flask --app app load`: N clients ask a running server questions at once; prints requests per second, p50, p95,
the server's resident memory through the run, and the machine's load before and after.

Each client asks, waits for the answer, and asks again, until the clients together have sent --requests
questions, or for --seconds (a bounded loop that stops by itself). The questions are eight built-in ones, asked in
turn, or those of --questions (a BEIR queries.jsonl or a text file, one a line), each asked once before any is
asked again: a server that keeps what it computed is measured on questions it has not seen. Only a server on this
machine (127.0.0.1, localhost, ::1) is loaded: the command refuses any other address.
Does not: start the server (`make run` does) or judge the answers.
"""
import json
import os
import statistics
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
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
MEMORY_EVERY = 15.0  # seconds between readings of the server's memory


def read_questions(path: Path) -> list[str]:
    """The questions of a BEIR queries.jsonl ("text" of each line) or of a text file (each line)."""
    lines = [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    if path.suffix == ".jsonl":
        return [json.loads(line)["text"] for line in lines]
    return lines


def server_process(url: str) -> dict | None:
    """The server's process figures from its health (pid, rss_mb, threads); None when it gives none."""
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/api/health", timeout=10) as response:
            return json.loads(response.read()).get("process")
    except (OSError, ValueError):
        return None


def run(url: str, clients: int, requests: int | None = None, timeout: float = 120.0, seconds: float | None = None,
        questions: list[str] | None = None) -> dict:
    """Send questions from clients threads, requests of them or for seconds; the figures of the run."""
    if urlsplit(url).hostname not in LOOPBACK:
        raise ValueError(f"load only sends traffic to this machine ({', '.join(LOOPBACK)}), not to {url}")
    if (requests is None) == (seconds is None):
        raise ValueError("give either a number of requests or a number of seconds")
    questions = list(questions or QUESTIONS)
    endpoint = url.rstrip("/") + "/api/query"
    lock, latencies, errors, memory = threading.Lock(), [], [], []
    counter = iter(range(requests if requests is not None else 10**9))
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else float("inf")
    finished = threading.Event()

    def client() -> None:
        while time.perf_counter() < deadline:
            with lock:
                n = next(counter, None)
            if n is None:
                return
            body = json.dumps({"question": questions[n % len(questions)]}).encode()
            request = urllib.request.Request(endpoint, body, {"Content-Type": "application/json"})
            asked = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    response.read()
                ok = True
            except (urllib.error.URLError, OSError) as exc:
                ok, reason = False, str(getattr(exc, "code", None) or exc)[:80]
            elapsed = (time.perf_counter() - asked) * 1000
            with lock:
                (latencies.append(elapsed) if ok else errors.append(reason))

    def watch() -> None:
        while True:
            found = server_process(url)
            if found:
                memory.append((round(time.perf_counter() - started), found["rss_mb"]))
            if finished.wait(MEMORY_EVERY):
                return

    load_before = os.getloadavg()
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    finished.set()
    watcher.join()
    after = server_process(url)
    if after:
        memory.append((round(time.perf_counter() - started), after["rss_mb"]))
    ordered = sorted(latencies)
    return {
        "clients": clients, "requests": len(latencies) + len(errors), "answered": len(latencies),
        "errors": len(errors), "error_examples": sorted(set(errors))[:3], "seconds": round(elapsed, 2),
        "distinct_questions": min(len(questions), len(latencies) + len(errors)),
        "requests_per_second": round(len(latencies) / elapsed, 2) if elapsed else 0.0,
        "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
        "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1) if ordered else None,
        "server_rss_mb": {"first": memory[0][1], "last": memory[-1][1], "max": max(m for _, m in memory),
                          "readings": memory} if memory else None,
        "machine_load": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in os.getloadavg()]},
    }


@click.command("load")
@click.option("--url", default="http://127.0.0.1:5000", show_default=True, help="A running server on this machine.")
@click.option("--clients", default=8, show_default=True, help="Clients asking at once.")
@click.option("--requests", "total", type=int, default=None, help="Questions in all, then it stops (default 64).")
@click.option("--seconds", type=float, default=None, help="Ask for this long instead, then stop (a steady load).")
@click.option("--questions", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Ask these (a BEIR queries.jsonl, or one a line) instead of the eight built-in ones.")
def load_command(url, clients, total, seconds, source):
    """Load a running server with concurrent questions and print requests/s, p50, p95 and its memory."""
    if total is not None and seconds is not None:
        raise click.UsageError("give --requests or --seconds, not both")
    if total is None and seconds is None:
        total = 64
    if seconds is not None and not 0 < seconds <= 3600:
        raise click.BadParameter("a steady load runs from 1 second to an hour", param_hint="--seconds")
    questions = read_questions(source) if source else None
    if source and not questions:
        raise click.BadParameter(f"{source} holds no questions", param_hint="--questions")
    try:
        figures = run(url, clients, total, seconds=seconds, questions=questions)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--url") from None
    click.echo(json.dumps(figures, indent=2))
