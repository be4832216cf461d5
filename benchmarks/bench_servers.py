"""`flask --app app bench-servers`: one app server, then two, on one PostgreSQL holding the default library, each
run loaded by the same clients for the same time; what each question costs the app servers and the database.

The default library is moved into a scratch schema (`db import-library`, its kept sentence vectors with it), then
each run starts its servers (`flask --app app serve`), waits until they are healthy, and loads them with
benchmarks/load.py for --seconds, the clients split between them. CPU seconds are read from /proc: the servers'
processes, and every `postgres` process of the machine (the database's share). From these, the database's cost
of a question gives the rate at which one core of database saturates, what bounds adding app servers.
Two servers on this one machine share its cores, so they show the database keeps up, not the gain of a second
machine: that gain is each machine's own rate, until the database's ceiling.
Does not: start PostgreSQL when DATABASE_URL is set, or keep the schema (dropped at the end).
"""
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

from benchmarks.bench_postgres import server_url, wait_ready
from benchmarks.load import cpu_seconds, run
from postgres.database import Database

PORTS = (5311, 5312)


def database_seconds() -> float:
    """CPU seconds of every postgres process of this machine so far."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += cpu_seconds(int(entry.name))
            except OSError:
                continue
    return total


def loaded(urls: list[str], clients: int, seconds: float, questions: list[str]) -> list[dict]:
    """Each server's load figures, its share of the clients asking for seconds at once."""
    shares = [clients // len(urls) + (i < clients % len(urls)) for i in range(len(urls))]
    out: list[dict] = [{}] * len(urls)

    def one(i: int) -> None:
        out[i] = run(urls[i], shares[i], seconds=seconds, questions=questions[i::len(urls)])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(urls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def servers_run(env: dict, count: int, clients: int, seconds: float, questions: list[str], log) -> dict:
    """count servers on the schema of env, loaded; the figures and CPU costs of the run."""
    flask = [sys.executable, "-m", "flask", "--app", "app", "serve", "--threads", "8"]
    # several servers on one machine: each gets a core's share of torch (search/compute.py)
    env = {**env, "FLASK_TORCH_THREADS": "0" if count == 1 else "1"}
    servers = [subprocess.Popen([*flask, "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) for port in PORTS[:count]]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in PORTS[:count]]
        for url in urls:
            wait_ready(url)
        log(f"  {count} server(s), {clients} clients, {seconds:.0f} s ...")
        app_before, db_before = sum(cpu_seconds(s.pid) for s in servers), database_seconds()
        halves = loaded(urls, clients, seconds, questions)
        app_cpu = sum(cpu_seconds(s.pid) for s in servers) - app_before
        db_cpu = database_seconds() - db_before
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=60)
    answered = sum(h["answered"] for h in halves)
    return {
        "servers": count, "clients": clients, "seconds": seconds, "answered": answered,
        "errors": sum(h["errors"] for h in halves),
        "requests_per_second": round(sum(h["requests_per_second"] for h in halves), 2),
        "p50_ms": max(h["p50_ms"] or 0 for h in halves), "p95_ms": max(h["p95_ms"] or 0 for h in halves),
        "app_cpu_ms_per_question": round(1000 * app_cpu / max(1, answered), 1),
        "database_cpu_ms_per_question": round(1000 * db_cpu / max(1, answered), 1),
        "questions_per_database_core_second": round(answered / db_cpu, 1) if db_cpu else None,
        "per_server": [{k: h[k] for k in ("answered", "p50_ms", "p95_ms", "requests_per_second")} for h in halves],
    }


def report(library_dir: Path, clients: int, seconds: float, questions: list[str], log=print) -> dict:
    """One server, then two, on one database with the library of library_dir moved in."""
    url, database = server_url()
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "DATABASE_URL": url, "FLASK_DATABASE_SCHEMA": schema, "HF_HUB_OFFLINE": "1"}
    try:
        log(f"moving {library_dir} into schema {schema} ...")
        subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "import-library", str(library_dir)],
                       env=env, check=True, capture_output=True)
        return {"runs": [servers_run(env, n, clients, seconds, questions, log) for n in (1, 2)],
                "cores": len(os.sched_getaffinity(0)), "load_before": [round(x, 2) for x in os.getloadavg()]}
    finally:
        db = Database(url, schema=schema)
        db.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        db.close()
        if database is not None:
            database.cleanup()
