"""The adaptive in-flight bound: AIMD rules, the slots a server reports, timeouts at lower pressure."""

from __future__ import annotations

import asyncio
import logging

from refusalbench.llm import CallSpec
from refusalbench.llm.limits import AdaptiveLimit
from tests.llm_server import LLMTestServer
from tests.support.configs import model_cfg_for


def specs(n, prefix="q"):
    return [CallSpec(key=f"{prefix}{i}", messages=[{"role": "user", "content": f"{prefix} {i}"}]) for i in range(n)]


async def test_halves_once_per_window_and_grows_by_one_per_window():
    lim = AdaptiveLimit(16)
    tickets = [await lim.acquire() for _ in range(16)]
    for t in tickets:  # a burst of 16 timeouts from one window is one signal
        lim.on_overload(t)
    assert lim.current == 8 and lim.decreases == 1
    for _ in range(16):
        lim.release()
    late = await lim.acquire()
    lim.on_overload(late)  # admitted after the halving: a new signal
    assert lim.current == 4
    lim.release()
    t = await lim.acquire()
    lim.release()
    for _ in range(5):  # about one window of timely replies adds one request
        lim.on_success(t, latency=0.1, timeout=1.0)
    assert lim.current == 5
    for _ in range(500):
        lim.on_success(t, latency=0.1, timeout=1.0)
    assert lim.current == 16  # never above the ceiling
    lim.on_success(t, latency=0.6, timeout=1.0)  # 6 × the fastest reply and over half the timeout: queued
    assert lim.current == 8


async def test_slow_replies_hold_the_bound_and_queued_replies_shrink_it():
    lim = AdaptiveLimit(8)
    t = await lim.acquire()
    lim.on_overload(t)
    assert lim.current == 4
    t = await lim.acquire()
    for _ in range(50):  # every reply slow (more than half the timeout) but none queued: no growth, no cut
        lim.on_success(t, latency=0.6, timeout=1.0)
    assert lim.current == 4
    lim.on_success(t, latency=0.1, timeout=1.0)
    lim.on_success(t, latency=0.3, timeout=1.0)  # 3 × the fastest reply, under half the timeout: fine
    assert lim.current == 4
    lim.on_success(t, latency=0.9, timeout=1.0)  # 9 × the fastest and near the timeout: it waited in a queue
    assert lim.current == 2


async def test_first_window_admits_no_replacement_until_its_replies_are_back():
    lim = AdaptiveLimit(4)
    for _ in range(4):
        await lim.acquire()
    waiter = asyncio.create_task(lim.acquire())
    lim.release()  # one reply back: the server may still be queueing the other three
    await asyncio.sleep(0.01)
    assert not waiter.done()
    lim.release()  # half the first burst is back: the hold ends
    await asyncio.sleep(0.01)
    assert waiter.done() and lim.in_flight == 3
    trusted = AdaptiveLimit(2)
    trusted.trust()  # a stated capacity: finished requests are replaced at once
    await trusted.acquire()
    await trusted.acquire()
    trusted.release()
    await asyncio.wait_for(trusted.acquire(), 1)


async def test_waiters_are_admitted_in_order_within_the_bound():
    lim = AdaptiveLimit(2)
    a, b = await lim.acquire(), await lim.acquire()
    order = []

    async def wait(name):
        await lim.acquire()
        order.append(name)

    tasks = [asyncio.create_task(wait(n)) for n in "xyz"]
    await asyncio.sleep(0.01)
    assert order == [] and lim.in_flight == 2
    tasks[1].cancel()  # a cancelled waiter gives up its place
    lim.release()
    lim.release()
    await asyncio.sleep(0.01)
    assert order == ["x", "z"] and lim.in_flight == 2 and lim.max_in_flight == 2
    del a, b


def test_reported_slots_cap_the_bound(layer):
    with LLMTestServer(latency=0.05, slots=2, report_slots=True) as server:
        out = layer.run(model_cfg_for(server, max_concurrency=16), specs(20), role="generator")
        assert all(c.ok for c in out)
        assert server.max_in_flight == 2 and server.request_count == 20


def test_timeout_shorter_than_queue_backs_off_and_every_item_succeeds(layer, caplog):
    caplog.set_level(logging.INFO, logger="refusalbench")
    # 2 slots at 0.1 s each; 16 at once would wait up to 0.8 s in the queue; the timeout is 0.35 s
    with LLMTestServer(latency=0.1, slots=2) as server:
        cfg = model_cfg_for(server, max_concurrency=16, timeout=0.35, max_retries=6)
        out = layer.run(cfg, specs(60), role="generator")
        assert all(c.ok for c in out)
        repeats = server.request_count - 60
        assert 0 < repeats <= 24  # the first burst times out; afterwards the bound holds
        assert server.abandoned > 0  # timed-out requests were cancelled, not left queued at the server
    assert "concurrency settled at" in caplog.text


def test_timed_out_request_is_retried_with_a_longer_deadline(layer, test_server):
    test_server.script([{"fault": "hang", "seconds": 0.45}, {"fault": "hang", "seconds": 0.45}])
    [c] = layer.run(model_cfg_for(test_server, timeout=0.3), specs(1), role="generator")
    # 0.3 s times out, then 0.6 s is long enough for the same slow reply
    assert c.ok and test_server.request_count == 2
