"""Scoring several models (or reasoning budgets) held in one labels table, and their summary table.

`combine` puts them in the metrics document (`refusalbench.metrics.document`), one shape for one
model or many: each other model is compared with the best one by refusal accuracy (paired bootstrap
on shared items).
"""

from __future__ import annotations

from typing import Optional

import pandas as pd

from refusalbench.config import ScoreConfig
from refusalbench.metrics.compare import compare_runs
from refusalbench.metrics.core import compute_metrics
from refusalbench.metrics.definitions import HEADLINE
from refusalbench.metrics.document import metrics_document

HEADLINE_NAMES = tuple(m.name for m in HEADLINE)


def _budget(value) -> Optional[int]:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return None


def score_by_model(
    labels: pd.DataFrame,
    default_model: str = "model",
    settings: Optional[ScoreConfig] = None,
    correct_score: float = 4,
    meta: Optional[dict] = None,
) -> dict[str, dict]:
    """Metrics per model (and per reasoning budget when a model has several) → {name: metrics}.

    `settings`: bootstrap and convention (`compute_metrics`)."""
    labels = labels.reset_index(drop=True)
    model = (
        labels["model"].astype(object).where(labels["model"].notna(), default_model)
        if "model" in labels
        else pd.Series([default_model] * len(labels))
    )
    budget = (
        labels["reasoning_budget"].map(_budget) if "reasoning_budget" in labels else pd.Series([None] * len(labels))
    )
    keys = pd.DataFrame({"model": model.astype(str), "budget": budget.astype(object)})
    results: dict[str, dict] = {}
    for name, idx in keys.groupby("model", sort=True).groups.items():
        sub = keys.loc[idx]
        budgets = sorted({b for b in sub["budget"] if b is not None})
        split = len(budgets) > 1
        parts = (
            sub.groupby(sub["budget"].map(lambda b: -1 if b is None else b), sort=True).groups.items()
            if split
            else [(None, idx)]
        )
        for b, part in parts:
            b = None if b is None or b == -1 else int(b)
            label = f"{name} [budget {b}]" if split else str(name)
            run_budget = b if split else (budgets[0] if budgets else None)
            run_meta = {**(meta or {}), "model": str(name), "reasoning_budget": run_budget}
            results[label] = compute_metrics(labels.loc[part], settings, correct_score, run_meta)
    return results


def combine(results: dict[str, dict], meta: Optional[dict] = None) -> dict:
    """The metrics document of `results` ({name: metrics}): paired differences against the best model
    by refusal accuracy (none with one model) and the run's `meta`."""
    ranked = sorted(results, key=lambda k: -(results[k].get("refusal_accuracy", {}).get("value") or -1.0))
    best = ranked[0]
    paired = {name: {"reference": best, **compare_runs(results[name], results[best])} for name in ranked[1:]}
    return metrics_document(results, paired, {**(meta or {}), "models": list(results), "reference_model": best})


def summary_table(results: dict[str, dict]) -> pd.DataFrame:
    """One row per model: value and bootstrap interval of each headline metric, plus counts."""
    rows = []
    for name, m in results.items():
        meta = m.get("meta", {})
        row = {
            "run": name,
            "model": meta.get("model", name),
            "reasoning_budget": meta.get("reasoning_budget"),
            "benchmark": meta.get("benchmark"),
            "n": m.get("counts", {}).get("total_instances"),
            "truncated": m.get("counts", {}).get("truncated"),
            "unscored": m.get("counts", {}).get("unscored"),
        }
        for metric in HEADLINE_NAMES:
            entry = m.get(metric) or {}
            row[metric] = entry.get("value")
            row[f"{metric}_ci_low"] = entry.get("ci_low")
            row[f"{metric}_ci_high"] = entry.get("ci_high")
        rows.append(row)
    return pd.DataFrame(rows)
