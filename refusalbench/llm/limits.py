"""Per-endpoint admission: an adaptive bound on in-flight requests and an optional requests-per-minute
pace.

The bound follows AIMD (additive increase, multiplicative decrease), the scheme TCP uses and that
provably converges to a fair share of a bottleneck: it starts at the configured ``max_concurrency`` (or
the capacity the server states, if lower), halves on an overload signal (a timeout, a 429, a 5xx, or a
reply that spent most of the timeout waiting in the server's queue), and grows by one request per window
of successful requests. At most one halving happens per window: requests admitted before the last
halving do not halve it again, so one burst of timeouts counts as one signal. Growth happens only while
replies come back well within their deadline, so the bound does not creep back into the region where
queued requests time out (the moving average of reply times stays within half the configured timeout).

Until half of the first burst has replied, no request replaces a finished one (unless the server
stated its capacity): on a server with fewer slots than the bound, replacements would join the back
of its queue and time out.

Only real requests pass through a limiter; cache hits never wait. A call that backs off after a failure
releases its slot while it sleeps, so other items keep flowing.
"""

from __future__ import annotations

import asyncio
import collections
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import AsyncIterator, Optional

from refusalbench.llm.breaker import CircuitBreaker

#: shrink factor on an overload signal
DECREASE = 0.5
#: grow only when a reply took at most this fraction of its deadline (queueing stays well below timeouts)
GROWTH_LATENCY_FRACTION = 0.5
#: a reply this many times slower than the fastest one (and slower than half the timeout) was queued
QUEUE_FACTOR = 2.0
#: weight of the newest reply in the moving average of latencies
LATENCY_WEIGHT = 0.2


@dataclass
class Ticket:
    """One admitted request: when it started and which window of the bound admitted it."""

    epoch: int
    started: float


class AdaptiveLimit:
    """An AIMD bound on in-flight requests for one endpoint inside one event loop."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = max(1, int(ceiling))
        self.limit = float(self.ceiling)
        self.lowest = self.limit
        self.decreases = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.latency_avg: Optional[float] = None
        self.fastest: Optional[float] = None
        self._epoch = 0
        # first window: no request replaces a finished one until half of the first burst has replied
        # (or a back-off): on a server with fewer slots than the bound, replacements would queue behind
        # the burst and time out; half, so that one slow reply cannot hold the others back
        self._probe_admissions = self.ceiling
        self._probe_replies = (self.ceiling + 1) // 2
        self._waiters: collections.deque[asyncio.Future] = collections.deque()

    @property
    def current(self) -> int:
        """The number of requests allowed in flight now."""
        return max(1, int(self.limit))

    def set_ceiling(self, ceiling: int) -> None:
        """Lower (or raise) the most requests ever allowed, e.g. to the slots a server reports."""
        self.ceiling = max(1, int(ceiling))
        self.limit = min(self.limit, float(self.ceiling))
        self.lowest = min(self.lowest, self.limit)

    async def acquire(self) -> Ticket:
        if self._can_admit() and not self._waiters:
            self._admit()
        else:
            fut = asyncio.get_running_loop().create_future()
            self._waiters.append(fut)
            try:
                await fut  # _wake admits us (counts the request) before resolving the future
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():
                    self.release()  # admitted, then cancelled before use: hand the slot on
                else:
                    self._waiters.remove(fut)
                raise
        return Ticket(self._epoch, time.monotonic())

    def release(self) -> None:
        self.in_flight -= 1
        self._probe_replies -= 1
        self._wake()

    def trust(self) -> None:
        """Skip the first-window hold: the ceiling is the server's stated capacity."""
        self._probe_replies = 0
        self._wake()

    def on_success(self, ticket: Ticket, latency: float, timeout: float) -> None:
        """Additive increase: one more request per window while replies come back in good time on average.

        A reply that took more than half the timeout and more than twice the fastest reply waited in a
        queue: that is an overload signal too, before the requests behind it time out.
        """
        self.fastest = latency if self.fastest is None else min(self.fastest, latency)
        if latency > GROWTH_LATENCY_FRACTION * timeout and latency > QUEUE_FACTOR * self.fastest:
            self.on_overload(ticket)
            return
        avg = self.latency_avg
        self.latency_avg = latency if avg is None else avg + LATENCY_WEIGHT * (latency - avg)
        if self.latency_avg <= GROWTH_LATENCY_FRACTION * timeout and self.limit < self.ceiling:
            self.limit = min(float(self.ceiling), self.limit + 1.0 / self.limit)
            self._wake()

    def on_overload(self, ticket: Ticket) -> None:
        """Multiplicative decrease, at most once per window (a burst of failures is one signal)."""
        if ticket.epoch != self._epoch:
            return
        self._epoch += 1
        self._probe_replies = 0  # the first window is over: the bound now says how many may be in flight
        self.decreases += 1
        self.limit = max(1.0, self.limit * DECREASE)
        self.lowest = min(self.lowest, self.limit)

    def _can_admit(self) -> bool:
        return self.in_flight < self.current and (self._probe_admissions > 0 or self._probe_replies <= 0)

    def _admit(self) -> None:
        self._probe_admissions -= 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _wake(self) -> None:
        while self._waiters and self._can_admit():
            fut = self._waiters.popleft()
            if not fut.done():
                self._admit()
                fut.set_result(None)


