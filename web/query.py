"""The chat page and asking: /, /api/health, /api/query and /api/query/stream (server-sent events).

A question's body is checked by validation.py; the conversation's last turns come from the history, the
pipeline answers, and the answer is logged and shaped here (shaping.py).
"""
import os
import threading
import time
from contextlib import closing
from pathlib import Path

from flask import Blueprint, Response, current_app, request, stream_with_context

from accounts.limits import check_query
from accounts.roles import ASK, USERS
from configuration.settings import current
from models import Ask
from question.halacha import WORK_TITLES
from search.section_filters import SECTION_FILTERS
from storage import provider_state
from web.auth import accounts, reader, require, shared
from web.errors import ApiError
from web.services import hidden_from, kept_history, loader, services
from web.shaping import logged, sse, stream_event
from web.validation import check_model, request_json, validate_query

bp = Blueprint("api", __name__)


@bp.get("/")
def index():
    """The chat page."""
    return current_app.send_static_file("index.html")


REPAIR = ("this library was built before builds kept its passages' sentence vectors: they are computed in the "
          "background, and questions are slower until they are (`flask --app app warm` does it at once)")


@bp.get("/api/health")
def health():
    """200 with what is live once loaded; 503 while loading or after a failed load."""
    loading = loader()
    if loading.services is not None:
        live = loading.services
        state = live.library.health() if live.library is not None else None  # PostgreSQL: reachable, its version
        if state is not None and state["status"] != "ok":
            return {"status": "error", "error": "the library's database cannot be reached", "database": state}, 503
        who = reader()
        if shared() and who is None:  # signed out: whether it is ready, and nothing of what runs it
            return {"status": "ok", "access": "shared", "signed_in": False}
        described = live.pipeline.describe()
        library = {**described["library"], **live.info.get("library", {}), **(live.store.stats() if live.store else {})}
        limited = shared() and not (who and who.may(USERS))  # its size would tell of documents hidden from the asker
        if limited:
            library = {"backend": library.get("backend")}
        if (pending := reembedding(live.library)) is not None:  # its pointed passages' vectors are being made again
            library["reembed"] = {"state": pending["state"]} if limited else pending
        warmer = live.ingestor.warmer if live.ingestor is not None else None
        if not limited and warmer is not None:
            library["sentences"] = {"state": warmer.state, "warmed": warmer.warmed,  # search/sentence_vectors.py
                                    **({"note": REPAIR} if warmer.state == "repairing" else {})}
        religious_law = live.store is not None and live.store.holds_works(WORK_TITLES, who)
        built_in = live.store is not None and live.store.holds_built_in(who)
        return {"status": "ok", "access": "shared" if shared() else "personal", **described, **live.info,
                "religious_law": religious_law,  # the page's words of religious law are shown only then
                "built_in_library": built_in,  # the footer credits the default library's texts only then
                "library": library, **({} if limited else {"process": process()}),
                "providers": shared_providers(described["providers"]),
                **({"database": state} if state is not None else {})}
    if loading.error:
        return {"status": "error", "error": loading.error}, 503
    return {"status": "loading"}, 503


def process() -> dict:
    """This server process: its id, resident memory and threads (what a load run watches)."""
    try:
        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
        rss_mb, threads = int(status["VmRSS"].split()[0]) / 1024, int(status["Threads"])
    except (OSError, KeyError, ValueError):  # not Linux: the peak so far
        import resource
        rss_mb, threads = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, threading.active_count()
    return {"pid": os.getpid(), "rss_mb": round(rss_mb, 1), "threads": threads}


def reembedding(library) -> dict | None:
    """What health says of a re-embed the library waits for or runs (search/reembed.py); None when there is none."""
    return library.reembed_status() if library is not None else None


