"""Breakdowns per slice, the expected × predicted confusion matrix and the response distribution.

Breakdowns are point estimates with Wilson intervals (cells hold 20–90 items in the paper's
design; the clustered bootstrap is reserved for the headline metrics). Slices: perturbation class,
intensity, class × intensity (key ``"<class>|<intensity>"``), generator, lever and domain —
whichever columns the labels carry. ``refusal_rate`` is over *all* items of the slice, so at LOW
intensity it is the false-refusal rate and at MEDIUM/HIGH the detection rate (one curve shows both
as intensity rises), except per perturbation class, where it is over the class's unanswerable
(MEDIUM+HIGH) items only, as in the official per-class figure. The metric formulas follow the scoring convention.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from refusalbench.metrics import official
from refusalbench.metrics.definitions import BREAKDOWN, REFUSAL_RATE_UNANSWERABLE, Metric, undefined_reason
from refusalbench.metrics.intervals import group_sums, wilson
from refusalbench.metrics.prepare import OUTCOMES, Prepared
from refusalbench.taxonomy import CLASSES, GROUND_TRUTH_LABELS, INTENSITIES, PREDICTION_LABELS

#: breakdown name → column of the labels table (class_intensity is built from two columns).
DIMENSIONS = ("perturbation_class", "intensity", "class_intensity", "generator_model", "lever_selected", "domain")
MISSING = "(missing)"
_CANONICAL = {"perturbation_class": CLASSES, "intensity": INTENSITIES}


def _factorize(values) -> tuple[np.ndarray, list[str]]:
    codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    return codes.astype(np.intp), [
        MISSING if u is None or (not isinstance(u, str) and pd.isna(u)) else str(u) for u in uniques
    ]


def _keys(rows: pd.DataFrame, dim: str):
    """Group codes and group names of `dim`, or None when the labels lack it."""
    if dim == "class_intensity":
        if "perturbation_class" not in rows or "intensity" not in rows:
            return None
        c1, u1 = _factorize(rows["perturbation_class"])
        c2, u2 = _factorize(rows["intensity"])
        codes, combined = pd.factorize(c1 * len(u2) + c2)
        return codes.astype(np.intp), [f"{u1[c // len(u2)]}|{u2[c % len(u2)]}" for c in combined]
    if dim not in rows or rows[dim].isna().all():
        return None
    return _factorize(rows[dim])


def _order(dim: str, uniques: list[str]) -> list[str]:
    if dim == "class_intensity":
        canonical = [f"{c}|{i}" for c in CLASSES for i in INTENSITIES]
    else:
        canonical = list(_CANONICAL.get(dim, ()))
    rank = {k: i for i, k in enumerate(canonical)}
    return sorted(uniques, key=lambda k: (rank.get(k, len(rank)), k))


def metric_set(dim: str, convention: str = "strict") -> tuple[Metric, ...]:
    """The breakdown metrics of dimension `dim` under `convention`."""
    base = official.BREAKDOWN if convention == "official" else BREAKDOWN
    if dim != "perturbation_class":
        return base
    per_class = official.REFUSAL_RATE_UNANSWERABLE if convention == "official" else REFUSAL_RATE_UNANSWERABLE
    return tuple(per_class if m.name == "refusal_rate" else m for m in base)


def metric_table(sums: np.ndarray, names: list[str], level: float, quality_reason, metrics=BREAKDOWN) -> list[dict]:
    """Breakdown metrics for each row of `sums` (groups × K), vectorised over groups."""
    index = {n: i for i, n in enumerate(names)}
    get = lambda name: sums[:, index[name]]  # noqa: E731
    out: list[dict] = [{} for _ in range(sums.shape[0])]
    for m in metrics:
        if any(r not in index for r in m.requires):
            continue
        value, n = m.value(get), m.n(get)
        low, high = wilson(m.successes(get), n, level) if m.is_proportion else (None, None)
        for g in range(sums.shape[0]):
            empty = not (m.empty_zero or n[g] > 0)
            if (m.needs_quality and quality_reason) or empty or not np.isfinite(value[g]):
                row = sums[g : g + 1]
                reason = undefined_reason(m, lambda name, row=row: row[:, index[name]], quality_reason)
                out[g][m.name] = {"value": None, "reason": reason, "n": int(n[g])}
                continue
            entry = {"value": float(value[g]), "n": int(n[g])}
            if low is not None:
                entry["wilson_low"], entry["wilson_high"] = float(low[g]), float(high[g])
            out[g][m.name] = entry
    return out


def breakdowns(p: Prepared, level: float, convention: str, dims=DIMENSIONS) -> dict[str, dict[str, dict]]:
    """Per-slice counts and metrics for every dimension of `dims` the labels carry."""
    quality_reason = p.quality_column_reason if convention == "official" else p.quality_reason
    result: dict[str, dict[str, dict]] = {}
    for dim in dims:
        keys = _keys(p.rows, dim)
        if keys is None:
            continue
        codes, uniques = keys
        sums = group_sums(codes, len(uniques), p.stats)
        table = metric_table(sums, p.stat_names, level, quality_reason, metric_set(dim, convention))
        col = {n: i for i, n in enumerate(p.stat_names)}
        by_key = {}
        for g, key in enumerate(uniques):
            s = sums[g]
            by_key[str(key)] = {
                "n": int(s[col["n"]]),
                "n_answerable": int(s[col["n_ans"]]),
                "n_unanswerable": int(s[col["n_unans"]]),
                "truncated": int(s[col["ans_truncated"]] + s[col["unans_truncated"]]),
                "unscored": int(s[col["ans_unscored"]] + s[col["unans_unscored"]]),
                **table[g],
            }
        result[dim] = {k: by_key[k] for k in _order(dim, list(by_key))}
    return result


def _matrix(gt_code: np.ndarray, pred_code: np.ndarray) -> dict:
    width = len(PREDICTION_LABELS)
    counts = np.bincount(gt_code * width + pred_code, minlength=len(GROUND_TRUTH_LABELS) * width).reshape(-1, width)
    totals = counts.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        normalised = np.round(counts / np.where(totals > 0, totals, 1), 6)
    shares = [row.tolist() if total else [None] * width for row, total in zip(normalised, totals[:, 0])]
    return {"counts": counts.astype(int).tolist(), "row_normalised": shares}


def confusion_matrix(p: Prepared) -> dict:
    """Expected (7 ground-truth labels) × predicted (answer_attempt, 7 codes, truncated, unscored).

    Counts and row-normalised shares (a row with no items is all null), overall and per intensity.
    """
    out = {"rows": list(GROUND_TRUTH_LABELS), "columns": list(PREDICTION_LABELS), **_matrix(p.gt_code, p.pred_code)}
    if "intensity" in p.rows:
        intensity = p.rows["intensity"].to_numpy(dtype=object)
        out["by_intensity"] = {
            level: _matrix(p.gt_code[intensity == level], p.pred_code[intensity == level])
            for level in INTENSITIES
            if (intensity == level).any()
        }
    return out


def response_distribution(p: Prepared) -> dict[str, dict]:
    """How many items fall in each of the eight response categories (they partition the items)."""
    counts = np.bincount(p.outcome_code, minlength=len(OUTCOMES))
    n = len(p.outcome_code)
    return {
        cat: {"count": int(counts[i]), "share": float(counts[i]) / n if n else None} for i, cat in enumerate(OUTCOMES)
    }