class Endpoint:
    """Admission state of one endpoint: the adaptive bound, the pace, the circuit breaker."""

    def __init__(self, address: str, max_concurrency: int, rpm: Optional[int]) -> None:
        from aiolimiter import AsyncLimiter

        self.address = address
        self.configured = max_concurrency
        self.server_slots: Optional[int] = None
        self.limit = AdaptiveLimit(max_concurrency)
        # one request per 60/rpm seconds, no bursts
        self._pace = AsyncLimiter(1, 60.0 / rpm) if rpm else None
        self.breaker = CircuitBreaker(address)

    def use_server_slots(self, slots: Optional[int]) -> None:
        """Never send more requests at once than the server says it can work on."""
        if slots and slots > 0:
            self.server_slots = slots
            if slots < self.limit.ceiling:
                self.limit.set_ceiling(slots)
            self.limit.trust()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Ticket]:
        ticket = await self.limit.acquire()
        try:
            if self._pace is not None:
                await self._pace.acquire()
                ticket.started = time.monotonic()
            yield ticket
        finally:
            self.limit.release()

    def describe(self) -> str:
        """How the bound ended up, for the log."""
        lim = self.limit
        slots = f", the server reports {self.server_slots} slots" if self.server_slots else ""
        if lim.decreases:
            return (
                f"concurrency settled at {lim.current} (configured {self.configured}{slots}; lowest "
                f"{max(1, int(lim.lowest))}, {lim.decreases} back-offs)"
            )
        return f"concurrency stayed at {lim.current} (configured {self.configured}{slots})"


class LimiterRegistry:
    """One Endpoint per (address, limits) and event loop; asyncio primitives are loop-bound."""

    def __init__(self) -> None:
        self._by_loop: dict[int, tuple[asyncio.AbstractEventLoop, dict[tuple, Endpoint]]] = {}

    def get(self, key: str, address: str, max_concurrency: int, rpm: Optional[int]) -> Endpoint:
        """The Endpoint for `key` (route identity) in this loop; `address` is how messages name it."""
        loop = asyncio.get_running_loop()
        entry = self._by_loop.get(id(loop))
        if entry is None or entry[0] is not loop:
            # forget limiters of closed loops
            self._by_loop = {k: v for k, v in self._by_loop.items() if not v[0].is_closed()}
            entry = (loop, {})
            self._by_loop[id(loop)] = entry
        ident = (key, max_concurrency, rpm)
        endpoint = entry[1].get(ident)
        if endpoint is None:
            endpoint = entry[1][ident] = Endpoint(address, max_concurrency, rpm)
        return endpoint
