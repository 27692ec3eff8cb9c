"""The in-flight bound, streaming without a batch barrier, the rpm pace, and resuming after a kill."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from refusalbench.llm import CallSpec
from tests.support.configs import model_cfg_for


def specs(n, prefix="q"):
    return [CallSpec(key=f"{prefix}{i}", messages=[{"role": "user", "content": f"{prefix} {i}"}]) for i in range(n)]


def cached_requests(cache_dir: Path) -> set[str]:
    """The user message of every finished (cached) call."""
    out = set()
    for path in cache_dir.rglob("*.json"):
        header, request = path.read_text().splitlines()
        assert json.loads(header)["response"]["text"]  # complete, never torn
        out.add(json.loads(request)["request"]["messages"][-1]["content"])
    return out


@pytest.mark.parametrize("bound", [1, 4, 16])
def test_in_flight_bound_holds(layer, test_server, bound):
    test_server.latency = 0.02
    out = layer.run(model_cfg_for(test_server, max_concurrency=bound), specs(48), role="generator")
    assert all(c.ok for c in out)
    assert test_server.max_in_flight == bound


def test_bound_is_shared_by_concurrent_runs_of_one_model(layer, test_server):
    test_server.latency = 0.02
    cfg = model_cfg_for(test_server, max_concurrency=3)

    async def both():
        return await asyncio.gather(
            layer.arun(cfg, specs(12, "a"), "generator"), layer.arun(cfg, specs(12, "b"), "verifier")
        )

    a, b = layer._run_sync(both())
    assert all(c.ok for c in a + b) and test_server.max_in_flight == 3


def test_slow_item_does_not_hold_back_others(layer, test_server):
    def responder(body):
        text = body["messages"][0]["content"]
        return {"content": "slow", "latency": 1.0} if text == "q 0" else {"content": "fast", "latency": 0.01}

    test_server.set_responder(responder)
    t0 = time.monotonic()
    out = layer.run(model_cfg_for(test_server, max_concurrency=2), specs(30), role="evaluated")
    assert all(c.ok for c in out)
    # all 29 fast requests arrive while the slow one is still being answered
    assert max(test_server.request_times) - t0 < 0.9


def test_rpm_paces_real_calls_only(make_layer, test_server):
    cfg = model_cfg_for(test_server, rpm=600, max_concurrency=8)  # one start per 0.1 s
    t0 = time.monotonic()
    make_layer().run(cfg, specs(5), role="generator")
    assert time.monotonic() - t0 >= 0.38
    t0 = time.monotonic()
    make_layer().run(cfg, specs(5), role="generator")  # cache hits: no pacing
    assert time.monotonic() - t0 < 0.3


async def test_cancelled_run_resumes_without_repeating_finished_items(make_layer, test_server, tmp_path):
    test_server.latency = 0.01
    cfg = model_cfg_for(test_server, max_concurrency=4)
    first = make_layer()
    task = asyncio.create_task(first.arun(cfg, specs(200), "generator"))
    while first.usage_summary()["total"]["calls"] < 40:
        await asyncio.sleep(0.005)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await first.aclose()
    finished = cached_requests(tmp_path / "cache")
    assert 40 <= len(finished) < 200
    test_server.reset()
    out = await asyncio.to_thread(make_layer().run, cfg, specs(200), "generator")
    assert all(c.ok for c in out)
    resent = {b["messages"][-1]["content"] for b in test_server.requests}
    assert not resent & finished and len(resent) == 200 - len(finished)


CHILD = textwrap.dedent("""
    from tests.support.configs import model_cfg_for
    from refusalbench.config import CacheConfig
    from refusalbench.llm import LLMLayer, CallSpec

    class Srv:
        url = {url!r}

    layer = LLMLayer(CacheConfig(dir={cache!r}), run_dir=None, progress=False)
    specs = [CallSpec(key=str(i), messages=[{{"role": "user", "content": f"q {{i}}"}}]) for i in range(300)]
    layer.run(model_cfg_for(Srv(), max_concurrency=4), specs, role="generator")
""")


def test_killed_process_resumes_without_repeating_finished_items(make_layer, test_server, tmp_path):
    test_server.latency = 0.02
    cache = tmp_path / "cache"
    code = CHILD.format(url=test_server.url, cache=str(cache))
    child = subprocess.Popen(
        [sys.executable, "-c", code], cwd=Path(__file__).parents[2], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while len(list(cache.rglob("*.json"))) < 30:
            assert child.poll() is None, child.stderr.read().decode()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    finished = cached_requests(cache)
    assert 30 <= len(finished) < 300
    test_server.reset()
    out = make_layer().run(
        model_cfg_for(test_server, max_concurrency=8),
        [CallSpec(key=str(i), messages=[{"role": "user", "content": f"q {i}"}]) for i in range(300)],
        role="generator",
    )
    assert all(c.ok for c in out)
    resent = {b["messages"][-1]["content"] for b in test_server.requests}
    assert not resent & finished and len(resent) == 300 - len(finished)
