"""`compute_metrics`: one model's labels → the metrics JSON (values, intervals, breakdowns, …).

Output keys: the headline metrics (see `definitions`) each ``{value, ci_low, ci_high, n}`` plus
``wilson_low``/``wilson_high`` for proportions, or ``{value: null, reason, n}`` when undefined;
``refusal_rate_by_intensity``, ``multi_passage`` (GaRAGe flags, when present), ``breakdowns``,
``confusion_matrix``, ``response_distribution``, ``calibration``, ``counts``, ``meta`` and
``cluster_sums`` (per-source-question sums, so two runs can be compared with a paired bootstrap
from their JSON alone; see `compare`).

Intervals: ``ci_low``/``ci_high`` are the percentile bootstrap over source questions (seeded);
Wilson intervals treat items as independent and are given for proportions as a second view.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import pandas as pd

from refusalbench.config import ScoreConfig
from refusalbench.metrics import calibration as cal
from refusalbench.metrics import official
from refusalbench.metrics.breakdowns import breakdowns, confusion_matrix, response_distribution
from refusalbench.metrics.definitions import (
    HEADLINE,
    MULTI_PASSAGE,
    REFUSAL_RATE_BY_INTENSITY,
    Metric,
    undefined_reason,
)
from refusalbench.metrics.intervals import group_sums, percentile_interval, resample_counts, wilson
from refusalbench.metrics.prepare import RULE, RULE_ID, Prepared, prepare

#: layout of one model's metrics object (its ``meta.schema_version``); the document around the models
#: has its own version (`refusalbench.metrics.document.SCHEMA_VERSION`)
SCHEMA_VERSION = 1


def getter(sums: np.ndarray, names: Sequence[str]):
    """Column accessor over a (M × K) sums array."""
    index = {n: i for i, n in enumerate(names)}
    sums = np.atleast_2d(sums)
    return lambda name: sums[:, index[name]]


def _num(x) -> Optional[float]:
    return float(x) if x is not None and np.isfinite(x) else None


def metric_entries(
    metrics: Sequence[Metric],
    point: np.ndarray,
    names: Sequence[str],
    level: float,
    quality_reason: Optional[str] = None,
    boot: Optional[np.ndarray] = None,
) -> dict[str, dict]:
    """Entries ``{value, ci_low, ci_high, n[, wilson_low, wilson_high]}`` for one set of sums.

    `point`: the (K,) sums; `boot`: (resamples × K) resampled sums, or None for no bootstrap CI.
    Metrics whose required stats are missing are left out.
    """
    get = getter(point, names)
    boot_get = getter(boot, names) if boot is not None and boot.size else None
    out: dict[str, dict] = {}
    for m in metrics:
        if any(r not in names for r in m.requires):
            continue
        n = int(round(float(m.n(get)[0])))
        reason = undefined_reason(m, get, quality_reason)
        if reason is not None:
            out[m.name] = {"value": None, "reason": reason, "n": n}
            continue
        entry = {"value": float(m.value(get)[0]), "ci_low": None, "ci_high": None, "n": n}
        if boot_get is not None:
            low, high = percentile_interval(m.value(boot_get), level)
            entry["ci_low"], entry["ci_high"] = _num(low), _num(high)
        if m.is_proportion:
            wl, wh = wilson(m.successes(get), m.n(get), level)
            entry["wilson_low"], entry["wilson_high"] = _num(wl[0]), _num(wh[0])
        out[m.name] = entry
    return out


def _with_calibration(p: Prepared) -> tuple[np.ndarray, list[str]]:
    if p.confidence is None:
        return p.stats, list(p.stat_names)
    names, cols = cal.calibration_stats(p.confidence, p.rows["correct"].to_numpy(dtype=bool))
    return np.hstack([p.stats, cols]), list(p.stat_names) + names


def _official_calibration(block: dict, p: Prepared) -> dict:
    """Replace the 5-bin ECE figures by the official figure code's (bin midpoints, its denominators)."""
    answerable = p.rows["answerable"].to_numpy(dtype=bool)
    values = official.ece_split(p.confidence, p.official_correct.astype(bool), answerable, cal.FIVE_BIN_EDGES)
    block["ece_5bin"] = {"value": values.pop("ece_5bin"), "ci_low": None, "ci_high": None, "n": block["n"]}
    block.update(values)
    return block


