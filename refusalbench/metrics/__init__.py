"""RefusalBench metrics: the paper's definitions, clustered bootstrap and Wilson intervals, breakdowns,
calibration, paired comparisons, reading other tools' predictions, and the metrics document (``metrics.json``).

Two scoring conventions: ``strict`` (default) — truncated / unscored / ERROR rows stay in every
denominator and are never correct and never refusals, see `refusalbench.metrics.prepare.RULE` — and
``official``, the paper's figure code exactly, see `refusalbench.metrics.official`.

The names below are imported on first use, so that reading a metrics document
(`refusalbench.metrics.document`, standard library only) does not load pandas. (`prepare` the function
lives in `refusalbench.metrics.prepare`, the module of the same name.)
"""

from __future__ import annotations

import importlib

_SOURCES = {
    "compare_runs": "compare",
    "paired_bootstrap": "compare",
    "compute_metrics": "core",
    "HEADLINE": "definitions",
    "REQUIRED_KEYS": "definitions",
    "load_metrics": "document",
    "metrics_per_model": "document",
    "paired_difference": "intervals",
    "percentile_interval": "intervals",
    "resample_counts": "intervals",
    "wilson": "intervals",
    "read_predictions": "predictions",
    "to_labels": "predictions",
    "OUTCOMES": "prepare",
    "RULE": "prepare",
    "RULE_ID": "prepare",
}

__all__ = sorted(_SOURCES)


def __getattr__(name: str):
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_SOURCES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SOURCES))
