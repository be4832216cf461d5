"""The corpus tiers, the roles and their permissions, and the Reader a request acts as.

A role is a set of permissions and the tiers its users read unless an admin gives them others:
- learner: ask, read their own history, give feedback; the canonical and public tiers;
- advanced and researcher: the same, with more tiers;
- posek and reviewer: the review queue (every answer) and corrections, relations between passages;
- editor: upload, remove and re-index documents;
- admin: everything, users, tiers and the model providers' keys and models included.
A document is visible to a reader who owns it (uploaded it) or whose tiers include its tier; a document with no
tier is in "public". So a `private` document reaches only its owner and readers given the private tier (admins).
On a personal server (127.0.0.1, no users) the one implicit owner, OWNER, may do and see everything.
"""
import re
from dataclasses import dataclass, field

TIERS = ("canonical", "public", "academic", "apocrypha", "restricted", "private")
DEFAULT_TIER = "public"  # of a document that names none

ASK, HISTORY, FEEDBACK = "ask", "history", "feedback"
REVIEW, RELATIONS = "review", "relations"
UPLOAD, REMOVE, REINDEX = "upload", "remove", "reindex"
USERS, METRICS = "users", "metrics"
SET_PROVIDERS = "set_providers"  # the model providers' API keys and default models (web/providers.py)
PERMISSIONS = (ASK, HISTORY, FEEDBACK, REVIEW, RELATIONS, UPLOAD, REMOVE, REINDEX, USERS, METRICS, SET_PROVIDERS)

_READER = frozenset({ASK, HISTORY, FEEDBACK})
_REVIEWER = _READER | {REVIEW, RELATIONS}
ROLES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {  # role: (permissions, default tiers)
    "learner": (_READER, ("canonical", "public")),
    "advanced": (_READER, ("canonical", "public", "academic")),
    "researcher": (_READER, ("canonical", "public", "academic", "apocrypha")),
    "posek": (_REVIEWER, ("canonical", "public", "academic", "apocrypha")),
    "reviewer": (_REVIEWER, ("canonical", "public", "academic", "apocrypha")),
    "editor": (_READER | {UPLOAD, REMOVE, REINDEX}, ("canonical", "public", "academic")),
    "admin": (frozenset(PERMISSIONS), TIERS),
}
USER_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")  # what a user signs in with; fullmatch, lower-cased
PROFILE_FIELDS = ("display_name", "community", "customs", "poskim", "answer_language")


@dataclass(frozen=True)
class Reader:
    """Who a request acts for: a user (id, name, role, tiers, profile), or OWNER on a personal server."""

    id: int | None
    name: str
    role: str
    tiers: frozenset[str]
    profile: dict = field(default_factory=dict, compare=False, hash=False)
    everything: bool = False  # the personal server's owner: sees every document and every answer

    @property
    def permissions(self) -> frozenset[str]:
        return ROLES[self.role][0]

    def may(self, permission: str) -> bool:
        return permission in self.permissions

    @property
    def community(self) -> str | None:
        return self.profile.get("community") or None

    def sees_all_history(self) -> bool:
        """Whether every answer is this reader's to read: the owner, and reviewers (the review queue)."""
        return self.everything or self.may(REVIEW)

    def owns(self, owner: int | None) -> bool:
        """Whether a document of this owner is this reader's to replace, re-index or remove: their own, and any
        for the owner and admins (a document with no owner is the server's)."""
        return self.everything or USERS in self.permissions or (owner is not None and owner == self.id)

    def sees(self, owner: int | None, tier: str | None) -> bool:
        """Whether a document with this owner and tier is visible to this reader."""
        return self.everything or (owner is not None and owner == self.id) or (tier or DEFAULT_TIER) in self.tiers


OWNER = Reader(None, "owner", "admin", frozenset(TIERS), everything=True)


def default_tiers(role: str) -> tuple[str, ...]:
    return ROLES[role][1]


def check_role(role) -> str:
    """The role, or ValueError naming the roles."""
    if role not in ROLES:
        raise ValueError(f"Unknown role {role!r}; use one of {', '.join(ROLES)}.")
    return role


def check_tiers(tiers) -> tuple[str, ...]:
    """The tiers, de-duplicated in TIERS order, or ValueError naming the tiers."""
    if not isinstance(tiers, (list, tuple)) or not all(isinstance(t, str) for t in tiers):
        raise ValueError("Tiers must be a list of tier names.")
    unknown = sorted(set(tiers) - set(TIERS))
    if unknown:
        raise ValueError(f"Unknown tier(s) {', '.join(unknown)}; use {', '.join(TIERS)}.")
    return tuple(t for t in TIERS if t in tiers)


class UserExists(ValueError):
    """A user of that name is already there."""
