"""The one retry layer: backoff with jitter, Retry-After, the circuit breaker and the last call, first with a fake
clock, then over real HTTP for each provider (429/503 retried a bounded number of times, 400 not, timeouts, the
breaker refusing without a request)."""
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from writers.resilience import CircuitBreaker, Failure, Guard, RetryPolicy, retry_after
from writers.writer import ProviderError


class Clock:
    """A clock that moves only when something sleeps on it (or a test says so)."""

    def __init__(self):
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


class Busy(Exception):
    """What a fake provider raises; the guard learns from classify() what it means."""

    def __init__(self, status: int, retry_after: float | None = None):
        self.status = status
        self.retry_after = retry_after


def classify(exc: Exception) -> Failure | None:
    """Busy is a provider failure, transient for 429/503; anything else is a bug."""
    if isinstance(exc, Busy):
        return Failure(f"HTTP {exc.status}", exc.status in (429, 503), exc.retry_after)
    return None


def guard(clock: Clock, retries=3, threshold=3, cooldown=30.0, rng=lambda: 1.0) -> Guard:
    """A Guard on the fake clock; rng 1.0 makes every backoff its ceiling."""
    return Guard("Fake", classify, RetryPolicy(retries, base_delay=0.5, max_delay=3.0, retry_after_cap=5.0),
                 CircuitBreaker(threshold, cooldown, clock), sleep=clock.sleep, clock=clock, rng=rng)


def replies(*outcomes):
    """A provider call that raises or returns each outcome in turn; .calls counts the calls."""
    queue = list(outcomes)

    def call():
        call.calls += 1
        outcome = queue.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    call.calls = 0
    return call


def test_transient_failures_are_retried_with_growing_capped_backoff():
    clock = Clock()
    call = replies(Busy(503), Busy(429), Busy(503), "ok")
    assert guard(clock).call(call) == "ok"
    assert call.calls == 4 and clock.slept == [0.5, 1.0, 2.0]


def test_backoff_is_full_jitter_below_its_ceiling():
    clock = Clock()
    draws = iter([0.0, 0.5, 0.25])
    guard(clock, rng=lambda: next(draws)).call(replies(Busy(503), Busy(503), Busy(503), "ok"))
    assert clock.slept == [0.0, 0.5, 0.5]  # 0 * 0.5, 0.5 * 1.0, 0.25 * 2.0


def test_backoff_never_exceeds_max_delay():
    clock = Clock()
    g = guard(clock, retries=6, threshold=10)
    g.call(replies(*[Busy(503)] * 6, "ok"))
    assert clock.slept == [0.5, 1.0, 2.0, 3.0, 3.0, 3.0]


def test_retries_are_bounded_then_a_provider_error_says_how_many():
    clock = Clock()
    call = replies(*[Busy(503)] * 10)
    with pytest.raises(ProviderError, match=r"^Fake: HTTP 503 after 4 attempts$"):
        guard(clock, threshold=10).call(call)
    assert call.calls == 4 and len(clock.slept) == 3


def test_retry_after_is_honoured_and_capped():
    clock = Clock()
    guard(clock).call(replies(Busy(429, retry_after=1.5), Busy(429, retry_after=60.0), "ok"))
    assert clock.slept == [1.5, 5.0]


def test_a_lasting_failure_is_not_retried():
    clock = Clock()
    call = replies(Busy(400), "ok")
    with pytest.raises(ProviderError, match=r"^Fake: HTTP 400$"):
        guard(clock).call(call)
    assert call.calls == 1 and clock.slept == []


def test_a_bug_is_not_retried_nor_disguised():
    clock = Clock()
    g = guard(clock)
    with pytest.raises(KeyError):
        g.call(replies(KeyError("choices"), "ok"))
    assert g.last_call["ok"] is False and g.last_call["error"] == "Fake: KeyError"


def test_a_provider_error_of_the_writer_is_not_retried():
    clock = Clock()
    call = replies(ProviderError("Fake: the reply was not the requested JSON"), "ok")
    g = guard(clock)
    with pytest.raises(ProviderError, match="not the requested JSON"):
        g.call(call)
    assert call.calls == 1 and g.last_call["error"] == "Fake: the reply was not the requested JSON"


