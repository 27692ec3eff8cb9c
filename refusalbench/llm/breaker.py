"""A circuit breaker per endpoint: stop a stage within seconds when the endpoint is gone or refuses everything.

Failures are counted in rounds, not requests: a failure opens a new round only if its request
started after the previous round was counted, so 64 requests refused at the same moment are one
round, not 64. Any success closes the count. The breaker trips after a few rounds in a row of

- ``connection``: nothing answers at the address (refused, reset, DNS, connect timeout);
- ``refused``: the server answers but refuses the requests (401, 403, 404, an exhausted quota);
- ``overload``: timeouts, 429s or 5xx (more rounds: the adaptive bound gets its chance first).

Item-specific failures (a 400 for one prompt, a context overflow) never count.
"""

from __future__ import annotations

import time
from typing import Optional

from refusalbench.errors import UserError
from refusalbench.llm.retry import CallError

#: consecutive failed rounds after which the endpoint is given up, per failure category
TRIP_ROUNDS = {"connection": 3, "refused": 3, "overload": 8}

_ADVICE = {
    "connection": "nothing answers there. Check that the server is running and listening at that address "
    "(model.api_base, including the port and the /v1 path) and that no firewall or proxy is in "
    "the way.",
    "refused": "the server answers but refuses every request. Check the API key (the environment variable "
    "named by model.api_key_env), that the key may use this model, that model.name is a model the "
    "server serves (GET {address}/models lists them), and the account's quota.",
    "overload": "every request times out or fails with a server error, even at concurrency 1 with longer "
    "deadlines. Check the server's log and load; raise model.timeout for a slow model or lower "
    "model.max_concurrency.",
}


class EndpointUnavailable(UserError):
    """The circuit breaker of an endpoint tripped: the stage stops; finished calls stay cached."""

    def __init__(self, message: str, address: str, category: str) -> None:
        super().__init__(message)
        self.address = address
        self.category = category


class CircuitBreaker:
    """Counts failed rounds per endpoint and trips after `TRIP_ROUNDS` in a row."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.rounds = 0
        self.successes = 0
        self.tripped: Optional[EndpointUnavailable] = None
        self._round_at = float("-inf")
        self._category: Optional[str] = None

    def record_success(self) -> None:
        self.successes += 1
        self.rounds = 0
        self._category = None

    def record_failure(self, err: CallError, started: float, model: str, detail: Optional[str] = None) -> None:
        """Count `err` (a request that started at monotonic time `started`); trip when due.

        `detail` is the error as it may be shown (secrets scrubbed); default ``str(err)``.
        """
        category = err.category
        if category is None or self.tripped is not None:
            return
        if started <= self._round_at:
            return  # same round as a failure already counted
        self._round_at = time.monotonic()
        if category != self._category:
            self._category, self.rounds = category, 0
        self.rounds += 1
        if self.rounds >= TRIP_ROUNDS[category]:
            advice = _ADVICE[category].format(address=self.address)
            self.tripped = EndpointUnavailable(
                f"Model {model!r} at {self.address} is unavailable: {self.rounds} rounds of requests in a row "
                f"failed (last: {detail or err}); {advice}",
                self.address,
                category,
            )

    def check(self) -> None:
        """Raise the trip error if the breaker has tripped."""
        if self.tripped is not None:
            raise self.tripped
