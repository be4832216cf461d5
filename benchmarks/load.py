"""`flask --app app load`: N clients ask running servers questions at once; prints requests per second, p50, p95,
each server's resident memory through the run, its CPU per answered question (read from /proc: the servers are on
this machine), and the machine's load before and after. Given several servers
(`--url` again and again: app servers sharing one database), the clients are spread over them, and each server's
figures come beside the whole run's; a failed question is counted with its status and the server's message.

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
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far, its threads' included (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


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


def reason_of(exc: Exception) -> str:
    """Why a question failed, short: the HTTP status and the server's message, or the connection's error."""
    if isinstance(exc, urllib.error.HTTPError):
        try:
            return f"{exc.code}: {json.loads(exc.read()).get('error', '')}"[:120]
        except (OSError, ValueError, AttributeError):
            return str(exc.code)
    return str(exc)[:80]


def run(url: str | list[str], clients: int, requests: int | None = None, timeout: float = 120.0,
        seconds: float | None = None, questions: list[str] | None = None) -> dict:
    """Send questions from clients threads, requests of them or for seconds; the figures of the run. Given several
    servers (url a list), client i asks server i mod their number, and each server's figures come too."""
    urls = [url] if isinstance(url, str) else list(url)
    for each in urls:
        if urlsplit(each).hostname not in LOOPBACK:
            raise ValueError(f"load only sends traffic to this machine ({', '.join(LOOPBACK)}), not to {each}")
    if (requests is None) == (seconds is None):
        raise ValueError("give either a number of requests or a number of seconds")
    questions = list(questions or QUESTIONS)
    lock, latencies, errors, memory = threading.Lock(), [], [], {each: [] for each in urls}
    by_server = {each: ([], []) for each in urls}  # latencies and errors of each server
    counter = iter(range(requests if requests is not None else 10**9))
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else float("inf")
    finished = threading.Event()

    def client(server: str) -> None:
        endpoint = server.rstrip("/") + "/api/query"
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
                ok, reason = False, reason_of(exc)
            elapsed = (time.perf_counter() - asked) * 1000
            with lock:
                (latencies.append(elapsed) if ok else errors.append(reason))
                (by_server[server][0].append(elapsed) if ok else by_server[server][1].append(reason))

    def read_memory() -> None:
        for each in urls:
            found = server_process(each)
            if found:
                memory[each].append((round(time.perf_counter() - started), found["rss_mb"]))

    def watch() -> None:
        while True:
            read_memory()
            if finished.wait(MEMORY_EVERY):
                return

    pids = [(server_process(each) or {}).get("pid") for each in urls]
    cpu_before = [cpu_seconds(pid) if pid else None for pid in pids]
    load_before = os.getloadavg()
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    threads = [threading.Thread(target=client, args=(urls[i % len(urls)],), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    finished.set()
    watcher.join()
    read_memory()
    cpu = [cpu_seconds(pid) - before if pid else None for pid, before in zip(pids, cpu_before)]
    figures = {"clients": clients, "requests": len(latencies) + len(errors), **summary(latencies, errors, elapsed),
               "distinct_questions": min(len(questions), len(latencies) + len(errors)),
               "server_rss_mb": rss(memory[urls[0]]),
               "server_cpu_ms_per_question": per_question(cpu, len(latencies)),
               "machine_load": {"before": [round(x, 2) for x in load_before],
                                "after": [round(x, 2) for x in os.getloadavg()]}}
    if len(urls) > 1:
        figures["servers"] = [{"url": each, **summary(*by_server[each], elapsed), "server_rss_mb": rss(memory[each]),
                               "server_cpu_ms_per_question": per_question([used], len(by_server[each][0]))}
                              for each, used in zip(urls, cpu)]
    return figures


def summary(latencies: list[float], errors: list[str], elapsed: float) -> dict:
    """Answered, errors (with up to three distinct reasons), requests a second, p50 and p95 of a run's requests."""
    ordered = sorted(latencies)
    return {"answered": len(latencies), "errors": len(errors), "error_examples": sorted(set(errors))[:3],
            "seconds": round(elapsed, 2), "requests_per_second": round(len(latencies) / elapsed, 2) if elapsed else 0.0,
            "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1) if ordered else None}


def per_question(cpu: list[float | None], answered: int) -> float | None:
    """The servers' CPU milliseconds (every thread's: the answers' and any background work's) per answered question;
    None when a server gave no process id to read."""
    if not answered or any(used is None for used in cpu):
        return None
    return round(1000 * sum(cpu) / answered, 1)


def rss(readings: list[tuple[int, float]]) -> dict | None:
    """A server's resident memory through a run: first, last, highest, and every reading (seconds, MB)."""
    if not readings:
        return None
    return {"first": readings[0][1], "last": readings[-1][1], "max": max(m for _, m in readings), "readings": readings}


@click.command("load")
@click.option("--url", "urls", multiple=True, default=("http://127.0.0.1:5000",), show_default=True,
              help="A running server on this machine; repeat it for several servers (the clients are spread over them).")
@click.option("--clients", default=8, show_default=True, help="Clients asking at once.")
@click.option("--requests", "total", type=int, default=None, help="Questions in all, then it stops (default 64).")
@click.option("--seconds", type=float, default=None, help="Ask for this long instead, then stop (a steady load).")
@click.option("--questions", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Ask these (a BEIR queries.jsonl, or one a line) instead of the eight built-in ones.")
def load_command(urls, clients, total, seconds, source):
    """Load a running server with concurrent questions and print requests/s, p50, p95, its memory and its CPU per
    question."""
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
        figures = run(list(urls), clients, total, seconds=seconds, questions=questions)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--url") from None
    click.echo(json.dumps(figures, indent=2))
