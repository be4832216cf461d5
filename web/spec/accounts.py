"""The accounts part of the API description (web/spec/__init__.py): signing in, the reader, and the users
(web/accounts.py). A user never comes with their password's hash; a token is shown once, when it is made.
"""
from accounts.passwords import MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS
from accounts.roles import PERMISSIONS, ROLES, TIERS, USER_NAME
from web.accounts import MAX_ITEMS, MAX_TEXT
from web.spec.common import body, json_content, ok, operation, path_param, ref
from web.validation import LANGUAGE, MAX_ID

TAGS = ("accounts",)
NULLABLE_TEXT = {"type": ["string", "null"]}
TIER_LIST = {"type": "array", "items": {"enum": list(TIERS)}}
SET_COOKIE = {"Set-Cookie": {"required": True, "schema": {"type": "string"},
                             "description": "The session cookie (evidenz_session): HttpOnly, SameSite=Strict."}}
USER_ID = path_param("user_id", {"type": "integer", "minimum": 0, "maximum": MAX_ID}, "The user's id.")

NAMES = {"type": "array", "maxItems": MAX_ITEMS,
         "items": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "pattern": r"\S"}}
PROFILE = {  # what checked_profile takes
    "display_name": {"type": ["string", "null"], "maxLength": MAX_TEXT},
    "community": {"type": ["string", "null"], "maxLength": MAX_TEXT,
                  "description": 'Whose rulings and customs the reader follows, e.g. "Ashkenazi".'},
    "customs": NAMES, "poskim": NAMES,
    "answer_language": {"type": ["string", "null"], "pattern": f"^({LANGUAGE.pattern})$",
                        "description": '"auto" or a language code such as "en" or "he".'},
}
CHANGES = {  # what checked_changes takes besides the profile
    "role": {"enum": list(ROLES)},
    "tiers": {**TIER_LIST, "type": ["array", "null"], "description": "The tiers the user reads; null: the role's."},
    "password": {"type": "string", "minLength": MIN_PASSWORD_CHARS, "maxLength": MAX_PASSWORD_CHARS},
}

SCHEMAS = {
    "User": {
        "type": "object", "required": ["id", "name", "role", "tiers", "tiers_from_role", "disabled", "created_at",
                                       *PROFILE],
        "properties": {
            "id": {"type": "integer"}, "name": {"type": "string", "pattern": f"^{USER_NAME.pattern}$"},
            "role": {"enum": list(ROLES)}, "tiers": TIER_LIST,
            "tiers_from_role": {"type": "boolean", "description": "The tiers are the role's, none given."},
            "disabled": {"type": "boolean"}, "created_at": {"type": "number"},
            "display_name": NULLABLE_TEXT, "community": NULLABLE_TEXT,
            "customs": {"type": "array", "items": {"type": "string"}},
            "poskim": {"type": "array", "items": {"type": "string"}}, "answer_language": NULLABLE_TEXT,
        },
        "additionalProperties": False,
    },
    "Owner": {
        "type": "object", "description": "A personal server's owner: an admin with every tier and no profile.",
        "required": ["name", "role", "tiers", *PROFILE],
        "properties": {"name": {"type": "string"}, "role": {"const": "admin"}, "tiers": TIER_LIST,
                       **{k: {"type": "null"} for k in PROFILE}},
        "additionalProperties": False,
    },
    "SignIn": {
        "type": "object", "required": ["name", "password"],
        "properties": {"name": {"type": "string"}, "password": {"type": "string", "maxLength": MAX_PASSWORD_CHARS}},
        "additionalProperties": False,
    },
    "SignedIn": {
        "type": "object", "required": ["user", "csrf_token"],
        "properties": {"user": ref("User"), "csrf_token": {"type": "string",
                                                           "description": "Send it back in X-CSRF-Token."}},
        "additionalProperties": False,
    },
    "SignedOut": {"type": "object", "required": ["signed_out"], "properties": {"signed_out": {"const": True}},
                  "additionalProperties": False},
    "Me": {
        "oneOf": [
            {"type": "object", "required": ["mode", "user", "csrf_token"],
             "properties": {"mode": {"const": "personal"}, "user": ref("Owner"), "csrf_token": {"type": "null"}},
             "additionalProperties": False},
            {"type": "object", "required": ["mode", "user", "csrf_token", "permissions"],
             "properties": {"mode": {"const": "shared"}, "user": ref("User"),
                            "csrf_token": {"type": ["string", "null"],
                                           "description": "The session's; null when signed in with a token."},
                            "permissions": {"type": "array", "items": {"enum": list(PERMISSIONS)}}},
             "additionalProperties": False},
        ],
    },
    "Profile": {"type": "object", "properties": PROFILE, "additionalProperties": False},
    "UserBody": {"type": "object", "required": ["user"], "properties": {"user": ref("User")},
                 "additionalProperties": False},
    "Users": {
        "type": "object", "required": ["users", "roles", "tiers"],
        "properties": {"users": {"type": "array", "items": ref("User")},
                       "roles": {"type": "array", "items": {"enum": list(ROLES)}}, "tiers": TIER_LIST},
        "additionalProperties": False,
    },
    "NewUser": {
        "type": "object", "required": ["name", "password"],
        "properties": {"name": {"type": "string", "pattern": f"^{USER_NAME.pattern}$",
                                "description": "What the user signs in with (lower-cased)."},
                       **CHANGES, **PROFILE},
        "additionalProperties": False,
    },
    "UserChanges": {
        "type": "object", "description": "Disabling a user, or setting a password, ends their sessions and tokens.",
        "properties": {**CHANGES, "disabled": {"type": "boolean"}, **PROFILE},
        "additionalProperties": False,
    },
    "NewToken": {
        "type": "object",
        "properties": {"name": {"type": ["string", "null"], "maxLength": MAX_TEXT, "description": "A label."},
                       "expires_days": {"type": ["integer", "null"], "minimum": 1, "maximum": 3650,
                                        "description": "Left out or null: it never expires."}},
        "additionalProperties": False,
    },
    "Revoked": {"type": "object", "required": ["revoked"], "additionalProperties": False,
                "properties": {"revoked": {"type": "integer", "minimum": 0, "description": "How many tokens."}}},
    "Token": {
        "type": "object", "required": ["token", "id", "expires_at"],
        "properties": {"token": {"type": "string", "description": "Shown this once."}, "id": {"type": "integer"},
                       "expires_at": {"type": ["number", "null"]}},
        "additionalProperties": False,
    },
}

