"""Benchmark: two concurrent evaluations with the same embedded model share one llama.cpp server.

Runs ``refusalbench pipeline=evaluate`` with the default local model (Qwen2.5-0.5B, embedded) on
8 items as a whole process: once alone, then twice at the same time (separate caches, so both
really ask the model). Target: each concurrent run takes at most 2.5 × the run alone. Needs the
prefetched embedded model; the machine's other load shows in the figures (prefer the ratio).

Run with ``pytest -m benchmark tests/benchmarks/bench_embedded_sharing.py -s`` or as a module:
``python -m tests.benchmarks.bench_embedded_sharing``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

N_ITEMS = 8
MAX_RATIO = 2.5


def write_benchmark(path: Path) -> None:
    from tests.support.evaluation import nq_benchmark

    items = [(f"s{i}", "P-MissingInfo", "LOW" if i % 2 else "HIGH", [f"answer {i}"], "") for i in range(N_ITEMS)]
    nq_benchmark(items).to_json(path, orient="records", lines=True)


def command(tmp: Path, bench: Path, name: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "refusalbench",
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "judge=deterministic",
        "tracking=off",
        f"cache.dir={tmp / name / 'cache'}",
        f"hydra.run.dir={tmp / name / 'run'}",
        "pipeline.stages=[evaluate]",
    ]


def timed_runs(tmp: Path, bench: Path, names: list[str]) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen(
            command(tmp, bench, n), cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        for n in names
    ]
    walls = []
    for proc in procs:
        _, err = proc.communicate(timeout=1800)
        assert proc.returncode == 0, err[-2000:]
        walls.append(time.perf_counter() - t0)
    return walls


def measure() -> dict:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        bench = tmp / "bench.jsonl"
        write_benchmark(bench)
        [alone] = timed_runs(tmp, bench, ["alone"])
        together = timed_runs(tmp, bench, ["a", "b"])
    return {"alone_s": alone, "together_s": together, "ratios": [t / alone for t in together]}


def report(f: dict) -> str:
    a, b = f["together_s"]
    return (
        f"embedded evaluation of {N_ITEMS} items, whole process: alone {f['alone_s']:.1f} s; two at once "
        f"{a:.1f} s and {b:.1f} s = {f['ratios'][0]:.2f} × and {f['ratios'][1]:.2f} × alone "
        f"(target <= {MAX_RATIO} ×)"
    )


@pytest.mark.benchmark
@pytest.mark.slow
def test_embedded_sharing_benchmark():
    f = measure()
    print("\n" + report(f))
    assert max(f["ratios"]) <= MAX_RATIO


if __name__ == "__main__":
    print(report(measure()))
