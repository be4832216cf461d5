"""Graceful shutdown of `flask --app app serve`: on SIGTERM (or SIGINT) the server stops accepting connections,
lets the requests and streams in flight finish, closes idle keep-alive connections, and then stops; a request
still running after GRACE_SECONDS is cut off. A streamed answer that has begun is answered to its end.
The ingest worker is stopped between two steps (a job, a page of warming) and waited for before the process exits
(web/server.py), so the exit code is 0: a thread left inside the models aborted it ("terminate called without an
active exception", 134), which process managers read as a crash.
Does not: stop the ingest worker's job midway (a job cut off by the exit is queued again at the next start).
"""
import logging
import signal
import threading
import time

from waitress import wasyncore

log = logging.getLogger(__name__)

GRACE_SECONDS = 30.0
POLL_SECONDS = 0.1


def drain(server, grace: float) -> None:
    """Wait until no connection has a request running or an answer unsent, at most grace seconds; then close every
    connection (idle keep-alive ones included) and the loop's trigger, which ends the loop."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        busy = [channel for channel in list(server.active_channels.values())
                 if channel.requests or channel.total_outbufs_len]  # a request running, or its answer unsent
        if not busy:
            break
        time.sleep(POLL_SECONDS)
    else:
        log.warning("shutdown: requests still running after %.0f s are cut off", grace)
    server.trigger.pull_trigger(lambda: [channel.close() for channel in list(server._map.values())])


def install(server, grace: float = GRACE_SECONDS) -> None:
    """Handle SIGTERM and SIGINT: stop listening at once, then drain in a thread (the loop keeps serving)."""
    started = threading.Event()

    def stop(signum, _frame):
        if started.is_set():
            return
        started.set()
        log.info("shutdown: %s received; finishing the requests in flight", signal.Signals(signum).name)
        server.accepting = False
        wasyncore.dispatcher.close(server)  # the listening socket: new connections are refused from now on
        threading.Thread(target=drain, args=(server, grace), name="shutdown-drain", daemon=True).start()

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)
