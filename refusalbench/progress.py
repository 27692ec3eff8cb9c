"""Progress as log lines, for output that is not a terminal (a log file, CI, nohup, Slurm).

A tqdm bar draws only on a terminal; elsewhere a long stage would print nothing for minutes.
`LogProgress` has the part of tqdm's interface the model-call layer uses (``update``,
``set_postfix``, ``close``, ``disable``) and logs one line every `interval` seconds, or when
another `step_percent` of the work is done (at most one line per `min_gap` seconds).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Callable, Mapping, Optional

log = logging.getLogger("refusalbench.progress")

INTERVAL_ENV = "REFUSALBENCH_PROGRESS_INTERVAL"


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class LogProgress:
    """Log lines "DESC: n/total calls (p%), C cached, F failed, R retries, ETA …" while work proceeds."""

    disable = False

    def __init__(
        self,
        total: int,
        desc: str,
        *,
        interval: Optional[float] = None,
        step_percent: float = 10.0,
        min_gap: float = 2.0,
        logger: logging.Logger = log,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total = total
        self.desc = desc
        self.interval = interval if interval is not None else float(os.environ.get(INTERVAL_ENV, "15"))
        self.step = max(1, int(total * step_percent / 100)) if total else 1
        self.min_gap = min_gap
        self.logger = logger
        self.clock = clock
        self.n = 0
        self.postfix: dict = {}
        self.started = self.last_logged = clock()
        self.next_step = self.step
        self._pending: Optional[float] = None

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        due = now - self.last_logged >= self.interval
        stepped = self.n >= self.next_step and now - self.last_logged >= self.min_gap
        if self.n < self.total and (due or stepped):
            self.last_logged = now
            self.next_step = (self.n // self.step + 1) * self.step
            self._pending = now
            if self.postfix:  # else wait for the counts, which the layer sets right after each update
                self._flush()

    def set_postfix(self, values: Mapping, refresh: bool = False) -> None:
        self.postfix = dict(values)
        self._flush()

    def _flush(self) -> None:
        if self._pending is not None:
            self.logger.info("%s", self.line(self._pending))
            self._pending = None

    def line(self, now: Optional[float] = None) -> str:
        now = self.clock() if now is None else now
        pct = 100.0 * self.n / self.total if self.total else 100.0
        parts = [f"{self.desc}: {self.n}/{self.total} calls ({pct:.0f}%)"]
        for key in ("cached", "failed", "retries"):
            if key in self.postfix:
                parts.append(f"{self.postfix[key]} {key}")
        live = self.n - int(self.postfix.get("cached", 0))
        elapsed = now - self.started
        if live > 0 and self.n < self.total:
            parts.append(f"ETA {_duration(elapsed / live * (self.total - self.n))}")
        parts.append(f"elapsed {_duration(elapsed)}")
        return ", ".join(parts)

    def close(self) -> None:
        """Nothing to draw; the layer logs its own summary line when a batch ends."""