def shared_providers(providers: dict) -> dict:
    """The providers' health with the circuit and last call every worker shares (the history file keeps them)."""
    history = kept_history()
    shared = provider_state.load(history) if history is not None else {}
    out = {}
    for name, state in providers.items():
        seen = shared.get(name, {})
        if not seen:  # never called by any worker since the file was made
            out[name] = state
            continue
        shared_keys = ("circuit", "last_call", "retry_at")
        out[name] = {**{k: v for k, v in state.items() if k not in shared_keys},
                     **{k: seen[k] for k in shared_keys if k in seen}}
        if seen.get("circuit") == "open" and seen.get("retry_at", float("inf")) <= time.time():
            out[name]["circuit"] = "half_open"  # its cooldown passed with no call since: the next one is a trial
    return out


def query_arguments(pipeline) -> Ask:
    """The question of a /api/query or /api/query/stream request as one record: its checked settings, the
    conversation's last turns (the reader's own only) and the reader; counted against the reader's limits."""
    who = require(ASK)
    body = request_json()
    if body is None:
        raise ApiError('The body is not JSON. Send Content-Type: application/json and {"question": "..."}.')
    args = validate_query(body, sorted(pipeline.generator.writers))
    args["provider"] = args["provider"] or pipeline.generator.default  # chosen once: an admin may change the default
    check_model(pipeline.generator, args["provider"], args["model"])
    if args["language"] is None and who.profile.get("answer_language"):
        args["language"] = who.profile["answer_language"]  # the reader's profile chooses when the request does not
    matched(args["filters"], who)  # before counting: a refused question costs nothing
    count_question(who, pipeline, args["provider"])
    history = kept_history()
    turns = history.turns(args["session_id"], reader=who) if history is not None and args["session_id"] else []
    return Ask(**args, turns=tuple(turns), reader=who)


def matched(filters: dict | None, who) -> None:
    """A 400 for filters that name documents (document_ids, language, work, tier, community) of which the reader
    may search none: a search in them could only decline. The same for a hidden book as for one that does not
    exist, so that neither is told apart."""
    by_document = {k: v for k, v in (filters or {}).items() if k not in SECTION_FILTERS}
    live = services()
    if not by_document or live.store is None:
        return
    if not live.library.matching_documents(by_document) - hidden_from(who):
        named = ", ".join(f"{k}={v!r}" for k, v in by_document.items())[:300]
        raise ApiError(f"No document you can search matches the filters ({named}). GET /api/catalog lists the works "
                       "and their names; /api/documents lists the documents.")


def count_question(who, pipeline, provider: str | None) -> None:
    """Count a signed-in user's question against their limits and their address's (a 429 past one), and a
    hosted writer's answer against the day's model calls. The personal server's owner has no limits."""
    if who.id is not None:
        hosted = (provider or pipeline.generator.default) != "offline"
        check_query(accounts(), current(), who.id, request.remote_addr or "", hosted)


@bp.post("/api/query")
def query():
    """Answer a question with cited evidence."""
    pipeline = services().pipeline
    ask = query_arguments(pipeline)
    body = logged(pipeline.answer(ask), ask.reader)
    current_app.logger.info("%s question answered by %s in %.0f ms", body["query_type"], body["generator"],
                            body["timings_ms"]["total"])
    return body


@bp.post("/api/query/stream")
def query_stream():
    """The answer as server-sent events: meta, sources, delta..., answer, done (or error).

    A client that disconnects closes this stream, which closes the writer's and so stops generation.
    """
    pipeline = services().pipeline
    ask = query_arguments(pipeline)
    logger = current_app.logger

    def events():
        started = time.perf_counter()
        with closing(pipeline.stream(ask)) as stream:
            try:
                for name, data in stream:
                    text, body = stream_event(name, data, ask.reader)
                    yield text
                    if body is not None:
                        logger.info("%s question streamed by %s in %.0f ms", body["query_type"], body["generator"],
                                    (time.perf_counter() - started) * 1000)
            except Exception:  # noqa: BLE001 - the 200 and its headers are sent: an error can only be an event now
                logger.exception("the answer stream failed")
                yield sse("error", {"error": "Something went wrong while writing the answer; it has been logged. Try again."})

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
