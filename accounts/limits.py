"""The limits on each reader of a shared server, counted in the database so every process counts together.

Per user: questions a minute, model-writer calls a day, upload bytes a day and jobs queued at once; per client
address: questions a minute and sign-in attempts a minute; per user name: sign-in attempts a minute.
Counts slide: a window's count (a minute, a day, kept by `count_use`, storage/account_queries.py, one atomic upsert
per check on either backend) plus the previous window's, weighted by the share of it still within one window's
length of now, so a burst at a window's end is still counted at the next one's start (a fixed window let 33 searches
through in 9 s). A request past a limit is refused with OverLimit, which the API answers 429 with Retry-After: the
seconds until one more request would pass.
Sign-in: attempts per address; and wrong passwords per name and address, so that guessing one name's password from
one address stops there while its owner, elsewhere, still signs in. Past SLOW_AFTER wrong passwords a minute for one
name from every address together, each attempt for it waits a second (slowed, never blocked).
A setting of 0 turns that limit off. A personal server has no limits.
Does not: know requests (web/ passes the user, the address and the settings).
"""
import math
import time
from dataclasses import dataclass

MINUTE, DAY = 60, 86_400
clock = time.time  # the windows' clock (a test stops it)
SIGN_INS_PER_MINUTE = 10  # per client address
WRONG_PER_NAME_AND_ADDRESS = 10  # wrong passwords a minute for one name from one address
SLOW_AFTER = 20  # wrong passwords a minute for one name from every address, past which each attempt waits
SLOW_SECONDS = 1.0


@dataclass
class OverLimit(Exception):
    """A limit refuses the request; message says which and how to go on, retry_after is in seconds."""

    message: str
    retry_after: int


def _window(length: int, now: float) -> tuple[int, int]:
    """The current window's start and the whole seconds until it ends (at least 1)."""
    start = int(now // length) * length
    return start, max(1, int(start + length - now + 0.999))


def seen(store, key: str, length: int, amount: int = 1) -> tuple[float, int, int, float, int]:
    """Count amount more of key; (its count over the last length seconds, as the sliding window weighs it, this
    window's count, the previous one's, the share of this window gone, whole seconds left of it)."""
    now = clock()
    start, left = _window(length, now)
    current = store.count_use(key, start, amount, since=start - length)
    previous = store.count_use(key, start - length, 0, since=start - length)
    elapsed = (now - start) / length
    return current + previous * (1 - elapsed), current, previous, elapsed, left


def retry_after(most: int, current: int, previous: int, elapsed: float, left: int, length: int) -> int:
    """Whole seconds until one more request would pass: in this window as the previous one's share fades, else in
    the next as this one's does."""
    if previous and current + 1 <= most:
        wait = length * (1 - elapsed - (most - current - 1) / previous)
        if wait < left:
            return max(1, math.ceil(wait))
    share = max(0.0, 1 - (most - 1) / current) if current else 0.0
    return max(1, math.ceil(left + length * share))


def count(store, key: str, most: int, length: int, what: str, amount: int = 1) -> None:
    """Count amount more of key; OverLimit when the last length seconds hold more than most (0: no limit)."""
    if not most:
        return
    total, current, previous, elapsed, left = seen(store, key, length, amount)
    if total > most:
        span = "minute" if length == MINUTE else "day"
        wait = retry_after(most, current, previous, elapsed, left, length)
        raise OverLimit(f"{what} ({most:,} a {span}). Try again in {wait:,} seconds.", wait)


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


def _name(name: str) -> str:
    return name[:64].replace("\x00", "")  # PostgreSQL holds no NUL; the name with one is no one's anyway


def check_sign_in_name(store, name: str, address: str) -> float:
    """Before a password is checked: refused when this address has given WRONG_PER_NAME_AND_ADDRESS wrong passwords
    for the name in the last minute (its owner, elsewhere, is not); else the seconds to wait first, SLOW_SECONDS once
    the name has had SLOW_AFTER wrong passwords from every address (a name that does not exist is counted the same)."""
    total, current, previous, elapsed, left = seen(store, f"s:w:{_name(name)}:{address}", MINUTE, 0)
    if total >= WRONG_PER_NAME_AND_ADDRESS:
        wait = retry_after(WRONG_PER_NAME_AND_ADDRESS, current, previous, elapsed, left, MINUTE)
        raise OverLimit(f"Too many wrong passwords for this name from this address ({WRONG_PER_NAME_AND_ADDRESS} a "
                        f"minute). Try again in {wait:,} seconds.", wait)
    return SLOW_SECONDS if seen(store, f"s:wn:{_name(name)}", MINUTE, 0)[0] >= SLOW_AFTER else 0.0


def wrong_password(store, name: str, address: str) -> None:
    """Count a wrong password for the name, from the address and from every address."""
    start, _ = _window(MINUTE, clock())
    for key in (f"s:w:{_name(name)}:{address}", f"s:wn:{_name(name)}"):
        store.count_use(key, start, 1, since=start - MINUTE)
