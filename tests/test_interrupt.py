"""Ctrl-C during evaluate: one line saying what finished and how to resume, no traceback, calls kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.evaluation import nq_benchmark

pytestmark = pytest.mark.integration  # a whole refusalbench process


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_during_evaluate_says_how_to_resume(tmp_path, test_server):
    # Slow enough that the whole run (300 calls, 4 at a time: ~40 s) cannot finish before the Ctrl-C
    # arrives, even when a loaded machine delays this polling loop by seconds.
    test_server.latency = 0.5
    items = [(f"x{i}", "P-MissingInfo", "HIGH", [f"a{i}"], "") for i in range(300)]
    bench = tmp_path / "bench.jsonl"
    nq_benchmark(items).to_json(bench, orient="records", lines=True)
    cache = tmp_path / "cache"
    cmd = [
        sys.executable,
        "-m",
        "refusalbench",
        "pipeline=evaluate",
        "dataset=refusalbench_nq",
        f"dataset.path={bench}",
        "model=openai_compatible",
        "model.name=m",
        f"model.api_base={test_server.url}",
        "model.max_concurrency=4",
        "judge=deterministic",
        f"cache.dir={cache}",
        "tracking=off",
        f"hydra.run.dir={tmp_path / 'run'}",
    ]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    proc = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # a shell that runs the suite in the background starts it with SIGINT ignored, which the run would inherit
        preexec_fn=_default_sigint,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(cache.rglob("*.json"))) < 20:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, f"exit {proc.returncode}; the run's stderr ends:\n{err[-3000:]}"
    assert "Traceback" not in err
    [line] = [x for x in err.splitlines() if x.startswith("refusalbench:")]
    assert "interrupted during stage evaluate" in line and "run the same command again to resume" in line
    finished = int(line.split(" model calls finished")[0].rsplit(" ", 1)[1])
    answered = len(list(cache.rglob("*.json")))
    assert 20 <= finished <= answered < 300  # every finished call is in the cache
