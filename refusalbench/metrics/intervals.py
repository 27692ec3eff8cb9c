"""Uncertainty: Wilson intervals and a vectorised, cluster-level percentile bootstrap.

Perturbations of one source question are correlated, so the bootstrap resamples *source
questions* (clusters) with replacement, not items. Every metric of this package is a function of
sums of per-item indicators, so a resample is a vector of cluster multiplicities ``w`` (how often
each cluster was drawn) and its sums are ``w @ S``, where ``S`` holds the per-cluster sums. All
resamples at once: ``W @ S`` with ``W`` of shape (resamples × clusters) — one matrix product
instead of a Python loop. The same seed gives the same ``W`` for every model scored on the same
clusters, which is also what makes the paired bootstrap of a difference between two models valid.
"""

from __future__ import annotations

from functools import lru_cache
from statistics import NormalDist
from typing import Callable, Optional

import numpy as np


def z_value(level: float) -> float:
    """The two-sided standard-normal quantile for confidence `level` (1.96 for 0.95)."""
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be in (0, 1), got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(successes, n, level: float = 0.95):
    """Wilson score interval for `successes` out of `n` (arrays or scalars); NaN where n == 0."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    bad = n <= 0
    low = np.where(bad, np.nan, low)
    high = np.where(bad, np.nan, high)
    return low, high


def group_sums(codes: np.ndarray, n_groups: int, stats: np.ndarray) -> np.ndarray:
    """Sum the rows of `stats` (items × K) per group code → (n_groups × K)."""
    out = np.empty((n_groups, stats.shape[1]), dtype=float)
    for k in range(stats.shape[1]):
        out[:, k] = np.bincount(codes, weights=stats[:, k], minlength=n_groups)
    return out


@lru_cache(maxsize=8)
def _resample_counts_cached(n_clusters: int, n_resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_clusters, size=(n_resamples, n_clusters))
    offsets = (np.arange(n_resamples) * n_clusters)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=n_resamples * n_clusters)
    counts = counts.reshape(n_resamples, n_clusters).astype(float)
    counts.setflags(write=False)
    return counts


def resample_counts(n_clusters: int, n_resamples: int, seed: int) -> np.ndarray:
    """Cluster multiplicities of `n_resamples` bootstrap draws (read-only, resamples × clusters).

    Each row sums to `n_clusters`: one draw of the clusters with replacement. Seeded and cached, so
    every model scored on the same clusters sees the very same resamples.
    """
    if n_clusters <= 0 or n_resamples <= 0:
        return np.zeros((max(n_resamples, 0), max(n_clusters, 0)))
    return _resample_counts_cached(int(n_clusters), int(n_resamples), int(seed))


def percentile_interval(samples: np.ndarray, level: float = 0.95):
    """Percentile interval of bootstrap `samples` (resamples × M or resamples,).

    Resamples in which a metric is undefined (NaN, e.g. category accuracy of a resample without
    correctly detected refusals) are left out: the interval is conditional on the metric existing.

    Returns (low, high) arrays of shape (M,) (or scalars); NaN where every resample is NaN.
    """
    samples = np.asarray(samples, dtype=float)
    tail = (1 - level) / 2 * 100
    finite = np.isfinite(samples)
    if samples.ndim == 1:
        if not finite.any():
            return np.nan, np.nan
        low, high = np.percentile(samples[finite], [tail, 100 - tail])
        return float(low), float(high)
    low = np.full(samples.shape[1], np.nan)
    high = np.full(samples.shape[1], np.nan)
    for j in range(samples.shape[1]):
        col = samples[finite[:, j], j]
        if col.size:
            low[j], high[j] = np.percentile(col, [tail, 100 - tail])
    return low, high


def paired_difference(
    sums_a: np.ndarray,
    sums_b: np.ndarray,
    metric: Callable[[np.ndarray], np.ndarray],
    n_resamples: int,
    seed: int,
    level: float,
) -> dict:
    """Bootstrap interval of ``metric(A) − metric(B)`` on the same clusters, resampled together.

    `sums_a`, `sums_b`: per-cluster sums (clusters × K), rows aligned on the same source questions.
    `metric` maps a (M × K) sums array to M values. Returns `difference`, `ci_low`, `ci_high`,
    `p_value` (two-sided bootstrap share of resamples on the other side of 0) and `n_clusters`.
    """
    if sums_a.shape != sums_b.shape:
        raise ValueError(f"paired sums must have the same shape, got {sums_a.shape} and {sums_b.shape}")
    point = float(metric(sums_a.sum(axis=0, keepdims=True))[0] - metric(sums_b.sum(axis=0, keepdims=True))[0])
    weights = resample_counts(sums_a.shape[0], n_resamples, seed)
    diffs = metric(weights @ sums_a) - metric(weights @ sums_b)
    low, high = percentile_interval(diffs, level)
    finite = diffs[np.isfinite(diffs)]
    p_value: Optional[float] = None
    if finite.size and np.isfinite(point):
        p_value = float(min(1.0, 2 * min((finite <= 0).mean(), (finite >= 0).mean())))
    return {
        "difference": point if np.isfinite(point) else None,
        "ci_low": low if np.isfinite(low) else None,
        "ci_high": high if np.isfinite(high) else None,
        "p_value": p_value,
        "n_clusters": int(sums_a.shape[0]),
        "n_resamples": int(n_resamples),
    }