# A new user's id leads to the operations on them (schemathesis follows these links in its stateful phase).
CREATED = {name: {"operationId": target, "parameters": {"user_id": "$response.body#/user/id"}}
           for name, target in (("change", "changeUser"), ("token", "makeToken"), ("revoke", "revokeTokens"))}

PATHS = {
    "/api/session": {
        "post": operation(
            "Sign in with name and password: the session cookie, and the CSRF token the page sends back.",
            {200: {**ok(ref("SignedIn")), "headers": SET_COOKIE}}, (401, 403, 409, 413, 429), tags=TAGS,
            request=body(ref("SignIn")), public=True),
        "delete": operation(
            "Sign out: end this session and clear its cookie.",
            {200: {**ok(ref("SignedOut")), "headers": SET_COOKIE}}, tags=TAGS),
    },
    "/api/me": {
        "get": operation("Whether the server is personal or shared, who the reader is, and the CSRF token.",
                         {200: ok(ref("Me"))}, tags=TAGS),
        "patch": operation("Set the reader's own profile (409 on a personal server, whose owner keeps none).",
                           {200: ok(ref("UserBody"))}, (409, 413), tags=TAGS, request=body(ref("Profile"))),
    },
    "/api/users": {
        "get": operation("Every user, and the roles and tiers there are (admins).", {200: ok(ref("Users"))},
                         tags=TAGS),
        "post": {"operationId": "createUser", **operation(
            "Create a user (admins); 409 when the name is taken.",
            {201: {"description": "Created.", "content": json_content(ref("UserBody")), "links": CREATED}},
            (409, 413), tags=TAGS, request=body(ref("NewUser")))},
    },
    "/api/users/{user_id}": {"patch": {"operationId": "changeUser", **operation(
        "Change a user (admins): role, tiers, password, profile, or disable them. No admin disables or demotes "
        "themselves (409).", {200: ok(ref("UserBody"))}, (404, 409, 413), tags=TAGS, parameters=[USER_ID],
        request=body(ref("UserChanges")))}},
    "/api/users/{user_id}/tokens": {
        "post": {"operationId": "makeToken", **operation(
            "A new bearer token for the user (admins), shown this once.",
            {201: {"description": "Made.", "content": json_content(ref("Token"))}}, (404, 413), tags=TAGS,
            parameters=[USER_ID], request=body(ref("NewToken")))},
        "delete": {"operationId": "revokeTokens", **operation(
            "Revoke every token and session of the user (admins).", {200: ok(ref("Revoked"))}, (404,), tags=TAGS,
            parameters=[USER_ID])},
    },
}
