"""Benchmark: the model-call layer against the OpenAI-compatible test server (in-process, 127.0.0.1).

Targets (the layer's speed requirements): 2,000 calls at concurrency 64 with 50 ms server latency finish within
1.3 × (2,000 × 0.05 / 64) + 1 s; with zero latency the layer sustains at least 500 calls/s; a
rerun of the same 2,000 calls from a warm cache takes at most 5 % of the cold time and sends no
request. The LiteLLM transport and the official ``openai`` async client (in place of the layer's
aiohttp client, same layer otherwise) are measured too, for the record (no target).

Run with ``pytest -m benchmark tests/benchmarks/bench_llm_layer.py -s`` or as a module:
``python -m tests.benchmarks.bench_llm_layer``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time

import pytest

from refusalbench.config import CacheConfig
from refusalbench.llm import CallSpec, LLMLayer
from refusalbench.llm.transport import _body, parse_openai_reply
from tests.benchmarks.targets import Figure, report_and_check
from tests.llm_server import LLMTestServer
from tests.support.configs import model_cfg_for

N = 2000
CONCURRENCY = 64
LATENCY_S = 0.05
COLD_BUDGET_S = 1.3 * (N * LATENCY_S / CONCURRENCY) + 1.0
MIN_RATE = 500.0
WARM_FRACTION = 0.05
LITELLM_N = 500


class OpenAISDKTransport:
    """The layer's transport interface over ``openai.AsyncOpenAI`` (its own retries off), for comparison."""

    def __init__(self) -> None:
        self._clients: dict = {}

    async def call(self, route, messages, response_format, api_key, timeout):
        import openai

        key = (id(asyncio.get_running_loop()), route.api_base)
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = openai.AsyncOpenAI(
                base_url=route.api_base, api_key=api_key or "EMPTY", max_retries=0
            )
        body = _body(route, messages, response_format)
        model, msgs = body.pop("model"), body.pop("messages")
        resp = await client.chat.completions.create(model=model, messages=msgs, extra_body=body, timeout=timeout)
        return parse_openai_reply(resp.model_dump())

    async def server_slots(self, api_base, timeout=2.0):
        return None

    async def aclose_current(self) -> None:
        loop_id = id(asyncio.get_running_loop())
        for key in [k for k in self._clients if k[0] == loop_id]:
            await self._clients.pop(key).close()


def _specs(prefix: str, n: int = N) -> list[CallSpec]:
    return [
        CallSpec(
            key=f"{prefix}{i}",
            template_version="bench@1:00000000",
            messages=[
                {"role": "system", "content": "Answer from the context only."},
                {"role": "user", "content": f"Context: passage {i}. Question {prefix} {i}?"},
            ],
        )
        for i in range(n)
    ]


def _timed(layer: LLMLayer, cfg, specs) -> tuple[float, list]:
    t0 = time.perf_counter()
    out = layer.run(cfg, specs, role="bench")
    return time.perf_counter() - t0, out


def measure() -> dict[str, float]:
    figures: dict[str, float] = {}
    with LLMTestServer() as server, tempfile.TemporaryDirectory() as tmp:
        cfg = model_cfg_for(server, max_concurrency=CONCURRENCY, timeout=30.0)
        with LLMLayer(CacheConfig(dir=tmp, mode="read_write"), progress=False) as layer:
            layer.run(cfg, _specs("warmup", 100), role="bench")  # imports, session, route

            server.latency = LATENCY_S
            server.max_in_flight = 0
            n0 = server.request_count
            cold, out = _timed(layer, cfg, _specs("cold"))
            assert all(c.ok for c in out)
            figures["cold_50ms_s"] = cold
            figures["cold_50ms_requests"] = server.request_count - n0
            figures["cold_50ms_max_in_flight"] = server.max_in_flight

            n0 = server.request_count
            warm, out = _timed(layer, cfg, _specs("cold"))
            assert all(c.cached for c in out)
            figures["warm_s"] = warm
            figures["warm_requests"] = server.request_count - n0
            figures["warm_fraction"] = warm / cold

            server.latency = 0.0
            zero, out = _timed(layer, cfg, _specs("zero"))
            assert all(c.ok for c in out)
            figures["zero_latency_s"] = zero
            figures["zero_latency_calls_per_s"] = N / zero

            figures.update(sdk_figures(server, tmp))

            lcfg = model_cfg_for(server, max_concurrency=CONCURRENCY, timeout=30.0, transport="litellm")
            layer.run(lcfg, _specs("lwarm", 50), role="bench")
            lt, out = _timed(layer, lcfg, _specs("litellm", LITELLM_N))
            assert all(c.ok for c in out)
            figures["litellm_zero_latency_calls_per_s"] = LITELLM_N / lt
    return figures


def sdk_figures(server: LLMTestServer, tmp: str) -> dict[str, float]:
    """The cold 50 ms run and the zero-latency rate with the openai SDK client as the transport."""
    out: dict[str, float] = {}
    cfg = model_cfg_for(server, max_concurrency=CONCURRENCY, timeout=30.0)
    with LLMLayer(CacheConfig(dir=f"{tmp}/sdk", mode="read_write"), progress=False) as layer:
        layer._http = OpenAISDKTransport()
        layer.run(cfg, _specs("sdkwarmup", 100), role="bench")
        server.latency = LATENCY_S
        cold, res = _timed(layer, cfg, _specs("sdkcold"))
        assert all(c.ok for c in res)
        out["sdk_cold_50ms_s"] = cold
        server.latency = 0.0
        zero, res = _timed(layer, cfg, _specs("sdkzero"))
        assert all(c.ok for c in res)
        out["sdk_zero_latency_calls_per_s"] = N / zero
    return out


def report(f: dict[str, float]) -> str:
    return "\n".join(
        [
            f"cold, 50 ms latency: {N} calls in {f['cold_50ms_s']:.2f} s (budget {COLD_BUDGET_S:.2f} s; "
            f"{int(f['cold_50ms_requests'])} requests, max {int(f['cold_50ms_max_in_flight'])} in flight)",
            f"warm cache rerun:    {f['warm_s']:.3f} s = {100 * f['warm_fraction']:.1f} % of cold "
            f"(budget {100 * WARM_FRACTION:.0f} %), {int(f['warm_requests'])} requests",
            f"zero latency:        {f['zero_latency_calls_per_s']:.0f} calls/s (target >= {MIN_RATE:.0f})",
            f"openai SDK client:   {N} calls at 50 ms in {f['sdk_cold_50ms_s']:.2f} s; "
            f"{f['sdk_zero_latency_calls_per_s']:.0f} calls/s at zero latency (for the record)",
            f"litellm transport:   {f['litellm_zero_latency_calls_per_s']:.0f} calls/s at zero latency "
            "(for the record)",
        ]
    )


@pytest.mark.benchmark
def test_llm_layer_benchmark():
    f = measure()
    print("\n" + report(f))
    assert f["cold_50ms_max_in_flight"] <= CONCURRENCY and f["warm_requests"] == 0  # correctness: hard
    report_and_check(
        [  # speed: soft targets, only a large regression fails
            Figure("cold, 50 ms latency", f["cold_50ms_s"], COLD_BUDGET_S),
            Figure("warm rerun / cold", f["warm_fraction"], WARM_FRACTION, unit=""),
            Figure("zero latency", f["zero_latency_calls_per_s"], MIN_RATE, unit="calls/s", higher_is_better=True),
        ]
    )


if __name__ == "__main__":
    print(report(measure()))
