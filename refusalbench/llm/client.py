"""`LLMLayer`: the one model-call layer used by generators, verifiers, evaluated models and judges.

Items stream through a per-model bound on in-flight requests (a pool of workers, no batch
barrier). Each item is answered from the cache, by the model (with retries for retryable
failures), or ends with a recorded error; one failure never stops the others. Every finished
call is written to the cache at once, so a run killed mid-way and started again asks the model
only for the items that had not finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable, Optional

from refusalbench.config import CacheConfig, ModelConfig
from refusalbench.errors import UserError
from refusalbench.llm.breaker import EndpointUnavailable
from refusalbench.llm.cache import ResponseCache, canonical_json
from refusalbench.llm.completion import CallSpec, Completion, is_truncated
from refusalbench.llm.estimate import count_input_tokens, estimate_cost, expected_output
from refusalbench.llm.limits import Endpoint, LimiterRegistry
from refusalbench.llm.litellm_setup import import_litellm
from refusalbench.llm.reasoning import split_think
from refusalbench.llm.retry import CallError, RetryPolicy, classify, scrub
from refusalbench.llm.routing import LOCAL_DUMMY_KEY, Route, build_route, server_identity
from refusalbench.llm.transport import HttpTransport, litellm_call
from refusalbench.llm.usage import UsageLedger

log = logging.getLogger(__name__)

#: a request that timed out is retried with its deadline doubled, up to this multiple of model.timeout
MAX_DEADLINE_FACTOR = 4.0
_RESPONSE_FIELDS = (
    "text",
    "reasoning",
    "finish_reason",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "latency_s",
    "cost_usd",
)


class _RunStats:
    __slots__ = ("done", "cached", "failed", "truncated", "retries")

    def __init__(self) -> None:
        self.done = self.cached = self.failed = self.truncated = self.retries = 0

    def add(self, c: Completion) -> None:
        self.done += 1
        self.cached += c.cached
        self.failed += c.error is not None
        self.truncated += c.error is None and c.truncated


class LLMLayer:
    """Cached, bounded, retrying model calls with usage accounting.

    ``LLMLayer(cache_cfg, run_dir=None, dry_run=False)``; also a context manager (``close`` stops
    managed servers and writes ``usage.json`` into `run_dir`).
    """

    def __init__(
        self,
        cache_cfg: CacheConfig,
        run_dir: str | Path | None = None,
        dry_run: bool = False,
        *,
        retry_policy: Optional[RetryPolicy] = None,
        progress: Optional[bool] = None,
    ) -> None:
        self.cache = ResponseCache(cache_cfg.dir, cache_cfg.mode)
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self.dry_run = dry_run
        self.retry_policy = retry_policy or RetryPolicy()
        self.progress = progress  # None: show a bar only on a terminal
        self._ledger = UsageLedger()
        self._limiters = LimiterRegistry()
        self._http = HttpTransport()
        self._routes: dict[str, Route] = {}
        self._servers: dict[str, Any] = {}
        self._slots: dict[str, Optional[int]] = {}  # api_base -> the slots the server reports
        self._lock = threading.RLock()
        self._logged_errors: set[tuple[str, str]] = set()
        self._loop: Optional[asyncio.AbstractEventLoop] = None

    # ---- public API ------------------------------------------------------------------------------
    def run(
        self, model_cfg: ModelConfig, specs: Iterable[CallSpec], role: str, desc: Optional[str] = None
    ) -> list[Completion]:
        """Complete every spec (same order as given); see `arun`."""
        return self._run_sync(self.arun(model_cfg, specs, role, desc))

    async def arun(
        self, model_cfg: ModelConfig, specs: Iterable[CallSpec], role: str, desc: Optional[str] = None
    ) -> list[Completion]:
        """Complete every spec with bounded concurrency; never raises for a per-item failure."""
        route = self._route(model_cfg)
        cfg = route.cfg
        specs = list(specs)
        if not self.dry_run:
            route.api_key()  # a missing key is a config error, raised before any call
        results: list[Optional[Completion]] = [None] * len(specs)
        stats = _RunStats()
        bar = self._bar(len(specs), desc or f"{role} {cfg.id}")
        try:
            pending = []
            for i, spec in enumerate(specs):
                key, text = route.request_key(spec)
                if self.dry_run:
                    results[i] = self._estimate(route, role, spec, key)
                    continue
                hit = self.cache.get(key)
                if hit is not None:
                    results[i] = c = self._from_cache(route, role, spec, hit)
                    stats.add(c)
                else:
                    pending.append((i, spec, key, text))
            if len(specs) > len(pending):
                bar.update(len(specs) - len(pending))  # cache hits and dry-run estimates
                _postfix(bar, stats)
            if pending:
                await self._aprepare(route)  # a managed server starts only when something is not cached
                endpoint = await self._endpoint(route)
                queue = iter(pending)

                async def worker() -> None:
                    for i, spec, key, text in queue:
                        c = await self._call(route, role, spec, key, text, endpoint, stats)
                        results[i] = c
                        stats.add(c)
                        bar.update(1)
                        _postfix(bar, stats)

                n_workers = min(len(pending), 2 * cfg.max_concurrency + 4)
                try:
                    await _all_or_none(worker() for _ in range(n_workers))
                except EndpointUnavailable as exc:
                    raise EndpointUnavailable(
                        f"{exc} {_progress_note(stats, len(specs))}", exc.address, exc.category
                    ) from None
                log.info("%s at %s: %s", cfg.id, endpoint.address, endpoint.describe())
        finally:
            bar.close()
        if self.dry_run:
            log.info("%s: dry run, %d calls estimated (no model called)", desc or f"{role} {cfg.id}", len(specs))
        else:
            log.info(
                "%s: %d calls: %d ok (%d cached, %d truncated), %d failed, %d retries",
                desc or f"{role} {cfg.id}",
                stats.done,
                stats.done - stats.failed,
                stats.cached,
                stats.truncated,
                stats.failed,
                stats.retries,
            )
        return results  # type: ignore[return-value]

    def usage_summary(self) -> dict[str, Any]:
        """Totals per model, per role and per (model, role); see `refusalbench.llm.usage`."""
        return self._ledger.summary()

    def write_usage(self, run_dir: str | Path | None = None) -> Path:
        target = run_dir if run_dir is not None else self.run_dir
        if target is None:
            raise UserError("write_usage needs a run directory.")
        return self._ledger.write(target)

    def cache_key(self, model_cfg: ModelConfig, spec: CallSpec) -> str:
        """The cache key a call would use (no server is started)."""
        return self._route(model_cfg).request_key(spec)[0]

    def close(self) -> None:
        """Close HTTP sessions, stop managed servers, write ``usage.json`` (if a run dir is set)."""
        try:
            loop, self._loop = self._loop, None
            if loop is not None and not loop.is_closed():
                with contextlib.suppress(Exception):
                    loop.run_until_complete(self._http.aclose_current())
                    loop.run_until_complete(_close_litellm_clients())
                    loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()
        finally:
            self._stop_servers()
            if self.run_dir is not None and not self._ledger.is_empty():
                with contextlib.suppress(OSError):
                    self.write_usage(self.run_dir)

    async def aclose(self) -> None:
        """Close the running loop's HTTP session (for callers of `arun`), then `close`."""
        await self._http.aclose_current()
        await asyncio.to_thread(self.close)

    def __enter__(self) -> LLMLayer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ---- preparation -----------------------------------------------------------------------------
    def _route(self, cfg: ModelConfig) -> Route:
        if not dataclasses.is_dataclass(cfg) or not isinstance(cfg, ModelConfig):
            raise UserError(
                f"The model-call layer needs a ModelConfig, got {type(cfg).__name__}; "
                "convert Hydra configs with OmegaConf.to_object first."
            )
        ident = canonical_json(dataclasses.asdict(cfg))
        with self._lock:
            route = self._routes.get(ident)
            if route is None:
                route = build_route(cfg)
                for note in route.mapped.notes:
                    log.info("model %s: %s", cfg.id, note)
                self._routes[ident] = route
        return route

    def _prepare(self, route: Route) -> None:
        """Make `route` callable: LiteLLM imported, managed server started (blocking)."""
        if route.transport == "litellm":
            import_litellm()  # seconds on first use: before any call is timed
        if route.managed:
            with self._lock:
                if not route.bound:
                    server = self._start_server(route.cfg)
                    route.bind(server.api_base, server.served_name)

    async def _aprepare(self, route: Route) -> None:
        if (route.managed and not route.bound) or (route.transport == "litellm" and "litellm" not in sys.modules):
            await asyncio.to_thread(self._prepare, route)
        else:
            self._prepare(route)

    async def _endpoint(self, route: Route) -> Endpoint:
        """The admission state for `route` in this loop; asks a fresh server once for its slots."""
        cfg = route.cfg
        address = route.api_base or f"the {route.litellm_model.split('/', 1)[0]} API (via LiteLLM)"
        endpoint = self._limiters.get(route.endpoint, address, cfg.max_concurrency, cfg.rpm)
        if route.managed:
            endpoint.limit.trust()  # our own server: it has exactly max_concurrency slots
        if route.api_base and route.openai_compatible and not route.managed and endpoint.server_slots is None:
            if route.api_base not in self._slots:
                self._slots[route.api_base] = await self._http.server_slots(route.api_base)
            endpoint.use_server_slots(self._slots[route.api_base])
        return endpoint

    def _start_server(self, cfg: ModelConfig) -> Any:
        ident = server_identity(cfg)
        server = self._servers.get(ident)
        if server is None:
            try:
                from refusalbench.llm.managed import start_managed
            except ImportError as exc:
                raise UserError(
                    f"Model {cfg.id!r} uses backend {cfg.backend!r}, but the managed-server module "
                    f"refusalbench.llm.managed is not available ({exc})."
                ) from exc
            log.info("starting %s server for model %s", cfg.backend, cfg.id)
            if self.run_dir is not None:
                self.run_dir.mkdir(parents=True, exist_ok=True)
                server = start_managed(cfg, log_dir=self.run_dir)
            else:
                server = start_managed(cfg)
            self._servers[ident] = server
        return server

    def _stop_servers(self) -> None:
        with self._lock:
            servers, self._servers = list(self._servers.values()), {}
            for route in self._routes.values():
                if route.managed:
                    route.unbind()
        for server in servers:
            try:
                server.stop()
            except Exception as exc:  # noqa: BLE001 - stopping must continue with the others
                log.warning("could not stop a managed server cleanly: %s", exc)

    # ---- one call --------------------------------------------------------------------------------
    async def _call(
        self,
        route: Route,
        role: str,
        spec: CallSpec,
        key: str,
        text: str,
        endpoint: Endpoint,
        stats: Optional[_RunStats],
    ) -> Completion:
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt

        cfg = route.cfg
        api_key = route.api_key()
        secrets = [api_key] if api_key and api_key != LOCAL_DUMMY_KEY else []
        deadline = cfg.timeout

        def before_sleep(state: Any) -> None:
            log.debug(
                "model %s: %s; retry %d/%d",
                cfg.id,
                scrub(state.outcome.exception(), secrets),
                state.attempt_number,
                cfg.max_retries,
            )
            if stats is not None:
                stats.retries += 1

        retrying = AsyncRetrying(
            stop=stop_after_attempt(cfg.max_retries + 1),
            wait=self.retry_policy.wait,
            retry=retry_if_exception(lambda e: isinstance(e, CallError) and e.retryable),
            before_sleep=before_sleep,
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    endpoint.breaker.check()
                    async with endpoint.slot() as ticket:
                        try:
                            reply = await self._send(route, spec, api_key, deadline)
                        except Exception as exc:  # noqa: BLE001 - every failure is classified and recorded
                            err = CallError("UserError", str(exc)) if isinstance(exc, UserError) else classify(exc)
                            if err.overload:
                                endpoint.limit.on_overload(ticket)
                            if err.is_timeout:  # the retry waits longer, at the halved bound
                                deadline = min(deadline * 2.0, cfg.timeout * MAX_DEADLINE_FACTOR)
                            endpoint.breaker.record_failure(err, ticket.started, cfg.id, scrub(err, secrets))
                            raise err from None
                        latency = time.monotonic() - ticket.started
                        endpoint.limit.on_success(ticket, latency, cfg.timeout)
                        endpoint.breaker.record_success()
        except CallError as err:
            failures = attempt.retry_state.attempt_number
            message = scrub(err, secrets)
            if err.retryable:
                message += f" (gave up after {failures} attempts)"
            return self._failed(route, role, spec, message, failures - 1, err.kind)
        failures = attempt.retry_state.attempt_number - 1
        answer, think = split_think(reply["content"])
        reasoning = reply["reasoning"]
        if think:
            reasoning = f"{reasoning}\n{think}" if reasoning else think
        c = Completion(
            key=spec.key,
            text=answer,
            reasoning=reasoning,
            finish_reason=reply["finish_reason"],
            input_tokens=reply["input_tokens"],
            output_tokens=reply["output_tokens"],
            reasoning_tokens=reply["reasoning_tokens"],
            latency_s=round(latency, 4),
            cost_usd=reply["cost_usd"],
            truncated=is_truncated(answer, reply["finish_reason"]),
        )
        if answer.strip() and c.finish_reason != "content_filter":
            self.cache.put(key, text, {f: getattr(c, f) for f in _RESPONSE_FIELDS})
        self._ledger.record(cfg.id, cfg.name, role, c, retries=failures)
        return c

    async def _send(self, route: Route, spec: CallSpec, api_key: Optional[str], deadline: float) -> dict[str, Any]:
        if route.transport == "http":
            return await self._http.call(route, spec.messages, spec.response_format, api_key, deadline)
        # LiteLLM's own timeout plus a margin; cancelling the task closes its connection
        return await asyncio.wait_for(
            litellm_call(route, spec.messages, spec.response_format, api_key, deadline), deadline + 5.0
        )

    def _failed(self, route: Route, role: str, spec: CallSpec, message: str, retries: int, kind: str) -> Completion:
        cfg = route.cfg
        c = Completion(key=spec.key, error=message)
        self._ledger.record(cfg.id, cfg.name, role, c, retries=retries)
        with self._lock:
            first = (cfg.id, kind) not in self._logged_errors
            self._logged_errors.add((cfg.id, kind))
        if first:
            log.warning("model %s (%s): %s [further %s failures are counted, not logged]", cfg.id, role, message, kind)
        return c

    def _from_cache(self, route: Route, role: str, spec: CallSpec, hit: dict) -> Completion:
        values = {f: hit.get(f) for f in _RESPONSE_FIELDS}
        values["text"] = values["text"] or ""
        c = Completion(
            key=spec.key, cached=True, truncated=is_truncated(values["text"], values["finish_reason"]), **values
        )
        self._ledger.record(route.cfg.id, route.cfg.name, role, c)
        return c

    def _estimate(self, route: Route, role: str, spec: CallSpec, key: str) -> Completion:
        cached = self.cache.get(key) is not None
        n_in = count_input_tokens(route, spec.messages)
        n_out = expected_output(route, spec.expected_output_tokens)
        cost = estimate_cost(route, n_in, n_out)
        cfg = route.cfg
        self._ledger.record_estimate(
            cfg.id, cfg.name, role, cached=cached, input_tokens=n_in, output_tokens=n_out, cost_usd=cost
        )
        return Completion(
            key=spec.key, error="dry_run", cached=cached, input_tokens=n_in, output_tokens=n_out, cost_usd=cost
        )

    # ---- event loop and progress -----------------------------------------------------------------
    def _run_sync(self, coro: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._drive(coro)
        with ThreadPoolExecutor(max_workers=1) as pool:  # called from async code: use a helper thread
            return pool.submit(self._drive, coro).result()

    def _drive(self, coro: Any) -> Any:
        if self._loop is None or self._loop.is_closed():
            self._loop = asyncio.new_event_loop()
        loop = self._loop
        task = loop.create_task(coro)
        try:
            return loop.run_until_complete(task)
        except BaseException:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    loop.run_until_complete(task)
            raise

    def _bar(self, total: int, desc: str) -> Any:
        from tqdm import tqdm

        show = sys.stderr.isatty() if self.progress is None else self.progress
        if not show and self.progress is None:  # not a terminal (log file, CI): periodic log lines instead
            from refusalbench.progress import LogProgress

            return LogProgress(total, desc)
        return tqdm(total=total, desc=desc, disable=not show, mininterval=0.5, unit="call", dynamic_ncols=True)


async def _all_or_none(coros: Iterable[Any]) -> None:
    """Run the coroutines concurrently; the first exception cancels the others and is raised."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _progress_note(stats: _RunStats, total: int) -> str:
    return (
        f"This stage stopped with {stats.done - stats.failed} of {total} calls answered ({stats.cached} from "
        "the cache); every answered call is cached, so running the same command again resumes from there."
    )


def _postfix(bar: Any, stats: _RunStats) -> None:
    if not bar.disable:
        bar.set_postfix(
            {"done": stats.done, "cached": stats.cached, "failed": stats.failed, "retries": stats.retries},
            refresh=False,
        )


async def _close_litellm_clients() -> None:
    """Stop LiteLLM's logging worker and close its cached HTTP clients on the closing loop (if used)."""
    worker_mod = sys.modules.get("litellm.litellm_core_utils.logging_worker")
    worker = getattr(worker_mod, "GLOBAL_LOGGING_WORKER", None)
    if worker is not None:
        with contextlib.suppress(Exception):
            await worker.stop(discard_pending=True, timeout=2.0)
    mod = sys.modules.get("litellm")
    closer = getattr(mod, "close_litellm_async_clients", None) if mod is not None else None
    if closer is not None:
        with contextlib.suppress(Exception):
            await closer()
