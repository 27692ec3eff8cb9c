"""Without a terminal, long stages still report progress: periodic log lines with counts and an ETA."""

from __future__ import annotations

import logging

from refusalbench.config import CacheConfig
from refusalbench.progress import LogProgress
from tests.support.configs import model_cfg_for


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_lines_every_interval_and_every_step_with_eta(caplog):
    clock = FakeClock()
    bar = LogProgress(100, "evaluate m", interval=10.0, step_percent=25, min_gap=1.0, clock=clock)
    with caplog.at_level(logging.INFO, logger="refusalbench.progress"):
        bar.update(20)  # cache hits arrive at once: no line yet
        bar.set_postfix({"cached": 20, "failed": 0, "retries": 0})
        clock.t = 2.0
        bar.update(10)  # 30 % crosses the 25 % step
        clock.t = 3.0
        bar.update(1)  # no step, no interval
        clock.t = 14.0
        bar.update(1)  # the interval has passed
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("evaluate m: 30/100 calls (30%), 20 cached, 0 failed, 0 retries, ETA 14s")
    assert "32/100" in lines[1]


def test_layer_logs_progress_when_stderr_is_not_a_terminal(tmp_path, test_server, caplog, monkeypatch):
    from refusalbench.llm import CallSpec, LLMLayer

    monkeypatch.setenv("REFUSALBENCH_PROGRESS_INTERVAL", "0.2")
    test_server.set_responder(lambda body: {"content": "ok", "latency": 0.1})
    cfg = model_cfg_for(test_server, max_concurrency=2)
    specs = [CallSpec(key=str(i), messages=[{"role": "user", "content": f"q{i}"}]) for i in range(16)]
    with caplog.at_level(logging.INFO, logger="refusalbench.progress"):
        with LLMLayer(CacheConfig(dir=str(tmp_path / "cache"))) as layer:  # progress=None: decided by the terminal
            layer.run(cfg, specs, role="evaluated", desc="evaluate test")
    lines = [r.getMessage() for r in caplog.records if r.name == "refusalbench.progress"]
    assert lines and all(line.startswith("evaluate test: ") and "/16 calls" in line for line in lines)
    assert all("failed" in line and "ETA" in line for line in lines)
