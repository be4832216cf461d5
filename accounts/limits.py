"""The limits on each reader of a shared server, counted in the database so every process counts together.

Per user: questions a minute, model-writer calls a day, upload bytes a day and jobs queued at once; per client
address: questions a minute and sign-in attempts a minute; per user name: sign-in attempts a minute.
Counts are fixed windows (a minute, a day) kept by `count_use` (storage/accounts.py, postgres/accounts.py), one
atomic upsert per check; a request past a limit is refused with OverLimit, which the API answers 429 with
Retry-After: the seconds until the window ends.
A setting of 0 turns that limit off. A personal server has no limits.
Does not: know requests (web/ passes the user, the address and the settings).
"""
import time
from dataclasses import dataclass

MINUTE, DAY = 60, 86_400
clock = time.time  # the windows' clock (a test stops it)
SIGN_INS_PER_MINUTE = 10  # per client address
SIGN_INS_PER_NAME_PER_MINUTE = 10  # per user name, from every address


@dataclass
class OverLimit(Exception):
    """A limit refuses the request; message says which and how to go on, retry_after is in seconds."""

    message: str
    retry_after: int


def _window(length: int, now: float) -> tuple[int, int]:
    """The current window's start and the whole seconds until it ends (at least 1)."""
    start = int(now // length) * length
    return start, max(1, int(start + length - now + 0.999))


def count(store, key: str, most: int, length: int, what: str, amount: int = 1) -> None:
    """Count amount more of key in its window; OverLimit when that passes most (0: no limit)."""
    if not most:
        return
    start, left = _window(length, clock())
    if store.count_use(key, start, amount) > most:
        span = "minute" if length == MINUTE else "day"
        raise OverLimit(f"{what} ({most:,} a {span}). Try again in {left:,} seconds.", left)


def check_query(store, settings, user_id: int, address: str, hosted: bool) -> None:
    """Count a question against its user's and its address's rates, and a hosted writer's call against the day's."""
    count(store, f"q:u:{user_id}", int(settings.limits.queries_per_minute), MINUTE,
          "You have asked as many questions as this server allows a user in a minute")
    count(store, f"q:a:{address}", int(settings.limits.address_queries_per_minute), MINUTE,
          "This address has asked as many questions as this server allows in a minute")
    if hosted:
        count(store, f"m:u:{user_id}", int(settings.limits.model_calls_per_day), DAY,
              "You have used as many model-written answers as this server allows a user in a day; the offline "
              'writer ("provider": "offline") has no such limit')


def check_user_upload(store, settings, user_id: int, size: int, queued: int) -> None:
    """Refuse an upload past the user's bytes a day or jobs queued; the bytes are counted when it passes."""
    most_jobs = int(settings.limits.queued_jobs_per_user)
    if most_jobs and queued >= most_jobs:
        raise OverLimit(f"You have {queued} jobs waiting, the most this server queues for one user "
                        f"({most_jobs}). Wait for them to finish, then send this again.", 30)
    most = int(settings.limits.upload_bytes_per_day)
    if not most or not size:
        return
    start, left = _window(DAY, clock())
    used = store.count_use(f"b:u:{user_id}", start, 0)
    if used + size > most:
        raise OverLimit(f"This upload would pass the {most / 2**20:,.0f} MB a user may upload in a day "
                        f"({used / 2**20:,.1f} MB used). Try again in {left:,} seconds.", left)
    store.count_use(f"b:u:{user_id}", start, size)


def check_sign_in(store, settings, address: str) -> None:
    """At most SIGN_INS_PER_MINUTE sign-in attempts a minute from one address, so passwords cannot be guessed fast."""
    count(store, f"s:a:{address}", SIGN_INS_PER_MINUTE, MINUTE,
          "Too many sign-in attempts from this address")


def check_sign_in_name(store, name: str) -> None:
    """At most SIGN_INS_PER_NAME_PER_MINUTE attempts a minute for one user name, from all addresses together, so a
    password cannot be guessed from many addresses at once (a name that does not exist is counted the same)."""
    key = name[:64].replace("\x00", "")  # PostgreSQL holds no NUL; the name with one is no one's anyway
    count(store, f"s:n:{key}", SIGN_INS_PER_NAME_PER_MINUTE, MINUTE,
          "Too many sign-in attempts for this name")
