"""The circuit breaker: an unreachable or refusing endpoint stops the stage in seconds, finished calls kept."""

from __future__ import annotations

import time

import pytest

from refusalbench.errors import UserError
from refusalbench.llm import CallSpec
from refusalbench.llm.breaker import CircuitBreaker, EndpointUnavailable
from refusalbench.llm.retry import CallError
from refusalbench.llm.servers import free_port
from tests.support.configs import model_cfg_for


def specs(n, prefix="q"):
    return [CallSpec(key=f"{prefix}{i}", messages=[{"role": "user", "content": f"{prefix} {i}"}]) for i in range(n)]


class Nowhere:
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens here


def test_unreachable_endpoint_stops_within_seconds(make_layer):
    from refusalbench.llm import RetryPolicy

    layer = make_layer(retry_policy=RetryPolicy())  # the default backoff, as a user gets it
    t0 = time.monotonic()
    with pytest.raises(EndpointUnavailable) as info:
        layer.run(model_cfg_for(Nowhere, max_concurrency=8, max_retries=6), specs(400), role="evaluated")
    assert time.monotonic() - t0 < 15
    msg = str(info.value)
    assert Nowhere.url in msg and "listening" in msg and "running the same command again resumes" in msg
    assert isinstance(info.value, UserError)


def test_refusing_endpoint_stops_and_keeps_finished_calls(make_layer, test_server):
    cfg = model_cfg_for(test_server, max_concurrency=4)
    make_layer().run(cfg, specs(10), role="judge")  # finished and cached
    test_server.set_responder(lambda body: {"status": 401, "message": "invalid key"})
    with pytest.raises(EndpointUnavailable, match="API key") as info:
        make_layer().run(cfg, specs(200), role="judge")
    assert "10 of 200 calls answered (10 from the cache)" in str(info.value)
    assert test_server.request_count - 10 < 40  # stopped after a few rounds, not 190 refusals


def test_item_specific_failures_never_trip(layer, test_server):
    test_server.set_responder(lambda body: {"status": 400, "message": "bad prompt"})
    out = layer.run(model_cfg_for(test_server, max_concurrency=2), specs(30), role="generator")
    assert all(c.error.startswith("BadRequestError") for c in out)


def test_a_success_resets_the_count():
    b = CircuitBreaker("http://x")
    down = CallError("APIConnectionError", "refused", retryable=True)
    for _ in range(2):
        b.record_failure(down, time.monotonic(), "m")
    b.record_success()
    for _ in range(2):
        b.record_failure(down, time.monotonic(), "m")
    b.check()  # 2 rounds in a row since the success: still closed
    b.record_failure(down, time.monotonic(), "m")
    with pytest.raises(EndpointUnavailable, match="nothing answers"):
        b.check()


def test_concurrent_failures_are_one_round():
    b = CircuitBreaker("http://x")
    started = time.monotonic()
    for _ in range(50):  # 50 requests sent together, all refused: one round
        b.record_failure(CallError("AuthenticationError", "no", status=401), started, "m")
    assert b.rounds == 1 and b.tripped is None


def test_trip_message_never_shows_the_key(make_layer, test_server, monkeypatch):
    monkeypatch.setenv("RB_TEST_KEY", "sk-very-secret-123")
    test_server.set_responder(lambda body: {"status": 401, "echo_auth": True})
    with pytest.raises(EndpointUnavailable) as info:
        make_layer().run(
            model_cfg_for(test_server, api_key_env="RB_TEST_KEY", max_concurrency=2), specs(40), role="judge"
        )
    assert "sk-very-secret-123" not in str(info.value) and "***" in str(info.value)
    assert test_server.url in str(info.value)
