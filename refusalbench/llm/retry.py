"""Failure classification (retry or fail at once), failure categories for the circuit breaker, and backoff.

Retryable: rate limits (429, unless the quota is exhausted), server errors (5xx), timeouts, dropped
connections and malformed response bodies. Everything else (authentication, permission, bad
request, context length, not found, unexpected local exceptions) fails the item at once with the
error recorded. Classification goes by exception type: the layer's own `CallError`, the `openai`
SDK's exception family (which LiteLLM's exceptions extend) and aiohttp's client errors, each looked
up only when its library is already imported, plus the HTTP status code an exception carries.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import re
import sys
import time
from dataclasses import dataclass
from typing import Any, Mapping, Optional

_RETRYABLE_STATUS = {408, 409, 425, 429}
_QUOTA = re.compile(r"insufficient_quota|exceeded your current quota|quota exceeded|billing", re.I)
_CONTEXT = re.compile(r"context.{0,20}(length|window)|maximum context|too many tokens|prompt is too long", re.I)
_STATUS_NAMES = {
    400: "BadRequestError",
    401: "AuthenticationError",
    403: "PermissionDeniedError",
    404: "NotFoundError",
    408: "Timeout",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
    500: "InternalServerError",
    502: "BadGatewayError",
    503: "ServiceUnavailableError",
    504: "Timeout",
}


class CallError(Exception):
    """A classified failure of one model call."""

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        status: Optional[int] = None,
        retryable: bool = False,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"

    @property
    def is_timeout(self) -> bool:
        return self.kind == "Timeout"

    @property
    def overload(self) -> bool:
        """A sign the endpoint gets more than it can take: the adaptive bound shrinks."""
        return self.retryable and (self.is_timeout or self.status == 429 or (self.status or 0) >= 500)

    @property
    def category(self) -> Optional[str]:
        """What the circuit breaker counts: connection, refused, overload, or None (item-specific)."""
        if self.kind == "APIConnectionError":
            return "connection"
        if self.status in (401, 403, 404) or (self.status == 429 and not self.retryable):
            return "refused"
        if self.overload:
            return "overload"
        return None


def http_error(status: int, message: str, headers: Optional[Mapping[str, str]] = None) -> CallError:
    """The CallError for an HTTP error reply from an OpenAI-compatible server."""
    kind = _STATUS_NAMES.get(status, "APIError")
    if status == 400 and _CONTEXT.search(message):
        kind = "ContextWindowExceededError"
    retryable = status in _RETRYABLE_STATUS or status >= 500
    if status == 429 and _QUOTA.search(message):
        retryable = False
    return CallError(
        kind, message, status=status, retryable=retryable, retry_after=parse_retry_after(headers) if headers else None
    )


def parse_retry_after(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    lower = {str(k).lower(): v for k, v in headers.items()}
    try:
        if lower.get("retry-after-ms") is not None:
            return max(0.0, float(lower["retry-after-ms"]) / 1000.0)
        value = lower.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = email.utils.parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def _headers_of(exc: BaseException) -> Optional[Mapping[str, str]]:
    for attr in ("litellm_response_headers", "headers"):
        h = getattr(exc, attr, None)
        if h:
            return h
    response = getattr(exc, "response", None)
    h = getattr(response, "headers", None)
    return h if h else None


_LITELLM_PREFIX = re.compile(r"^(litellm\.\w+:\s*)?(\w+Error:\s*)?(\w+Exception\s*-\s*)?")


def _message(exc: BaseException) -> str:
    text = str(getattr(exc, "message", None) or exc) or type(exc).__name__
    text = _LITELLM_PREFIX.sub("", " ".join(text.split()), count=1) or type(exc).__name__
    return text[:600] + ("…" if len(text) > 600 else "")


def classify(exc: BaseException) -> CallError:
    """Turn any exception raised by a call into a CallError that says whether to retry."""
    if isinstance(exc, CallError):
        return exc
    aiohttp = sys.modules.get("aiohttp")
    connect_timeout = getattr(aiohttp, "ConnectionTimeoutError", None) if aiohttp is not None else None
    if connect_timeout is not None and isinstance(exc, connect_timeout):
        return CallError("APIConnectionError", "no connection within the connect timeout", retryable=True)
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return CallError("Timeout", "no reply within the model's timeout", retryable=True)
    message = _message(exc)
    name = type(exc).__name__
    litellm = sys.modules.get("litellm")
    if litellm is not None and isinstance(exc, litellm.BudgetExceededError):
        return CallError(name, message)
    if litellm is not None and isinstance(
        exc, (litellm.ContextWindowExceededError, litellm.ContentPolicyViolationError)
    ):
        return CallError(name, message, status=400)
    openai = sys.modules.get("openai")
    if openai is not None:
        if isinstance(exc, openai.APITimeoutError):
            return CallError("Timeout", message, retryable=True)
        if isinstance(exc, openai.APIConnectionError):
            return CallError("APIConnectionError", message, retryable=True)
        if isinstance(exc, openai.APIResponseValidationError):
            return CallError("MalformedResponseError", message, retryable=True)
    if aiohttp is not None and isinstance(exc, (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError)):
        return CallError("APIConnectionError", message, retryable=True)
    if isinstance(exc, json.JSONDecodeError):
        return CallError("MalformedResponseError", message, retryable=True)
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and status >= 400:
        return http_error(status, message, _headers_of(exc))
    if openai is not None and isinstance(exc, openai.APIError):
        return CallError(name, message, retryable=True)  # a provider-side failure without a status
    return CallError(name, message)  # a local exception: a bug or a bad request, never retried


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter and a cap; a server's Retry-After wins when given."""

    base_delay: float = 1.0
    max_delay: float = 60.0
    max_retry_after: float = 300.0
    jitter: float = 0.5  # each wait is shortened by a random fraction up to this

    def wait(self, retry_state: Any) -> float:
        """tenacity's wait hook: a timed-out request goes back at once (the halved bound paces it)."""
        err = retry_state.outcome.exception()
        if isinstance(err, CallError) and err.is_timeout:
            return 0.0
        return self.delay(retry_state.attempt_number, getattr(err, "retry_after", None))

    def delay(self, failures: int, retry_after: Optional[float] = None) -> float:
        """Seconds to wait after the `failures`-th failed attempt (1-based)."""
        if retry_after is not None:
            return min(self.max_retry_after, retry_after) * (1.0 + 0.1 * random.random())
        ceiling = min(self.max_delay, self.base_delay * (2.0 ** max(0, failures - 1)))
        return ceiling * (1.0 - self.jitter * random.random())


def scrub(text: Any, secrets: list[str]) -> str:
    """`text` with every secret value replaced by ``***``."""
    out = str(text)
    for s in secrets:
        if s and len(s) >= 4:
            out = out.replace(s, "***")
    return out