def _calibration_block(p: Prepared, point, boot, names, level) -> dict:
    if p.confidence is None:
        return {"available": False, "reason": "no stated confidence (no 'confidence' column or no values)"}
    get = getter(point, names)
    boot_get = getter(boot, names) if boot is not None and boot.size else None
    n = int(get("cal_n")[0])
    block: dict = {"available": n > 0, "n": n, "n_without_confidence": int(len(p.rows) - n)}
    if n == 0:
        block["reason"] = "no item has a stated confidence"
        return block
    for name, fn in (
        ("ece_5bin", lambda g: cal.ece_from_sums(g, "ece_5bin")),
        ("ece_10bin", lambda g: cal.ece_from_sums(g, "ece_10bin")),
        ("brier", cal.brier_from_sums),
    ):
        entry = {"value": float(fn(get)[0]), "ci_low": None, "ci_high": None, "n": n}
        if boot_get is not None:
            low, high = percentile_interval(fn(boot_get), level)
            entry["ci_low"], entry["ci_high"] = _num(low), _num(high)
        block[name] = entry
    correct = p.rows["correct"].to_numpy(dtype=bool)
    answerable = p.rows["answerable"].to_numpy(dtype=bool)
    block["ece_5bin_answers"] = cal.ece_subset(p.confidence, correct, answerable)
    block["ece_5bin_refusals"] = cal.ece_subset(p.confidence, correct, ~answerable)
    block["mean_confidence"] = float(get("cal_conf")[0] / n)
    block["accuracy"] = float(get("cal_correct")[0] / n)
    sums = dict(zip(names, np.atleast_2d(point)[0]))
    block["reliability_5bin"] = cal.reliability(sums, "ece_5bin")
    block["reliability_10bin"] = cal.reliability(sums, "ece_10bin")
    return block


def _column_list(values: np.ndarray) -> list:
    if np.all(values == np.floor(values)):
        return values.astype(np.int64).tolist()
    return np.round(values, 10).tolist()


def compute_metrics(
    labels: pd.DataFrame | Prepared,
    settings: Optional[ScoreConfig] = None,
    correct_score: float = 4,
    meta: Optional[dict] = None,
    include_cluster_sums: bool = True,
) -> dict:
    """All metrics of one model on one benchmark (a labels table: see `prepare` for its columns).

    `settings`: the bootstrap (resamples, seed, confidence level) and the convention, the schema's
    defaults when None. The convention, ``strict`` (the project's rule, `prepare.RULE`) or ``official``
    (the paper's figure code, `official.RULE`), decides the headline metrics, breakdowns and ECE split;
    ``conventions`` carries the headline metrics under both, so a reader can see where the choice matters.
    """
    settings = settings or ScoreConfig()
    n_resamples, seed, level = settings.n_resamples, settings.seed, settings.confidence_level
    convention = str(settings.convention)
    p = labels if isinstance(labels, Prepared) else prepare(labels, correct_score=correct_score)
    stats, names = _with_calibration(p)
    n_clusters = len(p.cluster_ids)
    cluster = group_sums(p.cluster_codes, n_clusters, stats)
    point = cluster.sum(axis=0)
    boot = resample_counts(n_clusters, n_resamples, seed) @ cluster if n_resamples > 0 else None

    both = {
        "strict": metric_entries(HEADLINE, point, names, level, p.quality_reason, boot),
        "official": metric_entries(official.HEADLINE, point, names, level, p.quality_column_reason, boot),
    }
    out: dict = dict(both[convention])
    out["refusal_rate_by_intensity"] = metric_entries(REFUSAL_RATE_BY_INTENSITY, point, names, level, None, boot)
    if p.has_multi_passage:
        out["multi_passage"] = metric_entries(MULTI_PASSAGE, point, names, level, None, boot)
    out["breakdowns"] = breakdowns(p, level, convention)
    out["confusion_matrix"] = confusion_matrix(p)
    out["response_distribution"] = response_distribution(p)
    out["calibration"] = _calibration_block(p, point, boot, names, level)
    if convention == "official" and out["calibration"].get("available"):
        out["calibration"] = _official_calibration(out["calibration"], p)
    other = "strict" if convention == "official" else "official"
    per_class = breakdowns(p, level, other, dims=("perturbation_class",)).get("perturbation_class")
    out["conventions"] = {
        convention: both[convention],
        other: {**both[other], **({"breakdowns": {"perturbation_class": per_class}} if per_class else {})},
    }
    get = getter(point, names)
    out["counts"] = {
        "total_instances": len(p.rows),
        "answerable_instances": int(get("n_ans")[0]),
        "unanswerable_instances": int(get("n_unans")[0]),
        "answer_attempts": int(get("ans_attempt")[0] + get("unans_attempt")[0]),
        "refusals": int(get("ans_refusal")[0] + get("unans_refusal")[0]),
        "truncated": int(get("ans_truncated")[0] + get("unans_truncated")[0]),
        "unscored": int(get("ans_unscored")[0] + get("unans_unscored")[0]),
        "source_questions": n_clusters,
        **p.notes,
    }
    out["meta"] = {
        "schema_version": SCHEMA_VERSION,
        "n_resamples": int(n_resamples),
        "seed": int(seed),
        "confidence_level": float(level),
        "interval": "percentile bootstrap over source questions (clustered); Wilson for proportions",
        "cluster_column": p.cluster_column,
        "n_clusters": n_clusters,
        "answer_correct_threshold": correct_score,
        "convention": convention,
        "truncated_unscored_rule": official.RULE_ID if convention == "official" else RULE_ID,
        "truncated_unscored_rule_text": official.RULE if convention == "official" else RULE,
        "items_sha256": p.items_sha256,
        **(meta or {}),
    }
    if include_cluster_sums:
        out["cluster_sums"] = {
            "clusters": list(p.cluster_ids),
            "sums": {name: _column_list(cluster[:, k]) for k, name in enumerate(names)},
        }
    return out