def test_breaker_opens_after_repeated_failures_and_refuses_without_calling():
    clock = Clock()
    g = guard(clock, retries=0, threshold=3, cooldown=30.0)
    for _ in range(3):
        with pytest.raises(ProviderError, match="HTTP 503"):
            g.call(replies(Busy(503)))
    assert g.status()["circuit"] == "open"
    clock.now += 12
    call = replies("ok")
    with pytest.raises(ProviderError, match=r"^Fake: temporarily disabled after repeated failures; retrying in 18s$"):
        g.call(call)
    assert call.calls == 0


def test_a_success_resets_the_count_of_failures():
    clock = Clock()
    g = guard(clock, retries=0, threshold=2)
    for outcome in (Busy(503), "ok", Busy(503), "ok", Busy(503)):
        try:
            g.call(replies(outcome))
        except ProviderError:
            pass
    assert g.status()["circuit"] == "closed"


def test_half_open_breaker_lets_one_trial_through_and_closes_on_success():
    clock = Clock()
    breaker = CircuitBreaker(threshold=1, cooldown=10.0, clock=clock)
    assert breaker.admit() is None
    breaker.record(False)
    assert breaker.state == "open" and breaker.admit() == 10.0
    clock.now += 10
    assert breaker.state == "half_open"
    assert breaker.admit() is None  # the trial
    assert breaker.admit() == 0.0  # a second caller waits for the trial's outcome
    breaker.record(True)
    assert breaker.state == "closed" and breaker.admit() is None


def test_a_failed_trial_opens_the_breaker_for_another_cooldown():
    clock = Clock()
    breaker = CircuitBreaker(threshold=5, cooldown=10.0, clock=clock)
    for _ in range(5):
        breaker.record(False)
    clock.now += 10
    assert breaker.admit() is None
    breaker.record(False)
    assert breaker.state == "open" and breaker.admit() == 10.0


def test_last_call_reports_outcome_time_and_duration():
    clock = Clock()
    g = guard(clock, retries=1)
    assert g.status() == {"circuit": "closed", "last_call": None}

    def slow():
        clock.now += 0.25
        return "ok"

    before = time.time()
    g.call(slow)
    last = g.status()["last_call"]
    assert last["ok"] is True and last["error"] is None and last["ms"] == 250.0 and before <= last["at"] <= time.time()
    with pytest.raises(ProviderError):
        g.call(replies(Busy(503), Busy(503)))
    assert g.status()["last_call"] | {"at": 0} == {"ok": False, "at": 0, "error": "Fake: HTTP 503 after 2 attempts",
                                                  "ms": 500.0}


def test_a_stream_is_retried_only_before_it_has_produced_anything():
    clock = Clock()
    opened = []

    def open_stream():
        opened.append(1)
        if len(opened) == 1:
            raise Busy(503)
        yield "a"
        if len(opened) == 2:
            raise Busy(503)  # after "a" went out: retrying would send it twice
        yield "b"

    g = guard(clock)
    stream = g.stream(open_stream)
    assert next(stream) == "a"
    with pytest.raises(ProviderError, match=r"^Fake: HTTP 503 after 2 attempts$"):
        next(stream)
    assert len(opened) == 2


def test_closing_a_stream_closes_the_provider_stream_and_counts_as_answered():
    clock = Clock()
    closed = []

    def open_stream():
        try:
            yield from "abcdef"
        finally:
            closed.append(True)

    g = guard(clock)
    stream = g.stream(open_stream)
    assert [next(stream), next(stream)] == ["a", "b"]
    stream.close()
    assert closed == [True] and g.last_call["ok"] is True


def test_an_open_breaker_refuses_a_stream_at_its_first_read():
    clock = Clock()
    g = guard(clock, retries=0, threshold=1)
    with pytest.raises(ProviderError):
        g.call(replies(Busy(503)))
    with pytest.raises(ProviderError, match="temporarily disabled"):
        next(g.stream(lambda: iter(["never"])))


@pytest.mark.parametrize("headers, expected", [
    ({"retry-after": "3"}, 3.0),
    ({"retry-after": "0.5"}, 0.5),
    ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
    ({"retry-after": "soon"}, None),
    ({}, None),
])
def test_retry_after_header_values(headers, expected):
    assert retry_after(headers) == expected


def test_retry_after_as_an_http_date():
    when = datetime.now(timezone.utc) + timedelta(seconds=20)
    assert 18 <= retry_after({"retry-after": format_datetime(when, usegmt=True)}) <= 20
