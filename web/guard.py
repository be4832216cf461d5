"""Who may reach the server and change it: the Host check (against DNS rebinding) and the cross-site check.

Every request must name an allowed host: localhost, 127.0.0.1, ::1, the address the server is bound to, and
the names of the ALLOWED_HOSTS setting (comma-separated; "*" allows any). A page on another site that the user
visits can make the browser send requests here; a request that changes anything (POST, PUT, PATCH, DELETE)
is therefore refused with 403 when the browser marks it as coming from elsewhere: Sec-Fetch-Site other than
same-origin or none (a typed URL), or, from a browser too old to send Sec-Fetch-Site, an Origin that is not this
server (compared only then, so a TLS proxy in front does not make the page's own Origin look foreign). A browser
request must also carry the CLIENT_HEADER the page sends: a foreign page cannot add a custom header without a
CORS preflight, which this server never grants. Scripts (curl, requests) send no Origin and no Sec-Fetch-Site,
and pass without the header.
Does not: authenticate anyone (there are no users yet) or limit reading: a cross-site page cannot read the
answers, since no response allows another origin.
"""
from urllib.parse import urlsplit

from flask import request

from configuration.settings import current
from web.errors import ApiError

CLIENT_HEADER = "X-Evidenz-Client"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
ANY_ADDRESS = ("0.0.0.0", "::", "")
MAX_URL_CHARS = 8192


def hostname(host: str) -> str | None:
    """The name part of a Host header or an Origin's netloc, lower-cased; None when it cannot be read."""
    try:
        return urlsplit(f"//{host.strip()}").hostname
    except ValueError:
        return None


def allowed_hosts(settings) -> set[str] | None:
    """The host names this server answers to; None: any."""
    entries = settings.server.allowed_hosts  # a tuple (app.py parses the comma-separated setting)
    if "*" in entries:
        return None
    names = [hostname(n) for n in entries]  # "evidenz.lan:8080" and "[fe80::1]" name their hosts
    bound = (settings.server.bind_host or "").strip("[]").lower()
    return {*LOCAL_HOSTS, *filter(None, names), *([bound] if bound not in ANY_ADDRESS else [])}


def check_host() -> None:
    """Refuse a request whose Host is not one of this server's names (a DNS-rebinding page sends its own)."""
    allowed = allowed_hosts(current())
    if allowed is None:
        return
    name = hostname(request.host)
    if name not in allowed:
        shown = request.host[:100]
        raise ApiError(f"This server does not answer to the host {shown!r}. To reach it by that name, add it to "
                       "the ALLOWED_HOSTS setting (FLASK_ALLOWED_HOSTS, comma-separated).", 400)


def same_origin(origin: str) -> bool:
    """Whether an Origin header names this server as the request reached it (scheme, host and port)."""
    try:
        parts = urlsplit(origin) if origin != "null" else None
    except ValueError:  # "http://[": not an origin at all
        return False
    return bool(parts) and parts.scheme == request.scheme and parts.netloc.lower() == request.host.lower()


def check_cross_site() -> None:
    """Refuse a state-changing request that a browser sends on behalf of another site."""
    if request.method not in UNSAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    site = request.headers.get("Sec-Fetch-Site")
    refused = ("Requests that change the library or the history are accepted from this server's own page or "
               "from scripts, not from other sites.")
    if site is not None and site not in ("same-origin", "none"):
        raise ApiError(f"{refused} This one came from a {site[:20]} page.", 403)
    if site is None and origin is not None and not same_origin(origin):
        raise ApiError(f"{refused} This one came from {origin[:100]}.", 403)
    if (origin is not None or site is not None) and not request.headers.get(CLIENT_HEADER):
        raise ApiError(f"{refused} A browser request must carry the {CLIENT_HEADER} header, as the page sends it.", 403)


def check_url() -> None:
    """Refuse an over-long URL with a JSON 414 (no endpoint takes one)."""
    if len(request.full_path) > MAX_URL_CHARS:
        raise ApiError(f"The URL is longer than {MAX_URL_CHARS:,} characters; send long values in a JSON body.", 414)


def register_guard(app) -> None:
    """Run the checks before every request, before anything loads."""
    for check in (check_url, check_host, check_cross_site):
        app.before_request(check)
