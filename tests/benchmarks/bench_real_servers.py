"""Benchmark: the model-call layer against servers as users run them (test server, 127.0.0.1 only).

1. A slow server with few slots: the test server works on 2 requests at a time (0.3 s each), the
   model is configured for 16 at once with a 2 s timeout, shorter than the 2.4 s a request would
   wait in a queue of 16. Ideal wall: 40 × 0.3 / 2 = 6 s. Targets: every item succeeds, at most
   10 % repeated requests, wall at most 1.4 × ideal. Measured twice: the server reports its slots
   (llama.cpp's ``GET /props``), and the server says nothing (the adaptive bound finds it).
2. An unreachable ``api_base``: a whole ``refusalbench pipeline=evaluate`` process over 400 items.
   Target: a non-zero exit within 30 s.

Run with ``pytest -m benchmark tests/benchmarks/bench_real_servers.py -s`` or as a module:
``python -m tests.benchmarks.bench_real_servers``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from refusalbench.config import CacheConfig
from refusalbench.llm import CallSpec, LLMLayer
from refusalbench.llm.servers import free_port
from tests.llm_server import LLMTestServer
from tests.support.configs import model_cfg_for

SLOTS, LATENCY_S, TIMEOUT_S, N_ITEMS, CONCURRENCY = 2, 0.3, 2.0, 40, 16
IDEAL_S = N_ITEMS * LATENCY_S / SLOTS
MAX_REPEATS, MAX_WALL_RATIO = 0.10, 1.4
UNREACHABLE_ITEMS, UNREACHABLE_BUDGET_S = 400, 30.0


def _specs(prefix: str) -> list[CallSpec]:
    return [
        CallSpec(key=f"{prefix}{i}", messages=[{"role": "user", "content": f"{prefix} question {i}"}])
        for i in range(N_ITEMS)
    ]


def slow_server(report_slots: bool) -> dict[str, float]:
    with (
        LLMTestServer(latency=LATENCY_S, slots=SLOTS, report_slots=report_slots) as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        cfg = model_cfg_for(server, max_concurrency=CONCURRENCY, timeout=TIMEOUT_S, max_retries=6)
        with LLMLayer(CacheConfig(dir=tmp), progress=False) as layer:
            t0 = time.perf_counter()
            out = layer.run(cfg, _specs("slow"), role="generator")
            wall = time.perf_counter() - t0
        return {
            "ok": sum(c.ok for c in out),
            "requests": server.request_count,
            "wall_s": wall,
            "repeat_fraction": (server.request_count - N_ITEMS) / N_ITEMS,
            "wall_ratio": wall / IDEAL_S,
        }


def benchmark_file(path: Path, n: int) -> None:
    from tests.support.evaluation import nq_benchmark

    items = [(f"x{i}", "P-MissingInfo", "LOW" if i % 2 else "HIGH", [f"answer {i}"], "") for i in range(n)]
    nq_benchmark(items).to_json(path, orient="records", lines=True)


def unreachable() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        bench = Path(tmp) / "bench.jsonl"
        benchmark_file(bench, UNREACHABLE_ITEMS)
        cmd = [
            sys.executable,
            "-m",
            "refusalbench",
            "pipeline=evaluate",
            "dataset=refusalbench_nq",
            f"dataset.path={bench}",
            "model=openai_compatible",
            "model.name=m",
            f"model.api_base=http://127.0.0.1:{free_port()}/v1",
            "judge=deterministic",
            f"cache.dir={Path(tmp) / 'cache'}",
            "tracking=off",
            f"hydra.run.dir={Path(tmp) / 'run'}",
        ]
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=600, env=env)
        wall = time.perf_counter() - t0
        last = [line for line in proc.stderr.splitlines() if line.startswith("refusalbench: error")]
        return {"rc": proc.returncode, "wall_s": wall, "message": last[-1] if last else proc.stderr[-500:]}


def measure() -> dict:
    return {"reported": slow_server(True), "unreported": slow_server(False), "unreachable": unreachable()}


def report(f: dict) -> str:
    lines = [
        f"slow server ({SLOTS} slots × {LATENCY_S} s, timeout {TIMEOUT_S} s, {N_ITEMS} items at concurrency "
        f"{CONCURRENCY}; ideal {IDEAL_S:.1f} s):"
    ]
    for name in ("reported", "unreported"):
        r = f[name]
        lines.append(
            f"  slots {name:10s}: {r['ok']}/{N_ITEMS} ok, {r['requests']} requests "
            f"({100 * r['repeat_fraction']:.0f} % repeated, target <= {100 * MAX_REPEATS:.0f} %), "
            f"wall {r['wall_s']:.2f} s = {r['wall_ratio']:.2f} × ideal (target <= {MAX_WALL_RATIO})"
        )
    u = f["unreachable"]
    lines.append(
        f"unreachable api_base, {UNREACHABLE_ITEMS} items, whole process: exit {u['rc']} after "
        f"{u['wall_s']:.1f} s (target non-zero within {UNREACHABLE_BUDGET_S:.0f} s)"
    )
    lines.append(f"  {u['message'][:300]}")
    return "\n".join(lines)


@pytest.mark.benchmark
def test_real_server_benchmark():
    f = measure()
    print("\n" + report(f))
    for name in ("reported", "unreported"):
        r = f[name]
        assert r["ok"] == N_ITEMS
        assert r["repeat_fraction"] <= MAX_REPEATS and r["wall_ratio"] <= MAX_WALL_RATIO
    assert f["unreachable"]["rc"] != 0 and f["unreachable"]["wall_s"] <= UNREACHABLE_BUDGET_S


if __name__ == "__main__":
    print(report(measure()))
