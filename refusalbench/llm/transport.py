"""The two ways a request leaves the process, both returning one normalised reply dict.

- `HttpTransport`: a lean aiohttp client for OpenAI-compatible ``/chat/completions`` servers
  (one session per event loop, reused across calls).
- `litellm_call`: ``litellm.acompletion`` for every provider LiteLLM knows.

The reply dict has ``content``, ``reasoning`` (a provider's separate reasoning field or None),
``finish_reason``, ``input_tokens``, ``output_tokens``, ``reasoning_tokens`` and ``cost_usd``.
Failures are raised as exceptions and classified by `refusalbench.llm.retry.classify`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Optional

from refusalbench.llm.retry import CallError, http_error
from refusalbench.llm.routing import Route, response_format_param

CONNECT_TIMEOUT_S = 10.0


def _connect_timeout_type() -> tuple:
    import aiohttp

    found = getattr(aiohttp, "ConnectionTimeoutError", None)  # aiohttp >= 3.10
    return (found,) if found is not None else ()


def _body(route: Route, messages: list, response_format: Any) -> dict[str, Any]:
    m = route.mapped
    body: dict[str, Any] = {"model": route.wire_model, "messages": messages}
    if m.temperature is not None:
        body["temperature"] = m.temperature
    if m.top_p is not None:
        body["top_p"] = m.top_p
    if m.max_tokens is not None:
        body["max_completion_tokens" if route.family == "openai_reasoning" else "max_tokens"] = m.max_tokens
    if route.seed is not None:
        body["seed"] = route.seed
    rf = response_format_param(response_format)
    if rf is not None:
        body["response_format"] = rf
    body.update(m.params)
    body.update(m.body)
    body.update(route.extra)
    body.update(route.extra_body)
    return body


def _int(value: Any) -> Optional[int]:
    return int(value) if isinstance(value, (int, float)) else None


def parse_openai_reply(data: Any) -> dict[str, Any]:
    """Normalise an OpenAI chat-completion JSON object; malformed shapes raise a retryable error."""
    try:
        choice = data["choices"][0]
        message = choice.get("message") or {}
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise TypeError("content is not a string")
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise CallError(
            "MalformedResponseError", f"reply has no usable choices[0].message ({exc})", retryable=True
        ) from None
    usage = data.get("usage") or {}
    details = usage.get("completion_tokens_details") or {}
    return {
        "content": content or "",
        "reasoning": message.get("reasoning_content") or message.get("reasoning") or None,
        "finish_reason": choice.get("finish_reason"),
        "input_tokens": _int(usage.get("prompt_tokens")),
        "output_tokens": _int(usage.get("completion_tokens")),
        "reasoning_tokens": _int(details.get("reasoning_tokens")),
        "cost_usd": None,
    }


def _error_message(text: str) -> str:
    try:
        data = json.loads(text)
        err = data.get("error", data) if isinstance(data, dict) else data
        if isinstance(err, dict):
            return str(err.get("message") or err.get("detail") or err)
        return str(err)
    except ValueError:
        return text.strip()[:600] or "(empty body)"


class HttpTransport:
    """OpenAI-compatible chat completions over aiohttp; one session per event loop."""

    def __init__(self) -> None:
        self._sessions: dict[int, tuple[asyncio.AbstractEventLoop, Any]] = {}

    def _session(self) -> Any:
        import aiohttp

        loop = asyncio.get_running_loop()
        entry = self._sessions.get(id(loop))
        if entry is None or entry[0] is not loop or entry[1].closed:
            connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=300)
            session = aiohttp.ClientSession(connector=connector, trust_env=False)
            self._sessions[id(loop)] = (loop, session)
            return session
        return entry[1]

    async def call(
        self, route: Route, messages: list, response_format: Any, api_key: Optional[str], timeout: float
    ) -> dict[str, Any]:
        import aiohttp

        connect_timeout = _connect_timeout_type()
        body = _body(route, messages, response_format)
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        url = f"{route.api_base}/chat/completions"
        session = self._session()
        # leaving the block on a timeout closes the connection: a server that watches for that
        # (llama.cpp does) drops the request instead of working on it for nobody
        limits = aiohttp.ClientTimeout(total=timeout, sock_connect=min(timeout, CONNECT_TIMEOUT_S))
        try:
            async with session.post(url, data=json.dumps(body), headers=headers, timeout=limits) as resp:
                raw = await resp.read()
                status, resp_headers = resp.status, resp.headers
        except aiohttp.ClientConnectorError as exc:
            raise CallError(
                "APIConnectionError", f"cannot connect to {route.api_base} ({exc.os_error})", retryable=True
            ) from None
        except connect_timeout:
            raise CallError(
                "APIConnectionError",
                f"no connection to {route.api_base} within {min(timeout, CONNECT_TIMEOUT_S):g} s",
                retryable=True,
            ) from None
        except (asyncio.TimeoutError, TimeoutError):
            raise CallError("Timeout", f"no reply within {timeout:g} s", retryable=True) from None
        except aiohttp.ClientError as exc:
            raise CallError("APIConnectionError", f"{type(exc).__name__}: {exc}", retryable=True) from None
        text = raw.decode("utf-8", errors="replace")
        if status != 200:
            raise http_error(status, _error_message(text), resp_headers)
        try:
            data = json.loads(text)
        except ValueError:
            raise CallError("MalformedResponseError", f"reply is not JSON: {text[:200]!r}", retryable=True) from None
        return parse_openai_reply(data)

    async def server_slots(self, api_base: str, timeout: float = 2.0) -> Optional[int]:
        """How many requests the server works on at once, if it says (llama.cpp: ``GET /props``)."""
        import aiohttp

        root = api_base[:-3] if api_base.endswith("/v1") else api_base
        try:
            async with self._session().get(f"{root}/props", timeout=aiohttp.ClientTimeout(total=timeout)) as resp:
                if resp.status != 200:
                    return None
                data = await resp.json(content_type=None)
        except (aiohttp.ClientError, asyncio.TimeoutError, TimeoutError, ValueError):
            return None
        slots = data.get("total_slots") if isinstance(data, dict) else None
        return slots if isinstance(slots, int) and slots > 0 else None

    async def aclose_current(self) -> None:
        """Close the session of the running loop."""
        loop = asyncio.get_running_loop()
        entry = self._sessions.pop(id(loop), None)
        if entry is not None and entry[0] is loop and not entry[1].closed:
            await entry[1].close()


async def litellm_call(
    route: Route, messages: list, response_format: Any, api_key: Optional[str], timeout: float
) -> dict[str, Any]:
    """One ``litellm.acompletion`` call (LiteLLM's own retries off: the layer retries)."""
    from refusalbench.llm.litellm_setup import import_litellm

    litellm = import_litellm()
    m = route.mapped
    kwargs: dict[str, Any] = {
        "model": route.litellm_model,
        "messages": messages,
        "timeout": timeout,
        "num_retries": 0,
        "max_retries": 0,
    }
    if route.api_base:
        kwargs["api_base"] = route.api_base
    if api_key:
        kwargs["api_key"] = api_key
    for name, value in (
        ("temperature", m.temperature),
        ("top_p", m.top_p),
        ("max_tokens", m.max_tokens),
        ("seed", route.seed),
        ("response_format", response_format_param(response_format)),
    ):
        if value is not None:
            kwargs[name] = value
    kwargs.update(m.params)
    kwargs.update(route.extra)
    extra_body = {**m.body, **route.extra_body}
    if extra_body:
        kwargs["extra_body"] = extra_body
    resp = await litellm.acompletion(**kwargs)
    try:
        choice = resp.choices[0]
        message = choice.message
    except (AttributeError, IndexError) as exc:
        raise CallError("MalformedResponseError", f"reply has no choices ({exc})", retryable=True) from None
    usage = getattr(resp, "usage", None)
    details = getattr(usage, "completion_tokens_details", None)
    cost = None
    if route.priced:
        cost = (getattr(resp, "_hidden_params", None) or {}).get("response_cost")
    return {
        "content": getattr(message, "content", None) or "",
        "reasoning": getattr(message, "reasoning_content", None) or None,
        "finish_reason": getattr(choice, "finish_reason", None),
        "input_tokens": _int(getattr(usage, "prompt_tokens", None)),
        "output_tokens": _int(getattr(usage, "completion_tokens", None)),
        "reasoning_tokens": _int(getattr(details, "reasoning_tokens", None)),
        "cost_usd": float(cost) if isinstance(cost, (int, float)) else None,
    }
