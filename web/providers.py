"""The model providers' API keys and default models, set by an admin: /api/admin/providers.

GET /api/admin/providers lists each hosted provider (claude, gemini, openai): whether its settings make it answer
and, if not, what it lacks; whether a key is set and where from (the table or the environment) with at most its
last four characters; the model and where from; who changed it last and when. PUT /api/admin/providers/<name>
{"api_key"?, "model"?} stores either (null clears one: the environment's stands again); DELETE clears both. This
server's writers read the change at once, every other server's on the same database within
writers/live.FRESH_SECONDS.
A key is never sent back, in a response or an error, and never logged: it is checked by its shape only, and no
message quotes it. The base URL stays the environment's (writers/configured.py says why).
Only readers with the set_providers permission may call it (admins, and a personal server's owner): 403 for the rest.
Does not: keep the rows (storage/provider_settings.py) or build writers (writers/live.py).
"""
import re

from flask import Blueprint, current_app

from accounts.roles import SET_PROVIDERS
from configuration.settings import ProviderSettings, current
from storage.provider_settings import FIELDS
from web.auth import require
from web.errors import ApiError
from web.services import history, loader
from web.validation import MAX_MODEL_CHARS, json_body
from writers.configured import HOSTED, usable, with_stored
from writers.live import LiveWriters

bp = Blueprint("providers", __name__)

MIN_KEY_CHARS, MAX_KEY_CHARS = 8, 512
API_KEY = re.compile(f"[\\x21-\\x7e]{{{MIN_KEY_CHARS},{MAX_KEY_CHARS}}}")  # visible ASCII: it goes in an HTTP header
MODEL_NAME = re.compile(f"[A-Za-z0-9][A-Za-z0-9._:/@+-]{{0,{MAX_MODEL_CHARS - 1}}}")  # gemini-2.5-pro, llama3.1:8b
HINT_FROM_CHARS = 16  # a key shorter than this shows none of its characters
EXAMPLE = '{"api_key": "sk-ant-...", "model": "claude-sonnet-4-5"}'
LACKING = {  # what a provider lacks when its key or server is not set
    "claude": "an API key: set one here, or ANTHROPIC_API_KEY in the server's environment",
    "gemini": "an API key: set one here, or GEMINI_API_KEY in the server's environment",
    "openai": "a server: OPENAI_BASE_URL in the server's environment (its address is not set here)",
}


def hosted_name(name: str) -> str:
    """The provider's name, or a 404 naming the providers there are."""
    if name not in HOSTED:
        raise ApiError(f"No provider named {name[:40]!r}. The providers set here are {', '.join(HOSTED)}; the "
                       "offline writer needs no key.", 404)
    return name


def checked_changes(body: dict) -> dict:
    """The fields of a PUT body, checked: a key of the shape keys have, a model name; null clears either."""
    if not body:
        raise ApiError(f'Send "api_key", "model" or both, such as {EXAMPLE}; null clears one.')
    changes = {}
    if "api_key" in body:
        key = body["api_key"]
        key = key.strip() if isinstance(key, str) else key
        if key is not None and (not isinstance(key, str) or not API_KEY.fullmatch(key)):
            raise ApiError(f'"api_key" must be the key as the provider gave it: {MIN_KEY_CHARS} to {MAX_KEY_CHARS} '
                           "visible ASCII characters, without spaces; or null to clear it.")
        changes["api_key"] = key
    if "model" in body:
        model = body["model"]
        model = model.strip() if isinstance(model, str) else model
        if model is not None and (not isinstance(model, str) or not MODEL_NAME.fullmatch(model)):
            raise ApiError(f'"model" must be a model name of 1 to {MAX_MODEL_CHARS} letters, digits and . _ : / @ + -, '
                           "starting with a letter or digit (such as gemini-2.5-pro or llama3.1:8b); or null to "
                           "clear it.")
        changes["model"] = model
    return changes


def check_server(name: str, changes: dict) -> None:
    """A 409 for a key or model of a provider whose server the environment does not name (the OpenAI-compatible
    one without OPENAI_BASE_URL): nothing would use them."""
    hosted = HOSTED[name]
    if hosted.needs == "base_url" and not usable(name, getattr(current().writers, name)) and any(
            value is not None for value in changes.values()):
        raise ApiError(f"The {hosted.label} has no address to send a key or model to: set {hosted.needs_setting} "
                       "in the server's environment first.", 409)


def last4(key: str) -> str | None:
    """The last four characters of a key long enough that they give little away; else None."""
    return key[-4:] if len(key) >= HINT_FROM_CHARS else None


def lacking(name: str, provider: ProviderSettings) -> str | None:
    """What a provider's settings lack to answer, said for the admin; None when they are enough."""
    if not usable(name, provider):
        return LACKING[name]
    if not provider.model:
        return f"a default model: set one here, or {name.upper()}_MODEL in the server's environment"
    return None


def provider_json(name: str, given: ProviderSettings, used: ProviderSettings, row: dict | None) -> dict:
    """A provider as the API shows it: never its key, at most the key's last four characters."""
    row = row or {}

    def source(field: str) -> str | None:
        return "table" if row.get(field) else "environment" if getattr(given, field) else None

    return {"name": name, "label": HOSTED[name].label, "answers": lacking(name, used) is None,
            "lacking": lacking(name, used), "key_set": bool(used.api_key), "key_from": source("api_key"),
            "key_last4": last4(used.api_key), "model": used.model or None, "model_from": source("model"),
            "environment_model": given.model or None, "updated_at": row.get("updated_at"),
            "updated_by": row.get("updated_by")}


def providers_json(names=tuple(HOSTED)) -> list[dict]:
    """The named providers as the API shows them, from the environment's settings and the table."""
    given, rows = current().writers, history().provider_settings.all()
    used = with_stored(given, rows)
    return [provider_json(n, getattr(given, n), getattr(used, n), rows.get(n)) for n in names]


def expire_writers() -> None:
    """Have this server's writers read the table at their next use (other servers read it within seconds)."""
    services = loader().services
    writers = services.pipeline.generator.writers if services is not None else None
    if isinstance(writers, LiveWriters):
        writers.expire()


@bp.get("/api/admin/providers")
def list_providers():
    """Each hosted provider's settings, never a key."""
    require(SET_PROVIDERS)
    return {"providers": providers_json()}


@bp.put("/api/admin/providers/<name>")
def set_provider(name: str):
    """Store a provider's API key, default model or both (null clears one); the provider as it now is."""
    who = require(SET_PROVIDERS)
    name = hosted_name(name)
    changes = checked_changes(json_body(FIELDS, EXAMPLE))
    check_server(name, changes)
    history().provider_settings.put(name, changes, who.name)
    expire_writers()
    current_app.logger.info("provider %s: %s set by %s", name, ", ".join(changes), who.name)  # never a value
    return {"provider": providers_json((name,))[0]}


@bp.delete("/api/admin/providers/<name>")
def clear_provider(name: str):
    """Clear a provider's stored key and model: the environment's settings stand again."""
    who = require(SET_PROVIDERS)
    name = hosted_name(name)
    if history().provider_settings.clear(name):
        expire_writers()
        current_app.logger.info("provider %s: key and model cleared by %s", name, who.name)
    return {"provider": providers_json((name,))[0]}
