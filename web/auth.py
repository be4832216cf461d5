"""Who is asking: the personal server's owner, or a signed-in user (a bearer token or the page's session cookie).

A server is *shared* when AUTH is "required", when it is bound to an address other than the loopback, or once it
has users; otherwise it is *personal* and every request acts as the owner (accounts/roles.OWNER), as before users
existed. On a shared server every request but the page, its static files, /api/health and sign-in needs
`Authorization: Bearer <token>` or the session cookie (401 without); a request with a cookie that changes
anything must also carry the session's CSRF token in X-CSRF-Token (403 without), which the page holds and a
foreign page cannot read. A signed-in request acts as that user's Reader: role, tiers and profile.
Does not: store users (storage/accounts.py) or decide what a role may do (accounts/roles.py).
"""
import hmac

from flask import current_app, g, request

from accounts.passwords import digest
from accounts.roles import OWNER, PROFILE_FIELDS, Reader, default_tiers
from postgres.database import Unavailable
from web.errors import ApiError
from web.guard import LOCAL_HOSTS, UNSAFE_METHODS

SESSION_COOKIE = "evidenz_session"
CSRF_HEADER = "X-CSRF-Token"
OPEN_ENDPOINTS = frozenset({"api.index", "api.health", "static", "accounts.sign_in", "openapi.spec"})
SIGN_IN = ("Sign in on the page, or send Authorization: Bearer <token> (an admin makes one with "
           "`flask --app app users token NAME`).")


def accounts():
    """The server's users, tokens and sessions (kept with the answer history)."""
    history = current_app.extensions.get("history")
    return history.accounts if history is not None else None


def public_bind(settings) -> bool:
    """Whether the server is bound to an address other than the loopback."""
    bound = (settings.server.bind_host or "").strip("[]").lower()
    return bool(bound) and bound not in LOCAL_HOSTS


def shared(app=None) -> bool:
    """Whether this server needs sign-in: AUTH=required, a public bind address, or any user created (sticky)."""
    app = app or current_app
    if app.extensions.get("shared"):
        return True
    store = app.extensions.get("history")
    settings = app.extensions["settings"]
    found = (settings.server.auth.lower() == "required" or public_bind(settings)
             or (store is not None and store.accounts.count() > 0))
    if found:
        app.extensions["shared"] = True
    return found


def reader_of(user: dict) -> Reader:
    """The Reader a stored user acts as: the tiers an admin gave them, else their role's."""
    tiers = user["tiers"] if user["tiers"] is not None else default_tiers(user["role"])
    return Reader(user["id"], user["name"], user["role"], frozenset(tiers), {k: user[k] for k in PROFILE_FIELDS})


def identify() -> None:
    """Set g.reader (None: not signed in) and g.csrf; refuse an unsigned request to a closed endpoint with 401."""
    g.csrf = g.reader = None
    try:
        personal = not shared()
    except Unavailable:  # the users cannot be read: the open endpoints answer (health says why), the rest 503
        if request.endpoint in OPEN_ENDPOINTS:
            return
        raise
    if personal:
        g.reader = OWNER
        return
    header = request.headers.get("Authorization", "")
    cookie = request.cookies.get(SESSION_COOKIE)
    if header:
        scheme, _, token = header.partition(" ")
        user = accounts().token_user(digest(token.strip())) if scheme.lower() == "bearer" and token.strip() else None
        if user is None:
            raise ApiError(f"The bearer token is not valid: unknown, revoked or expired. {SIGN_IN}", 401,
                           {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        g.reader = reader_of(user)
    elif cookie:
        found = accounts().session(digest(cookie))
        if found is not None:
            g.reader, g.csrf = reader_of(found[0]), found[1]
            sent = request.headers.get(CSRF_HEADER, "")
            if request.method in UNSAFE_METHODS and not hmac.compare_digest(sent.encode(), found[1].encode()):
                raise ApiError(f"This request needs the {CSRF_HEADER} header of the signed-in page. Reload the "
                               "page and try again.", 403)
    if g.reader is None and request.endpoint not in OPEN_ENDPOINTS:
        raise ApiError(f"This server needs you to sign in. {SIGN_IN}", 401, {"WWW-Authenticate": "Bearer"})


def reader() -> Reader:
    """Who the request acts for (identify has run)."""
    return g.get("reader")


def require(permission: str) -> Reader:
    """The reader, or a 403 naming what their role may not do."""
    who = reader()
    if who is None or not who.may(permission):
        role = who.role if who else "anonymous"
        raise ApiError(f"Your role ({role}) may not {permission.replace('_', ' ')} on this server. Ask an admin "
                       "for a role that may.", 403)
    return who


def register_auth(app) -> None:
    """Identify the reader of every request, after the Host and cross-site checks."""
    app.before_request(identify)
