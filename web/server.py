"""Serve Evidenz for real: `flask --app app serve` runs waitress over the loaded app (`make run` calls it).

waitress reads every request whole (headers and body) in its event loop before a thread of the app sees it,
so a client that sends its request slowly, or never finishes it, holds a socket and no thread: fifty such
clients cost the server nothing while the others are answered. A connection idle for CHANNEL_TIMEOUT seconds
is dropped. One process holds the models, the indexes and the ingest worker once; its threads answer
requests side by side. torch is set to TORCH_THREADS threads for the whole process (search/compute.py): by
default every core, with model calls taking turns, so one question gets the whole machine and concurrent ones
queue for the models instead of fighting over the cores; 1 runs calls side by side, a core each.
A server bound to a public address (or with AUTH=required) refuses to start until it has a user (web/auth.py).
Behind a TLS proxy, TRUSTED_PROXY names its address: its X-Forwarded-For then gives the client's address (what the
per-address limits count) and its X-Forwarded-Proto the scheme (so the session cookie is Secure); from any other
peer those headers are dropped. A large body is read only for a signed-in upload (web/bodies.py).
Does not: terminate TLS (put a proxy in front for a public address).
"""
import logging
from dataclasses import replace

import click
from flask import current_app
from flask.cli import with_appcontext

from search import compute
from web.auth import shared
from web.bodies import limit_bodies
from web.shutdown import install as install_shutdown

log = logging.getLogger(__name__)

THREADS = 8
CONNECTION_LIMIT = 200  # open sockets, slow ones included; waitress refuses more until some close
CHANNEL_TIMEOUT = 30  # seconds a connection may send nothing before it is dropped
BODY_SLACK = 1024 * 1024  # multipart framing around the largest upload


def bind(app, host: str):
    """Record the address the server binds (BIND_HOST) in its settings: the Host check and the sign-in rule read it."""
    settings = app.extensions["settings"]
    app.extensions["settings"] = replace(settings, server=replace(settings.server, bind_host=host))
    return app.extensions["settings"]


def create_server(app, host: str = "127.0.0.1", port: int = 5000, threads: int = THREADS,
                  connection_limit: int = CONNECTION_LIMIT, channel_timeout: int = CHANNEL_TIMEOUT):
    """A waitress server for app, bound but not yet serving (call .run(); .close() stops it)."""
    import waitress

    settings = bind(app, host)
    proxy = settings.server.trusted_proxy.strip()
    trusting = {"trusted_proxy": proxy, "trusted_proxy_count": 1,
                "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}} if proxy else {}
    server = waitress.create_server(
        app, host=host, port=port, threads=threads, connection_limit=connection_limit,
        channel_timeout=channel_timeout, cleanup_interval=max(1, min(30, channel_timeout // 2)),
        max_request_body_size=settings.library.max_upload_bytes + BODY_SLACK, ident="Evidenz",
        clear_untrusted_proxy_headers=True, **trusting,
        asyncore_use_poll=True)  # poll, not select: select cannot watch a descriptor numbered 1024 or more
    limit_bodies(server, app)
    return server


def refuse_without_users(app, host: str) -> None:
    """A server that would need sign-in (public address, or AUTH=required) but has no user to sign in does not start."""
    bind(app, host)
    history = app.extensions.get("history")
    if shared(app) and (history is None or history.accounts.count() == 0):
        raise click.ClickException(
            f"Evidenz will not serve {host} without users: anyone who can reach it could read and change "
            "everything. Create the first admin, then start again:\n"
            "  flask --app app users create NAME --role admin\n"
            "(or bind to 127.0.0.1 for a personal server).")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; other names need ALLOWED_HOSTS.")
@click.option("--port", default=5000, show_default=True)
@click.option("--threads", default=THREADS, show_default=True, help="Requests answered at once.")
@click.option("--connection-limit", default=CONNECTION_LIMIT, show_default=True)
@click.option("--channel-timeout", default=CHANNEL_TIMEOUT, show_default=True,
              help="Seconds a connection may stay silent before it is dropped.")
@with_appcontext
def serve(host, port, threads, connection_limit, channel_timeout):
    """Load the models and the library, then serve the API and the page."""
    app = current_app._get_current_object()
    refuse_without_users(app, host)
    models = app.extensions["settings"].models
    torch_threads = compute.configure(models.torch_threads, models.runtime)
    loader = app.extensions["rag"]
    if loader.services is None:
        loader.load()
    if loader.error:
        raise click.ClickException(f"Evidenz cannot start: {loader.error}")
    loader.start_ingestor()
    server = create_server(app, host, port, threads, connection_limit, channel_timeout)
    install_shutdown(server)
    click.echo(f"Evidenz serves http://{host}:{port} ({threads} threads, torch on {torch_threads}"
               f"{', model calls taking turns' if torch_threads > 1 else ''})")
    server.run()
    server.task_dispatcher.shutdown()
    if not loader.stop_ingestor():  # the worker between two steps: a thread left in the models aborts the exit
        click.echo("Evidenz stopped with its ingest worker still busy; a job it ran is queued again at the next start.")
    click.echo("Evidenz stopped: the requests in flight were answered.")
