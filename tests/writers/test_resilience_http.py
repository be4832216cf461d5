"""The retry layer over real HTTP for each provider: 429/503 retried a bounded number of times, 400 not, Retry-After
waited for, timeouts, unreachable servers, and an open breaker that answers without a request."""
import time

import pytest

from standin import ANSWER, PROVIDERS, StandIn, answer_body, answer_stream, error_body, make_writer
from writers.writer import ProviderError


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("status", [429, 503])
def test_busy_provider_is_retried_a_bounded_number_of_times(standin, request_, provider, status):
    standin.reply(status, error_body(status))
    writer = make_writer(provider, standin.url, retries=2)
    with pytest.raises(ProviderError, match=f"HTTP {status} after 3 attempts$"):
        writer.write(request_)
    assert len(standin.requests) == 3  # one try and two retries, never more: the SDK does not retry on its own


@pytest.mark.parametrize("provider", PROVIDERS)
def test_retry_recovers_after_a_transient_error(standin, request_, provider):
    standin.reply(503, error_body(503)).reply(529 if provider == "claude" else 502, error_body(502))
    standin.reply(200, answer_body(provider))
    assert make_writer(provider, standin.url, retries=2).write(request_).text == ANSWER
    assert len(standin.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_bad_request_is_not_retried(standin, request_, provider):
    standin.reply(400, error_body(400))
    with pytest.raises(ProviderError, match="HTTP 400$"):
        make_writer(provider, standin.url, retries=2).write(request_)
    assert len(standin.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_retry_after_from_the_provider_is_waited_for(standin, request_, provider):
    standin.reply(429, error_body(429), headers={"Retry-After": "0.3"}).reply(200, answer_body(provider))
    started = time.monotonic()
    make_writer(provider, standin.url, retries=1, backoff=0.0).write(request_)
    assert time.monotonic() - started >= 0.3 and len(standin.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_timeout_is_retried_then_a_provider_error(standin, request_, provider):
    standin.reply(200, answer_body(provider), delay=6.0)
    writer = make_writer(provider, standin.url, timeout=0.2, retries=1)
    started = time.monotonic()
    with pytest.raises(ProviderError, match="timed out after 2 attempts$"):
        writer.write(request_)
    # both attempts were cut off by the timeout, long before the stand-in would have answered once
    assert time.monotonic() - started < 5.0 and len(standin.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unreachable_provider_is_a_provider_error(request_, provider):
    server = StandIn()
    url = server.url
    server.close()  # nothing listens there any more
    with pytest.raises(ProviderError, match="could not connect after 2 attempts$"):
        make_writer(provider, url, retries=1).write(request_)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_open_breaker_answers_without_an_http_call(standin, request_, provider):
    standin.reply(503, error_body(503))
    writer = make_writer(provider, standin.url, retries=0, failures_to_open=2, cooldown=60.0)
    for _ in range(2):
        with pytest.raises(ProviderError, match="HTTP 503$"):
            writer.write(request_)
    with pytest.raises(ProviderError, match=r"temporarily disabled after repeated failures; retrying in 60s$"):
        writer.write(request_)
    with pytest.raises(ProviderError, match="temporarily disabled"):
        list(writer.stream(request_))
    assert len(standin.requests) == 2 and writer.status()["circuit"] == "open"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_breaker_tries_again_after_its_cooldown(standin, request_, provider):
    standin.reply(503, error_body(503)).reply(200, answer_body(provider))
    writer = make_writer(provider, standin.url, retries=0, failures_to_open=1, cooldown=0.2)
    with pytest.raises(ProviderError):
        writer.write(request_)
    assert writer.status()["circuit"] == "open"
    time.sleep(0.25)
    assert writer.status()["circuit"] == "half_open"
    assert writer.write(request_).text == ANSWER
    assert writer.status()["circuit"] == "closed" and len(standin.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_status_after_success_and_failure(standin, request_, provider):
    writer = make_writer(provider, standin.url, retries=1)
    assert writer.status() == {"name": provider, "model": writer.model, "models": [writer.model], "configured": True,
                               "circuit": "closed", "last_call": None}
    standin.reply(200, answer_body(provider)).reply(503, error_body(503))
    writer.write(request_)
    last = writer.status()["last_call"]
    assert last["ok"] is True and last["error"] is None and last["ms"] > 0 and abs(last["at"] - time.time()) < 5
    with pytest.raises(ProviderError):
        writer.write(request_)
    last = writer.status()["last_call"]
    assert last["ok"] is False and last["error"] == f"{writer.guard.label}: HTTP 503 after 2 attempts"
    assert "test-key" not in last["error"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_that_fails_before_its_first_delta_is_retried(standin, request_, provider):
    standin.reply(503, error_body(503)).reply(200, answer_stream(provider, words=2))
    *deltas, draft = make_writer(provider, standin.url, retries=1).stream(request_)
    assert deltas and draft.text.startswith("Word 0") and len(standin.requests) == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_request_the_provider_refuses_never_opens_the_breaker_for_everyone(standin, request_, provider):
    from dataclasses import replace

    standin.reply(404, error_body(404))  # "no-such-model": a 404 from the provider, which says nothing of its health
    writer = make_writer(provider, standin.url, retries=0, failures_to_open=2, cooldown=60.0)
    for _ in range(12):
        with pytest.raises(ProviderError, match="HTTP 404$"):
            writer.write(replace(request_, model="no-such-model"))
    assert writer.status()["circuit"] == "closed"
    standin.replies.clear()
    standin.reply(200, answer_body(provider))
    assert writer.write(request_).text == ANSWER  # the next reader is served
    assert len(standin.requests) == 13
