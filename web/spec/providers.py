"""The providers part of the API description (web/spec/__init__.py): the model providers' API keys and default
models, set by admins (web/providers.py). A key goes in and never comes out: a provider shows whether a key is set,
where from, and at most its last four characters.
"""
from web.providers import MAX_KEY_CHARS, MIN_KEY_CHARS, MODEL_NAME
from web.spec.common import body, ok, operation, path_param, ref
from writers.configured import HOSTED

TAGS = ("providers",)
NULLABLE_TEXT = {"type": ["string", "null"]}
SOURCE = {"enum": ["table", "environment", None],
          "description": "table: set here; environment: the server's settings; null: not set."}
KEY_PATTERN = f"^\\s*[\\x21-\\x7e]{{{MIN_KEY_CHARS},{MAX_KEY_CHARS}}}\\s*$"  # blank space around it is dropped
NAME = path_param("name", {"enum": list(HOSTED)}, "The provider: claude, gemini or openai (OpenAI-compatible).")

SCHEMAS = {
    "Provider": {
        "type": "object",
        "required": ["name", "label", "answers", "lacking", "key_set", "key_from", "key_last4", "model", "model_from",
                     "environment_model", "updated_at", "updated_by"],
        "properties": {
            "name": {"enum": list(HOSTED)}, "label": {"type": "string"},
            "answers": {"type": "boolean", "description": "Its settings make a writer: a request may choose it."},
            "lacking": {**NULLABLE_TEXT, "description": "What it lacks to answer, and where to set it."},
            "key_set": {"type": "boolean"}, "key_from": SOURCE,
            "key_last4": {"type": ["string", "null"], "minLength": 4, "maxLength": 4,
                          "description": "The key's last four characters, for a key of 16 or more; never the key."},
            "model": {**NULLABLE_TEXT, "description": "The default model its answers are written with."},
            "model_from": SOURCE, "environment_model": NULLABLE_TEXT,
            "updated_at": {"type": ["number", "null"], "description": "When the table's row was set (Unix time)."},
            "updated_by": {**NULLABLE_TEXT, "description": "Who set it: a user's name, or owner."},
        },
        "additionalProperties": False,
    },
    "Providers": {"type": "object", "required": ["providers"], "additionalProperties": False,
                  "properties": {"providers": {"type": "array", "items": ref("Provider")}}},
    "ProviderBody": {"type": "object", "required": ["provider"], "additionalProperties": False,
                     "properties": {"provider": ref("Provider")}},
    "ProviderChanges": {
        "type": "object", "minProperties": 1, "additionalProperties": False,
        "description": "Either or both; null clears one, and the environment's setting stands again.",
        "properties": {
            "api_key": {"type": ["string", "null"], "pattern": KEY_PATTERN,
                        "description": "The key as the provider gave it; kept in the database, never shown again."},
            "model": {"type": ["string", "null"], "pattern": f"^\\s*{MODEL_NAME.pattern}\\s*$",
                      "description": "The default model, e.g. claude-opus-4-1, gemini-2.5-pro, llama3.1:8b."},
        },
    },
}

PATHS = {
    "/api/admin/providers": {
        "get": operation("Each hosted provider's key (whether set, where from, its last four characters) and default "
                         "model (admins).", {200: ok(ref("Providers"))}, tags=TAGS),
    },
    "/api/admin/providers/{name}": {
        "put": operation("Set a provider's API key, default model or both (admins). This server uses them at once, "
                         "every other server on the same database within seconds. 409: the OpenAI-compatible "
                         "provider has no OPENAI_BASE_URL to send them to.", {200: ok(ref("ProviderBody"))},
                         (404, 409, 413), tags=TAGS, parameters=[NAME], request=body(ref("ProviderChanges"))),
        "delete": operation("Clear a provider's key and model set here (admins): the environment's stand again.",
                            {200: ok(ref("ProviderBody"))}, (404,), tags=TAGS, parameters=[NAME]),
    },
}
