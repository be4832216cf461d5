"""Passwords and tokens: a password is kept as a salted scrypt hash (memory-hard: 16 MiB per try, so guessing
on many cores at once is costly); a token or session id is 32 random bytes, shown once and kept as its SHA-256
(it has full entropy, so a fast digest is safe, and a lookup by digest takes one index probe).
"""
import base64
import functools
import hashlib
import hmac
import os
import secrets

SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # 16 MiB, about 50 ms on one core
MIN_PASSWORD_CHARS = 10
MAX_PASSWORD_CHARS = 1024
TOKEN_PREFIX = "evz_"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str) -> str:
    """The stored form of a password: scrypt$n$r$p$salt$hash."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, maxmem=64 * 2**20, dklen=32, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${_b64(salt)}${_b64(digest)}"


@functools.cache
def stand_in_hash() -> str:
    """A hash no password is known to match: checked against when there is no user, so that a wrong name costs
    the same time as a wrong password and the timing tells no one which names exist."""
    return hash_password(secrets.token_hex(16))


def check_password(password: str, stored: str | None) -> bool:
    """Whether password matches a stored hash (compared in constant time); False for no hash or a malformed one."""
    try:
        kind, n, r, p, salt, digest = (stored or "").split("$")
        if kind != "scrypt":
            return False
        tried = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                               maxmem=64 * 2**20, dklen=32)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(tried, base64.b64decode(digest))


def check_new_password(password) -> str:
    """The password, or ValueError saying what a password must be."""
    if not isinstance(password, str) or not MIN_PASSWORD_CHARS <= len(password) <= MAX_PASSWORD_CHARS:
        raise ValueError(f"A password must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters.")
    return password


def new_token(prefix: str = TOKEN_PREFIX) -> str:
    """A fresh random secret (a bearer token, a session id, a CSRF token)."""
    return prefix + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()
