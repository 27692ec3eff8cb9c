"""Per-model admission: a bound on in-flight requests and an optional requests-per-minute pace.

Only real requests pass through a limiter; cache hits never wait. A call that backs off after a
failure releases its slot while it sleeps, so other items keep flowing.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator, Optional


class RateLimiter:
    """Spaces request starts at least 60/rpm seconds apart (no bursts)."""

    def __init__(self, rpm: int) -> None:
        self.interval = 60.0 / rpm
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        async with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


class ModelLimiter:
    """The admission gate for one model endpoint inside one event loop."""

    def __init__(self, max_concurrency: int, rpm: Optional[int] = None) -> None:
        self.max_concurrency = max_concurrency
        self._sem = asyncio.Semaphore(max_concurrency)
        self._rate = RateLimiter(rpm) if rpm else None
        self.in_flight = 0
        self.max_in_flight = 0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._sem:
            if self._rate is not None:
                await self._rate.wait()
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                yield
            finally:
                self.in_flight -= 1


class LimiterRegistry:
    """One ModelLimiter per (endpoint, limits) and event loop; asyncio primitives are loop-bound."""

    def __init__(self) -> None:
        self._by_loop: dict[int, tuple[asyncio.AbstractEventLoop, dict[tuple, ModelLimiter]]] = {}

    def get(self, endpoint: str, max_concurrency: int, rpm: Optional[int]) -> ModelLimiter:
        loop = asyncio.get_running_loop()
        entry = self._by_loop.get(id(loop))
        if entry is None or entry[0] is not loop:
            # forget limiters of closed loops
            self._by_loop = {k: v for k, v in self._by_loop.items() if not v[0].is_closed()}
            entry = (loop, {})
            self._by_loop[id(loop)] = entry
        key = (endpoint, max_concurrency, rpm)
        limiter = entry[1].get(key)
        if limiter is None:
            limiter = entry[1][key] = ModelLimiter(max_concurrency, rpm)
        return limiter
