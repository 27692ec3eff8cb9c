"""Failure classification (retry or fail at once) and the backoff schedule.

Retryable: rate limits (429, unless the quota is exhausted), server errors (5xx), timeouts, dropped
connections and malformed response bodies. Everything else (authentication, permission, bad
request, context length, not found, unexpected local exceptions) fails the item at once with the
error recorded. Classification reads exception class names and HTTP status codes, so it works for
LiteLLM's exception family and the layer's own HTTP client without importing LiteLLM.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Mapping, Optional

# exception class name -> retryable (first match along the MRO wins)
_BY_NAME = {
    "ContextWindowExceededError": False,
    "ContentPolicyViolationError": False,
    "AuthenticationError": False,
    "PermissionDeniedError": False,
    "NotFoundError": False,
    "UnprocessableEntityError": False,
    "UnsupportedParamsError": False,
    "BadRequestError": False,
    "BudgetExceededError": False,
    "RateLimitError": True,
    "Timeout": True,
    "APITimeoutError": True,
    "TimeoutError": True,
    "InternalServerError": True,
    "ServiceUnavailableError": True,
    "BadGatewayError": True,
    "APIConnectionError": True,
    "APIResponseValidationError": True,
    "MalformedResponseError": True,
    "JSONDecodeError": True,
    "ClientConnectionError": True,
    "ClientPayloadError": True,
    "ServerDisconnectedError": True,
    "ClientOSError": True,
}
_RETRYABLE_STATUS = {408, 409, 425, 429}
_QUOTA = re.compile(r"insufficient_quota|exceeded your current quota|quota exceeded|billing", re.I)
_CONTEXT = re.compile(r"context.{0,20}(length|window)|maximum context|too many tokens|prompt is too long", re.I)
_STATUS_NAMES = {
    400: "BadRequestError", 401: "AuthenticationError", 403: "PermissionDeniedError", 404: "NotFoundError",
    408: "Timeout", 422: "UnprocessableEntityError", 429: "RateLimitError", 500: "InternalServerError",
    502: "BadGatewayError", 503: "ServiceUnavailableError", 504: "Timeout",
}


class CallError(Exception):
    """A classified failure of one model call."""

    def __init__(self, kind: str, message: str, *, status: Optional[int] = None, retryable: bool = False,
                 retry_after: Optional[float] = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


def http_error(status: int, message: str, headers: Optional[Mapping[str, str]] = None) -> CallError:
    """The CallError for an HTTP error reply from an OpenAI-compatible server."""
    kind = _STATUS_NAMES.get(status, "APIError")
    if status == 400 and _CONTEXT.search(message):
        kind = "ContextWindowExceededError"
    retryable = status in _RETRYABLE_STATUS or status >= 500
    if status == 429 and _QUOTA.search(message):
        retryable = False
    return CallError(kind, message, status=status, retryable=retryable,
                     retry_after=parse_retry_after(headers) if headers else None)


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
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return CallError("Timeout", "no reply within the model's timeout", retryable=True)
    message = _message(exc)
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    names = [cls.__name__ for cls in type(exc).__mro__]
    kind = names[0]
    retryable: Optional[bool] = next((_BY_NAME[n] for n in names if n in _BY_NAME), None)
    if retryable is None and status is not None:
        retryable = status in _RETRYABLE_STATUS or status >= 500
    if retryable is None:
        # a generic API error without a status is a provider-side failure; anything else is ours
        retryable = "APIError" in names
    if status == 429 and _QUOTA.search(message):
        retryable = False
    if "BadRequestError" in names and _CONTEXT.search(message) and kind == "BadRequestError":
        kind = "ContextWindowExceededError"
    headers = _headers_of(exc)
    retry_after = parse_retry_after(headers) if headers else None
    return CallError(kind, message, status=status, retryable=retryable, retry_after=retry_after)


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter and a cap; a server's Retry-After wins when given."""

    base_delay: float = 1.0
    max_delay: float = 60.0
    max_retry_after: float = 300.0
    jitter: float = 0.5  # each wait is shortened by a random fraction up to this

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
