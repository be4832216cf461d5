"""Signing in and the users: /api/session, /api/me and, for admins, /api/users.

POST /api/session {"name", "password"} signs in: a session cookie (HttpOnly, SameSite=Strict, Secure over TLS)
and, in the body, the CSRF token the page sends back in X-CSRF-Token; DELETE /api/session signs out.
GET /api/me says whether the server is personal or shared and who the reader is; PATCH /api/me sets the
reader's profile (display name, primary community, secondary customs, preferred poskim, answer language).
GET/POST /api/users and PATCH /api/users/<id> list, create and change users (role, tiers, disabled, password);
POST /api/users/<id>/tokens makes a bearer token, shown once; DELETE /api/users/<id>/tokens revokes them all.
"""
import time

from flask import Blueprint, g, make_response, request

from configuration.settings import current
from accounts.limits import check_sign_in, check_sign_in_name, wrong_password
from accounts.passwords import (check_new_password, check_password, digest, hash_password, new_token,
                                stand_in_hash)
from accounts.roles import PROFILE_FIELDS, ROLES, TIERS, USER_NAME, USERS, UserExists, check_tiers, default_tiers
from web.auth import SESSION_COOKIE, accounts, reader, require, shared
from web.errors import ApiError
from web.validation import LANGUAGE, json_body

bp = Blueprint("accounts", __name__)

SESSION_SECONDS = 12 * 3600
MAX_TEXT, MAX_ITEMS = 100, 20
USER_FIELDS = ("name", "password", "role", "tiers", *PROFILE_FIELDS)
CHANGE_FIELDS = ("role", "tiers", "disabled", "password", *PROFILE_FIELDS)
WRONG = "Wrong name or password."


def user_json(user: dict) -> dict:
    """A user as the API shows it: never the password's hash."""
    tiers = user["tiers"] if user["tiers"] is not None else list(default_tiers(user["role"]))
    return {"id": user["id"], "name": user["name"], "role": user["role"], "tiers": tiers,
            "tiers_from_role": user["tiers"] is None, "disabled": user["disabled"], "created_at": user["created_at"],
            **{k: user[k] for k in PROFILE_FIELDS}}


def checked_name(name) -> str:
    if not isinstance(name, str) or not USER_NAME.fullmatch(name.strip().lower()):
        raise ApiError('"name" must be 1-64 characters: lower-case letters, digits, ".", "_" and "-", '
                       "starting with a letter or digit.")
    return name.strip().lower()


def checked_profile(body: dict) -> dict:
    """The profile fields of body, checked: short texts, lists of short texts, a language code."""
    profile = {}
    for key in ("display_name", "community"):
        if key in body:
            value = body[key]
            if value is not None and (not isinstance(value, str) or len(value) > MAX_TEXT):
                raise ApiError(f'"{key}" must be text of at most {MAX_TEXT} characters.')
            profile[key] = (value or "").strip() or None
    for key in ("customs", "poskim"):
        if key in body:
            items = body[key]
            if not isinstance(items, list) or len(items) > MAX_ITEMS or not all(
                    isinstance(i, str) and 0 < len(i.strip()) <= MAX_TEXT for i in items):
                raise ApiError(f'"{key}" must be a list of at most {MAX_ITEMS} names of 1-{MAX_TEXT} characters.')
            profile[key] = [i.strip() for i in items]
    if "answer_language" in body:
        language = body["answer_language"]
        if language is not None and (not isinstance(language, str) or not LANGUAGE.fullmatch(language)):
            raise ApiError('"answer_language" must be "auto" or a language code such as "en" or "he".')
        profile["answer_language"] = language
    return profile


def checked_changes(body: dict) -> dict:
    """An admin's changes to a user: role, tiers (null: the role's), disabled, password, profile."""
    changes = checked_profile(body)
    if "role" in body and (not isinstance(body["role"], str) or body["role"] not in ROLES):
        raise ApiError(f'"role" must be one of {", ".join(ROLES)}.')
    if body.get("tiers") is not None:
        try:
            check_tiers(body["tiers"] if isinstance(body["tiers"], list) else None)  # the roles module's own check
        except ValueError as exc:
            raise ApiError(f'"tiers": {exc} Send null for the role\'s.') from None
    if "disabled" in body and not isinstance(body["disabled"], bool):
        raise ApiError('"disabled" must be true or false.')
    for key in ("role", "tiers", "disabled"):
        if key in body:
            changes[key] = body[key]
    if "password" in body:
        changes["password_hash"] = hash_password(_password(body["password"]))
    return changes


def _password(value) -> str:
    try:
        return check_new_password(value)
    except ValueError as exc:
        raise ApiError(str(exc)) from None


