"""The one retry layer of the model providers: bounded retries with backoff, a circuit breaker, the last call.

Every hosted writer (hosted.py) runs its HTTP calls through a Guard. A call that fails with a transient
failure (timeout, connection error, HTTP 408/429/500/502/503/504, Anthropic's 529) is tried again after
an exponential backoff with full jitter, or after the server's Retry-After when it sent one (capped).
Repeated failures of the provider (not a request's own refusals, such as an unknown model's 404) open
the writer's CircuitBreaker: for a cooldown every call fails at once, then a
single trial call decides whether it closes again. The SDKs' own retries are turned off, so a request is
retried here and nowhere else.
It does not know any SDK: each writer says which of its exceptions are transient (`classify`).
"""
import email.utils
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass

from writers.writer import ProviderError

log = logging.getLogger(__name__)

TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504, 529})  # 529: Anthropic "overloaded"
# Refusals of one request (a bad argument, an unknown model): they never open the circuit for everyone.
# A 400 is not among them: Gemini answers a bad API key with one, and that is everyone's problem.
REQUEST_FAULT_STATUS = frozenset({404, 409, 413, 422})


@dataclass(frozen=True)
class Failure:
    """What went wrong in one attempt, said without the exception's text (it may carry secrets)."""

    reason: str  # short, e.g. "HTTP 503" or "timed out"
    transient: bool  # trying again may help
    retry_after: float | None = None  # seconds the server asked us to wait
    provider_fault: bool = True  # False: the request was at fault (an unknown model's 404), which says nothing of the provider


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a call is retried."""

    retries: int = 2  # attempts after the first
    base_delay: float = 0.5  # seconds; the n-th retry waits up to base_delay * 2**n
    max_delay: float = 8.0
    retry_after_cap: float = 10.0  # never wait longer than this for a Retry-After


def status_failure(status: int, headers=None) -> Failure:
    """The Failure for an HTTP error status, with the server's Retry-After when it sent one."""
    return Failure(f"HTTP {status}", status in TRANSIENT_STATUS, retry_after(headers) if headers else None,
                   status not in REQUEST_FAULT_STATUS)


def retry_after(headers) -> float | None:
    """Seconds from a retry-after-ms or Retry-After header (seconds or an HTTP date); None when absent or bad."""
    try:
        if headers.get("retry-after-ms"):
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class CircuitBreaker:
    """Opens after `threshold` failed calls in a row; after `cooldown` seconds lets one trial call through."""

    def __init__(self, threshold: int = 5, cooldown: float = 30.0, clock: Callable[[], float] = time.monotonic):
        self.threshold = threshold
        self.cooldown = cooldown
        self.clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self.trial = False  # a half-open trial call is under way
        self._lock = threading.Lock()

    @property
    def state(self) -> str:
        """"closed", "open" or "half_open"."""
        if self.opened_at is None:
            return "closed"
        return "half_open" if self.clock() - self.opened_at >= self.cooldown else "open"

    def admit(self) -> float | None:
        """Take a call: None if it may go ahead, else the seconds until the breaker lets one through."""
        with self._lock:
            state = self.state
            if state == "closed":
                return None
            if state == "half_open" and not self.trial:
                self.trial = True
                return None
            return max(0.0, self.opened_at + self.cooldown - self.clock())

    def release(self) -> None:
        """An admitted call ended without saying anything of the provider: a trial may be made again."""
        with self._lock:
            self.trial = False

    def record(self, ok: bool) -> None:
        """The outcome of an admitted call: success closes the breaker, a failure counts towards opening it."""
        with self._lock:
            was_trial, self.trial = self.trial, False
            if ok:
                self.failures, self.opened_at = 0, None
                return
            self.failures += 1
            if was_trial or self.failures >= self.threshold:
                self.opened_at = self.clock()


class Guard:
    """Runs one writer's calls with retries and its circuit breaker, and remembers how the last call went."""

    def __init__(self, label: str, classify: Callable[[Exception], Failure | None], policy: RetryPolicy | None = None,
                 breaker: CircuitBreaker | None = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, rng: Callable[[], float] = random.random):
        self.label = label  # how errors name the provider: "Claude", "Gemini", ...
        self.classify = classify
        self.policy = policy or RetryPolicy()
        self.breaker = breaker or CircuitBreaker(clock=clock)
        self.sleep = sleep
        self.clock = clock
        self.rng = rng
        self.last_call: dict | None = None
        self.publish: Callable[[dict], None] | None = None  # told status() after every call (shared health)

    def call(self, fn: Callable[[], object]):
        """fn(), retried while it fails transiently; a failure that remains becomes a ProviderError."""
        def once():
            yield fn()

        (result,) = self.stream(once)
        return result

    def stream(self, open_stream: Callable[[], Iterator]) -> Iterator:
        """Yield what open_stream() yields; retried only while nothing has been yielded (text already sent
        cannot be taken back). Closing this generator closes the provider's stream."""
        wait = self.breaker.admit()
        if wait is not None:
            raise ProviderError(f"{self.label}: temporarily disabled after repeated failures; retrying in {wait:.0f}s")
        started = self.clock()
        attempt = 0
        while True:
            produced = False
            try:
                with closing(open_stream()) as items:
                    for item in items:
                        produced = True
                        yield item
                self._finish(started, None)
                return
            except GeneratorExit:  # the consumer stopped reading: the provider was answering
                self._finish(started, None)
                raise
            except ProviderError as exc:  # the writer judged the reply itself (e.g. not the requested JSON)
                self._finish(started, str(exc))
                raise
            except Exception as exc:
                failure = self.classify(exc)
                if failure is None:  # not a provider failure: a bug, which must reach the log as one
                    self._finish(started, f"{self.label}: {type(exc).__name__}", counts=False)
                    raise
                if produced or not failure.transient or attempt >= self.policy.retries:
                    tries = f" after {attempt + 1} attempts" if attempt else ""
                    message = f"{self.label}: {failure.reason}{tries}"
                    self._finish(started, message, counts=failure.provider_fault)
                    raise ProviderError(message) from exc
                delay = self.delay(attempt, failure.retry_after)
                log.info("%s: %s; retry %d of %d in %.2fs", self.label, failure.reason, attempt + 1,
                         self.policy.retries, delay)
                self.sleep(delay)
                attempt += 1

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds before retry number attempt+1: the server's Retry-After (capped), else full jitter."""
        if retry_after is not None:
            return min(retry_after, self.policy.retry_after_cap)
        return self.rng() * min(self.policy.max_delay, self.policy.base_delay * 2 ** attempt)

    def _finish(self, started: float, error: str | None, counts: bool = True) -> None:
        """Record a call's outcome for status(), and for the breaker unless the failure was not the provider's."""
        if error is None or counts:
            self.breaker.record(error is None)
        else:
            self.breaker.release()
        self.last_call = {"ok": error is None, "at": time.time(), "error": error,
                          "ms": round((self.clock() - started) * 1000, 1)}
        if self.publish is not None:
            try:
                self.publish(self.status())
            except Exception:  # noqa: BLE001 - health bookkeeping must never fail an answer
                log.exception("%s: could not share the provider's state", self.label)

    def status(self) -> dict:
        """The breaker's state and the last call, for /api/health; while open, when (wall clock) it lets a trial in."""
        state = {"circuit": self.breaker.state, "last_call": self.last_call}
        if state["circuit"] == "open":
            state["retry_at"] = time.time() + max(0.0, self.breaker.opened_at + self.breaker.cooldown - self.clock())
        return state
