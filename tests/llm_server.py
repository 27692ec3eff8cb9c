"""An OpenAI-compatible HTTP test server for the model-call layer (no network beyond 127.0.0.1).

Runs an aiohttp app on a random port in a background thread. Endpoints: ``POST /v1/chat/completions``,
``GET /v1/models``, ``GET /health``. Behaviour per request is decided, in order, by

1. the scripted fault queue (``server.script([...])``: one spec consumed per request), then
2. the responder (``server.set_responder(fn)``, ``fn(body) -> str | dict``).

A reply spec is either the assistant text (str) or a dict with any of:

- ``content`` (str), ``reasoning`` (str: wrapped as ``<think>…</think>`` before the content),
  ``finish_reason`` (default "stop"), ``usage`` ({prompt_tokens, completion_tokens});
- ``status`` (int HTTP error status) with optional ``message``, ``retry_after`` (seconds header) and
  ``echo_auth`` (repeat the Authorization header in the message, as a careless server might);
- ``fault``: ``"malformed"`` (200 with a non-JSON body), ``"hang"`` (sleep ``seconds``, default 30,
  before answering), ``"drop"`` (close the connection without a reply);
- ``latency`` (seconds; overrides the server-wide latency for this request).

With ``slots=N`` the server works on at most N requests at a time, like llama.cpp's parallel slots:
the others wait in a queue (first come, first served), and the latency is spent inside a slot. A
request whose client hangs up (a client-side timeout) leaves the queue or frees its slot, as
llama.cpp does. ``report_slots=True`` also answers ``GET /props`` with ``{"total_slots": N}``, as
llama.cpp does; otherwise ``/props`` is a 404, like most servers.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from typing import Any, Callable, Optional, Union

from aiohttp import web

Reply = Union[str, dict]


def default_responder(body: dict) -> Reply:
    """Deterministic echo of the last user message."""
    last = body.get("messages", [{}])[-1].get("content", "")
    if isinstance(last, list):  # content parts
        last = " ".join(p.get("text", "") for p in last if isinstance(p, dict))
    return f"reply: {last}"


class LLMTestServer:
    """The server; start with ``start()`` (or use as a context manager), stop with ``stop()``."""

    def __init__(
        self,
        latency: float = 0.0,
        responder: Optional[Callable[[dict], Reply]] = None,
        model: str = "test-model",
        slots: Optional[int] = None,
        report_slots: bool = False,
    ) -> None:
        self.latency = latency
        self.slots = slots
        self.report_slots = report_slots
        self._slot_sem: Optional[asyncio.Semaphore] = None
        self.abandoned = 0  # requests whose client hung up before the reply
        self.model = model
        self._responder = responder or default_responder
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.request_times: list[float] = []  # time.monotonic() at arrival
        self.in_flight = 0
        self.max_in_flight = 0
        self.port: Optional[int] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._runner: Optional[web.AppRunner] = None
        self._thread: Optional[threading.Thread] = None
        self._counter = 0

    # ---- configuration -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def set_responder(self, fn: Optional[Callable[[dict], Reply]]) -> None:
        self._responder = fn or default_responder

    def script(self, specs: list[Reply]) -> None:
        """Queue reply specs consumed one per request, before the responder is asked."""
        with self._lock:
            self._script.extend(specs)

    def reset(self) -> None:
        """Forget recorded requests, the script and the in-flight maximum; restore the defaults."""
        with self._lock:
            self.requests.clear()
            self.headers.clear()
            self.request_times.clear()
            self._script.clear()
            self.max_in_flight = 0
            self.abandoned = 0
        self._responder = default_responder
        self.latency = 0.0

    @property
    def request_count(self) -> int:
        return len(self.requests)

    # ---- lifecycle -----------------------------------------------------------------------------
    def start(self) -> LLMTestServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(1024)
        self.port = sock.getsockname()[1]
        ready = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            app = web.Application(client_max_size=64 * 1024 * 1024)
            app.router.add_post("/v1/chat/completions", self._chat)
            app.router.add_get("/v1/models", self._models)
            app.router.add_get("/health", self._health)
            app.router.add_get("/props", self._props)
            if self.slots:
                self._slot_sem = asyncio.Semaphore(self.slots)
            self._runner = web.AppRunner(
                app, access_log=None, handle_signals=False, shutdown_timeout=0.5, handler_cancellation=True
            )
            loop.run_until_complete(self._runner.setup())
            site = web.SockSite(self._runner, sock, backlog=1024)
            loop.run_until_complete(site.start())
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=serve, name="llm-test-server", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("test server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
        self._loop = None

    def __enter__(self) -> LLMTestServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ---- handlers ------------------------------------------------------------------------------
    async def _health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def _props(self, request: web.Request) -> web.Response:
        if not (self.slots and self.report_slots):
            return web.json_response({"error": {"message": "not found"}}, status=404)
        return web.json_response({"total_slots": self.slots})

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": self.model, "object": "model"}]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = json.loads(raw)
        except ValueError:
            return web.json_response({"error": {"message": "invalid JSON"}}, status=400)
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return web.json_response({"error": {"message": "messages missing"}}, status=400)
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(request.headers))
            self.request_times.append(time.monotonic())
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            spec = self._script.popleft() if self._script else None
            self._counter += 1
            n = self._counter
        try:
            if spec is None:
                spec = self._responder(body)
            if isinstance(spec, str):
                spec = {"content": spec}
            latency = spec.get("latency", self.latency)
            if self._slot_sem is None:
                if latency:
                    await asyncio.sleep(latency)
                return await self._reply(request, body, spec, n)
            async with self._slot_sem:  # queued until a slot is free; the work happens inside it
                if latency:
                    await asyncio.sleep(latency)
                return await self._reply(request, body, spec, n)
        except asyncio.CancelledError:
            with self._lock:
                self.abandoned += 1
            raise
        finally:
            with self._lock:
                self.in_flight -= 1

    async def _reply(self, request: web.Request, body: dict, spec: dict, n: int) -> web.StreamResponse:
        fault = spec.get("fault")
        if fault == "hang":
            await asyncio.sleep(float(spec.get("seconds", 30)))
        elif fault == "malformed":
            return web.Response(status=200, text='{"id": "x", "choices": [', content_type="application/json")
        elif fault == "drop":
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=200)
        status = int(spec.get("status", 200))
        if status != 200:
            headers = {}
            if "retry_after" in spec:
                headers["Retry-After"] = str(spec["retry_after"])
            message = spec.get("message", f"scripted error {status}")
            if spec.get("echo_auth"):  # a careless server that repeats the credential back
                message += f" (received {request.headers.get('Authorization', '')})"
            err = {"error": {"message": message, "type": "test_error", "code": spec.get("code")}}
            return web.json_response(err, status=status, headers=headers)
        content = spec.get("content", "")
        if spec.get("reasoning") is not None:
            content = f"<think>{spec['reasoning']}</think>\n{content}"
        usage = spec.get("usage") or {
            "prompt_tokens": sum(len(str(m.get("content", ""))) // 4 + 1 for m in body.get("messages", [])),
            "completion_tokens": len(content) // 4 + 1,
        }
        usage = {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}
        payload = {
            "id": f"chatcmpl-test-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", self.model),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": spec.get("finish_reason", "stop"),
                }
            ],
            "usage": usage,
        }
        return web.json_response(payload)


if __name__ == "__main__":  # manual use: python tests/llm_server.py
    with LLMTestServer() as srv:
        print(f"serving on {srv.url}; Ctrl-C to stop")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