@bp.post("/api/session")
def sign_in():
    """Sign in with name and password: the session cookie, and the CSRF token in the body."""
    store = accounts()
    if store is None or not shared():
        raise ApiError("This is a personal server: there is no one to sign in as. It is yours already.", 409)
    check_sign_in(store, current(), request.remote_addr or "")
    body = json_body(("name", "password"), '{"name": "rivka", "password": "..."}')
    name, password = body.get("name"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > 1024:
        raise ApiError('Send "name" and "password", both text.')
    name = name.strip().lower()
    address = request.remote_addr or ""
    wait = check_sign_in_name(store, name, address)
    if wait:  # the name is being guessed from many addresses: slowed, its owner never locked out
        time.sleep(wait)
    user = store.user_named(name)
    known = user is not None and not user["disabled"]
    if not check_password(password, user["password_hash"] if known else stand_in_hash()) or not known:
        wrong_password(store, name, address)
        raise ApiError(WRONG, 401)
    session, csrf = new_token("s_"), new_token("c_")
    store.add_session(digest(session), user["id"], csrf, time.time() + SESSION_SECONDS)
    response = make_response({"user": user_json(user), "csrf_token": csrf})
    response.set_cookie(SESSION_COOKIE, session, max_age=SESSION_SECONDS, httponly=True, samesite="Strict",
                        secure=request.is_secure, path="/")
    return response


@bp.delete("/api/session")
def sign_out():
    """End this session and clear its cookie."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie and accounts() is not None:
        accounts().end_session(digest(cookie))
    response = make_response({"signed_out": True})
    response.delete_cookie(SESSION_COOKIE, path="/", samesite="Strict", httponly=True)
    return response


@bp.get("/api/me")
def me():
    """Whether the server is personal or shared, who the reader is, and the session's CSRF token."""
    who = reader()
    if who.id is None:
        return {"mode": "personal", "user": {"name": who.name, "role": who.role, "tiers": sorted(who.tiers),
                                             **{k: None for k in PROFILE_FIELDS}}, "csrf_token": None}
    return {"mode": "shared", "user": user_json(accounts().user(who.id)), "csrf_token": g.get("csrf"),
            "permissions": sorted(who.permissions)}


@bp.patch("/api/me")
def update_me():
    """Set the reader's own profile fields."""
    who = reader()
    if who.id is None:
        raise ApiError("A personal server's owner has no stored profile; create users to keep one.", 409)
    body = json_body(PROFILE_FIELDS, '{"community": "Ashkenazi", "poskim": ["Mishnah Berurah"]}')
    return {"user": user_json(accounts().update(who.id, **checked_profile(body)))}


@bp.get("/api/users")
def list_users():
    require(USERS)
    return {"users": [user_json(u) for u in accounts().users()], "roles": list(ROLES), "tiers": list(TIERS)}


@bp.post("/api/users")
def create_user():
    """Create a user: 201 with it."""
    require(USERS)
    body = json_body(USER_FIELDS, '{"name": "rivka", "password": "at least ten characters", "role": "learner"}')
    name = checked_name(body.get("name"))
    changes = checked_changes({k: v for k, v in body.items() if k != "name"})
    if "password_hash" not in changes:
        raise ApiError('Send "password": at least ten characters, which the user signs in with.')
    try:
        user = accounts().create(name, changes.pop("role", "learner"), changes.pop("password_hash"),
                                 changes.pop("tiers", None))
    except UserExists as exc:
        raise ApiError(str(exc), 409) from None
    return {"user": user_json(accounts().update(user["id"], **changes))}, 201


@bp.patch("/api/users/<id:user_id>")
def change_user(user_id: int):
    """Change a user's role, tiers, password, profile, or disable them (which also ends their sessions)."""
    admin = require(USERS)
    body = json_body(CHANGE_FIELDS, '{"role": "editor", "tiers": ["canonical", "public", "private"]}')
    if accounts().user(user_id) is None:
        raise ApiError(f"No user {user_id}.", 404)
    changes = checked_changes(body)
    if user_id == admin.id and (changes.get("disabled") or changes.get("role", "admin") != "admin"):
        raise ApiError("You cannot disable yourself or give up your own admin role; another admin can.", 409)
    user = accounts().update(user_id, **changes)
    if changes.get("disabled") or "password_hash" in changes:
        accounts().revoke(user_id=user_id)
    return {"user": user_json(user)}


@bp.post("/api/users/<id:user_id>/tokens")
def make_token(user_id: int):
    """A new bearer token for a user, shown this once: {"token", "id", "expires_at"}."""
    require(USERS)
    body = json_body(("name", "expires_days"), '{"name": "laptop script", "expires_days": 90}')
    if accounts().user(user_id) is None:
        raise ApiError(f"No user {user_id}.", 404)
    days = body.get("expires_days")
    if days is not None and (not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 3650):
        raise ApiError('"expires_days" must be a whole number of days from 1 to 3650, or left out for no expiry.')
    label = body.get("name")
    if label is not None and (not isinstance(label, str) or len(label) > MAX_TEXT):
        raise ApiError(f'"name" must be text of at most {MAX_TEXT} characters.')
    token = new_token()
    expires_at = time.time() + days * 86400 if days else None
    token_id = accounts().add_token(user_id, digest(token), label, expires_at)
    return {"token": token, "id": token_id, "expires_at": expires_at}, 201


@bp.delete("/api/users/<id:user_id>/tokens")
def revoke_tokens(user_id: int):
    """Revoke every token and session of a user."""
    require(USERS)
    if accounts().user(user_id) is None:
        raise ApiError(f"No user {user_id}.", 404)
    return {"revoked": accounts().revoke(user_id=user_id)}
