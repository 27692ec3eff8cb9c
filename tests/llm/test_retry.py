"""Retry vs fail-fast, Retry-After, timeouts, malformed bodies, and a flaky server run."""

from __future__ import annotations

import logging
import random
import threading
import time

import pytest

from refusalbench.llm import CallSpec, RetryPolicy
from refusalbench.llm.retry import CallError, classify, http_error, parse_retry_after
from tests.support.configs import model_cfg_for


def one(text="q"):
    return [CallSpec(key="k", messages=[{"role": "user", "content": text}])]


@pytest.mark.parametrize(
    "fault",
    [
        {"status": 429, "retry_after": 0},
        {"status": 500},
        {"status": 502},
        {"status": 503},
        {"fault": "malformed"},
        {"fault": "drop"},
        {"content": "x", "status": 504},
    ],
)
def test_retryable_faults_are_retried(layer, test_server, fault):
    test_server.script([fault, fault])
    [c] = layer.run(model_cfg_for(test_server), one(), role="generator")
    assert c.ok and c.text == "reply: q"
    assert test_server.request_count == 3


def test_timeout_is_retried(layer, test_server):
    test_server.script([{"fault": "hang", "seconds": 3}])
    t0 = time.monotonic()
    [c] = layer.run(model_cfg_for(test_server, timeout=0.3), one(), role="generator")
    assert c.ok and test_server.request_count == 2
    assert time.monotonic() - t0 < 2.0


@pytest.mark.parametrize(
    "fault,kind",
    [
        ({"status": 401, "message": "invalid key"}, "AuthenticationError"),
        ({"status": 403}, "PermissionDeniedError"),
        ({"status": 400, "message": "unknown parameter foo"}, "BadRequestError"),
        (
            {"status": 400, "message": "This model's maximum context length is 4096 tokens"},
            "ContextWindowExceededError",
        ),
        ({"status": 404}, "NotFoundError"),
        ({"status": 429, "message": "You exceeded your current quota"}, "RateLimitError"),
    ],
)
def test_non_retryable_faults_fail_at_once(layer, test_server, fault, kind):
    test_server.script([fault])
    [c] = layer.run(model_cfg_for(test_server), one(), role="generator")
    assert not c.ok and c.error.startswith(f"{kind}: ")
    assert test_server.request_count == 1


def test_gives_up_after_max_retries(layer, test_server):
    test_server.set_responder(lambda body: {"status": 503})
    [c] = layer.run(model_cfg_for(test_server, max_retries=2), one(), role="generator")
    assert c.error.startswith("ServiceUnavailableError") and "gave up after 3 attempts" in c.error
    assert test_server.request_count == 3
    assert layer.usage_summary()["total"]["retries"] == 2


def test_retry_after_is_honoured(make_layer, test_server):
    layer = make_layer(retry_policy=RetryPolicy(base_delay=0.001, max_delay=0.002))
    test_server.script([{"status": 429, "retry_after": 0.5}])
    [c] = layer.run(model_cfg_for(test_server), one(), role="generator")
    assert c.ok
    gap = test_server.request_times[1] - test_server.request_times[0]
    assert 0.5 <= gap < 1.5


def test_flaky_server_run_completes_with_counts(make_layer, test_server, caplog):
    rng = random.Random(0)
    lock = threading.Lock()

    def flaky(body):
        with lock:
            r = rng.random()
        if r < 0.1:
            return {"status": 429, "retry_after": 0}
        if r < 0.2:
            return {"status": 500}
        if r < 0.25:
            return {"fault": "malformed"}
        if r < 0.28:
            return {"status": 400, "message": "rejected"}
        return f"ok {body['messages'][0]['content']}"

    test_server.set_responder(flaky)
    caplog.set_level(logging.INFO, logger="refusalbench")
    specs = [CallSpec(key=str(i), messages=[{"role": "user", "content": str(i)}]) for i in range(200)]
    out = make_layer().run(model_cfg_for(test_server, max_retries=8, max_concurrency=16), specs, role="generator")
    assert len(out) == 200 and all((c.ok and c.text == f"ok {i}") or c.error for i, c in enumerate(out))
    failed = sum(not c.ok for c in out)
    assert 0 < failed < 30 and all(c.error.startswith("BadRequestError") for c in out if not c.ok)
    assert f"200 calls: {200 - failed} ok" in caplog.text and f"{failed} failed" in caplog.text


# ---- classification units -----------------------------------------------------------------------
def test_parse_retry_after_forms():
    assert parse_retry_after({"Retry-After": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "1500"}) == 1.5
    assert parse_retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None


def test_http_error_classification():
    assert http_error(429, "slow down", {"Retry-After": "3"}).retry_after == 3.0
    assert http_error(500, "x").retryable and http_error(408, "x").retryable
    assert not http_error(401, "x").retryable and not http_error(422, "x").retryable


def test_litellm_exception_classification():
    import litellm

    def make(cls, **kw):
        return cls(message="m", llm_provider="openai", model="gpt", **kw)

    assert classify(make(litellm.RateLimitError)).retryable
    assert classify(make(litellm.InternalServerError)).retryable
    assert classify(make(litellm.ServiceUnavailableError)).retryable
    assert classify(make(litellm.APIConnectionError)).retryable
    assert classify(make(litellm.Timeout)).retryable
    assert not classify(make(litellm.AuthenticationError)).retryable
    assert not classify(make(litellm.BadRequestError)).retryable
    ctx = classify(make(litellm.ContextWindowExceededError))
    assert not ctx.retryable and ctx.kind == "ContextWindowExceededError"
    assert not classify(make(litellm.NotFoundError)).retryable


def test_local_bugs_are_not_retried():
    assert not classify(TypeError("oops")).retryable
    assert classify(TimeoutError()).retryable
    err = CallError("X", "y", retryable=True)
    assert classify(err) is err


def test_backoff_is_exponential_capped_and_jittered():
    p = RetryPolicy(base_delay=1.0, max_delay=8.0, jitter=0.5)
    for failures, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
        d = [p.delay(failures) for _ in range(50)]
        assert all(ceiling * 0.5 <= x <= ceiling for x in d) and len(set(d)) > 1
    assert 3.0 <= p.delay(1, retry_after=3.0) <= 3.3
    assert p.delay(1, retry_after=10_000) <= p.max_retry_after * 1.1
