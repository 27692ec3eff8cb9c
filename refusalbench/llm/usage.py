"""The usage ledger: calls, cache hits, failures, tokens, latency and cost per model and per role.

Tokens, latency and `cost_usd` count only what this process spent (fresh calls). A cache hit adds
to `cached` and its original price to `cached_cost_usd`, so a resumed run still reports what its
outputs cost in total (`cost_usd + cached_cost_usd`). A cost total is None while no call of that
group had a known price (local servers); `unpriced_calls` counts fresh calls without a price.
Dry runs fill the `estimate_*` fields instead.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Optional

from refusalbench.llm.completion import Completion

_COUNTERS = (
    "calls",
    "cached",
    "failed",
    "truncated",
    "retries",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "unpriced_calls",
    "estimate_calls",
    "estimate_cached",
    "estimate_input_tokens",
    "estimate_output_tokens",
)
_FLOATS = ("latency_s",)
_OPTIONAL_COSTS = ("cost_usd", "cached_cost_usd", "estimate_cost_usd")


def _empty() -> dict[str, Any]:
    row: dict[str, Any] = {k: 0 for k in _COUNTERS}
    row.update({k: 0.0 for k in _FLOATS})
    row.update({k: None for k in _OPTIONAL_COSTS})
    return row


def _add_cost(row: dict, field: str, value: Optional[float]) -> None:
    if value is not None:
        row[field] = (row[field] or 0.0) + float(value)


class UsageLedger:
    """Thread-safe totals, keyed by model id and by role."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._models: dict[str, dict[str, Any]] = {}
        self._roles: dict[str, dict[str, Any]] = {}
        self._names: dict[str, str] = {}

    def _rows(self, model_id: str, model_name: str, role: str) -> tuple[dict, dict, dict]:
        pair = f"{model_id}\x00{role}"
        rows = self._models.get(model_id), self._roles.get(role), self._models.get(pair)
        if None not in rows:
            return rows  # type: ignore[return-value]
        self._names.setdefault(model_id, model_name)
        return (
            self._models.setdefault(model_id, _empty()),
            self._roles.setdefault(role, _empty()),
            self._models.setdefault(pair, _empty()),
        )

    def record(self, model_id: str, model_name: str, role: str, c: Completion, retries: int = 0) -> None:
        """Add one finished call (fresh, cached or failed)."""
        with self._lock:
            for row in self._rows(model_id, model_name, role):
                row["calls"] += 1
                row["retries"] += retries
                if c.error is not None:
                    row["failed"] += 1
                    continue
                if c.truncated:
                    row["truncated"] += 1
                if c.cached:
                    row["cached"] += 1
                    _add_cost(row, "cached_cost_usd", c.cost_usd)
                    continue
                row["input_tokens"] += c.input_tokens or 0
                row["output_tokens"] += c.output_tokens or 0
                row["reasoning_tokens"] += c.reasoning_tokens or 0
                row["latency_s"] += c.latency_s or 0.0
                if c.cost_usd is None:
                    row["unpriced_calls"] += 1
                _add_cost(row, "cost_usd", c.cost_usd)

    def record_estimate(
        self,
        model_id: str,
        model_name: str,
        role: str,
        *,
        cached: bool,
        input_tokens: int,
        output_tokens: int,
        cost_usd: Optional[float],
    ) -> None:
        """Add one dry-run estimate (a cached call costs nothing)."""
        with self._lock:
            for row in self._rows(model_id, model_name, role):
                row["estimate_calls"] += 1
                if cached:
                    row["estimate_cached"] += 1
                    continue
                row["estimate_input_tokens"] += input_tokens
                row["estimate_output_tokens"] += output_tokens
                _add_cost(row, "estimate_cost_usd", cost_usd)

    def summary(self) -> dict[str, Any]:
        """``{"models": {id: totals}, "roles": {role: totals}, "model_roles": [...], "total": totals}``."""
        with self._lock:
            models = {k: {"name": self._names[k], **v} for k, v in self._models.items() if "\x00" not in k}
            pairs = [
                {"model": k.split("\x00")[0], "role": k.split("\x00")[1], **v}
                for k, v in self._models.items()
                if "\x00" in k
            ]
            roles = {k: dict(v) for k, v in self._roles.items()}
        total = _empty()
        for row in models.values():
            for k in _COUNTERS + _FLOATS:
                total[k] += row[k]
            for k in _OPTIONAL_COSTS:
                _add_cost(total, k, row[k])
        for rows in (models.values(), roles.values(), pairs, [total]):
            for row in rows:
                row["latency_s"] = round(row["latency_s"], 3)
        return {"models": models, "roles": roles, "model_roles": pairs, "total": total}

    def is_empty(self) -> bool:
        with self._lock:
            return not self._models

    def write(self, run_dir: str | Path) -> Path:
        path = Path(run_dir) / "usage.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.summary(), indent=2, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
        return path
