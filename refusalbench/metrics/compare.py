"""Paired comparison of two models on the same items: bootstrap interval of the difference.

Both models are resampled with the *same* draws of source questions, so the interval reflects the
difference on shared items rather than two independent uncertainties (overlapping marginal
intervals do not mean "no difference"). Works from two labels tables (`paired_bootstrap`) or from
two metrics JSON objects through their ``cluster_sums`` (`compare_runs`).
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pandas as pd

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics.definitions import HEADLINE, Metric
from refusalbench.metrics.intervals import group_sums, paired_difference
from refusalbench.metrics.prepare import prepare

METRICS = {m.name: m for m in HEADLINE}
DEFAULT_COMPARED = (
    "refusal_accuracy",
    "answer_accuracy",
    "calibrated_refusal_score",
    "detection_f1",
    "category_accuracy",
)


def _metric_fn(metric: Metric, names: Sequence[str]):
    index = {n: i for i, n in enumerate(names)}
    return lambda arr: metric.value(lambda name: np.atleast_2d(arr)[:, index[name]])


def _lookup(name: str) -> Metric:
    if name not in METRICS:
        raise UserError(f"Unknown metric {name!r} for a paired comparison; choose from {', '.join(METRICS)}.")
    return METRICS[name]


def paired_bootstrap(
    labels_a: pd.DataFrame,
    labels_b: pd.DataFrame,
    metric: str = "refusal_accuracy",
    settings: Optional[ScoreConfig] = None,
    correct_score: float = 4,
) -> dict:
    """Difference ``metric(A) − metric(B)`` with a paired, source-clustered bootstrap interval.

    Both tables must hold the same items (matched on ``id``); a UserError otherwise. `settings`: the
    bootstrap (the schema's defaults when None).
    """
    s = settings or ScoreConfig()
    m = _lookup(metric)
    pa, pb = prepare(labels_a, correct_score), prepare(labels_b, correct_score)
    if set(pa.rows["id"]) != set(pb.rows["id"]) or len(pa.rows) != len(pb.rows):
        raise UserError("A paired comparison needs both models scored on the same items (same 'id' values).")
    if m.needs_quality and (pa.quality_reason or pb.quality_reason):
        return {"difference": None, "reason": pa.quality_reason or pb.quality_reason}
    if pa.cluster_ids != pb.cluster_ids:
        raise UserError("A paired comparison needs the same source questions ('source_id') in both tables.")
    names = [n for n in pa.stat_names if n in pb.stat_names]
    sa = group_sums(pa.cluster_codes, len(pa.cluster_ids), pa.stats[:, [pa.stat_names.index(n) for n in names]])
    sb = group_sums(pb.cluster_codes, len(pb.cluster_ids), pb.stats[:, [pb.stat_names.index(n) for n in names]])
    fn = _metric_fn(m, names)
    return {"metric": metric, **paired_difference(sa, sb, fn, s.n_resamples, s.seed, s.confidence_level)}


def _state(metrics: dict) -> Optional[tuple[list[str], dict]]:
    state = metrics.get("cluster_sums")
    if not state:
        return None
    return list(state["clusters"]), state["sums"]


def compare_runs(
    metrics_a: dict,
    metrics_b: dict,
    metric_names: Sequence[str] = DEFAULT_COMPARED,
    settings: Optional[ScoreConfig] = None,
) -> dict[str, dict]:
    """Paired differences A − B for each metric, from two metrics JSON objects.

    Uses run A's own bootstrap settings (its ``meta``; the schema's defaults for any it lacks) unless
    `settings` is given. A metric is ``{difference: None, reason}`` when the runs were not scored on the
    same items or the metric is undefined for either run.
    """
    meta_a = metrics_a.get("meta", {})
    if settings is None:
        default = ScoreConfig()
        settings = ScoreConfig(
            n_resamples=int(meta_a.get("n_resamples", default.n_resamples)),
            seed=int(meta_a.get("seed", default.seed)),
            confidence_level=float(meta_a.get("confidence_level", default.confidence_level)),
        )
    n_resamples, seed, level = settings.n_resamples, settings.seed, settings.confidence_level
    sa, sb = _state(metrics_a), _state(metrics_b)
    reason = None
    if sa is None or sb is None:
        reason = "a run has no cluster sums in its metrics JSON"
    elif meta_a.get("items_sha256") != metrics_b.get("meta", {}).get("items_sha256") or set(sa[0]) != set(sb[0]):
        reason = "the runs were not scored on the same items"
    out: dict[str, dict] = {}
    for name in metric_names:
        m = _lookup(name)
        if reason is None and (
            metrics_a.get(name, {}).get("value") is None or metrics_b.get(name, {}).get("value") is None
        ):
            out[name] = {"difference": None, "reason": f"{name} is undefined for one of the runs"}
            continue
        if reason is not None:
            out[name] = {"difference": None, "reason": reason}
            continue
        clusters_a, sums_a = sa
        clusters_b, sums_b = sb
        names = [n for n in sums_a if n in sums_b]
        order_b = {c: i for i, c in enumerate(clusters_b)}
        take = np.array([order_b[c] for c in clusters_a])
        arr_a = np.column_stack([np.asarray(sums_a[n], dtype=float) for n in names])
        arr_b = np.column_stack([np.asarray(sums_b[n], dtype=float)[take] for n in names])
        if not np.array_equal(arr_a[:, names.index("n")], arr_b[:, names.index("n")]):
            out[name] = {"difference": None, "reason": "the runs were not scored on the same items"}
            continue
        out[name] = paired_difference(arr_a, arr_b, _metric_fn(m, names), n_resamples, seed, level)
    return out
