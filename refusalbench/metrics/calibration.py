"""Calibration of stated confidence: ECE (5 fixed bins and 10 equal-width bins), Brier, reliability.

Correctness of an item is the scoring rule's: a correct answer on an answerable item, the exact
refusal code on an unanswerable one; truncated and unscored items are incorrect. Items without a
stated confidence are left out of calibration (and counted).

Bins are right-inclusive, the first also includes 0: the paper's five confidence levels, as the
original figure code bins them, are [0, 0.3], (0.3, 0.5], (0.5, 0.7], (0.7, 0.9], (0.9, 1]. Per bin,
``n_b`` items, ``acc_b`` their accuracy and ``conf_b`` their mean stated confidence;
``ECE = Σ_b n_b |acc_b − conf_b| / Σ_b n_b``. When confidences are the level midpoints (0.15, 0.40,
0.60, 0.80, 0.95) ``conf_b`` is the midpoint, as in the original code.
``n_b |acc_b − conf_b| = |Σ correct − Σ confidence|`` over the bin, so ECE is a function of per-bin
sums and gets the same cluster bootstrap as every other metric.
"""

from __future__ import annotations

import numpy as np

FIVE_BIN_EDGES = (0.0, 0.3, 0.5, 0.7, 0.9, 1.0)
TEN_BIN_EDGES = tuple(round(x, 1) for x in np.linspace(0.0, 1.0, 11))
SCHEMES = {"ece_5bin": FIVE_BIN_EDGES, "ece_10bin": TEN_BIN_EDGES}
#: The paper's categorical confidence levels and their bin midpoints (the original figure code's values).
LEVEL_MIDPOINTS = {
    "VERY_UNCERTAIN": 0.15,
    "UNCERTAIN": 0.40,
    "SOMEWHAT_CONFIDENT": 0.60,
    "CONFIDENT": 0.80,
    "VERY_CONFIDENT": 0.95,
}


def bin_index(confidence: np.ndarray, edges) -> np.ndarray:
    """Right-inclusive bin of each confidence (the first bin includes its left edge)."""
    return np.searchsorted(np.asarray(edges[1:-1]), confidence, side="left")


def stat_names(scheme: str, edges) -> list[str]:
    return [f"{scheme}_{b}_{kind}" for b in range(len(edges) - 1) for kind in ("n", "correct", "conf")]


def calibration_stats(confidence: np.ndarray, correct: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Per-item indicator columns for calibration: counts, correct counts and confidence per bin."""
    has = np.isfinite(confidence)
    conf = np.where(has, confidence, 0.0)
    corr = (correct & has).astype(float)
    names = ["cal_n", "cal_correct", "cal_conf", "cal_sqerr"]
    cols = [has.astype(float), corr, conf, np.where(has, (conf - corr) ** 2, 0.0)]
    for scheme, edges in SCHEMES.items():
        idx = bin_index(conf, edges)
        for b in range(len(edges) - 1):
            inside = has & (idx == b)
            cols += [inside.astype(float), corr * inside, conf * inside]
        names += stat_names(scheme, edges)
    return names, np.column_stack(cols)


def ece_from_sums(get, scheme: str) -> np.ndarray:
    """ECE of `scheme` from summed stats; `get(name)` returns a column of sums."""
    edges = SCHEMES[scheme]
    total = np.zeros_like(get("cal_n"), dtype=float)
    for b in range(len(edges) - 1):
        total = total + np.abs(get(f"{scheme}_{b}_correct") - get(f"{scheme}_{b}_conf"))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(get("cal_n") > 0, total / get("cal_n"), np.nan)


def brier_from_sums(get) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(get("cal_n") > 0, get("cal_sqerr") / get("cal_n"), np.nan)


def reliability(sums: dict[str, float], scheme: str) -> list[dict]:
    """Per-bin table (edges, count, accuracy, mean confidence) from point-estimate sums."""
    edges = SCHEMES[scheme]
    table = []
    for b in range(len(edges) - 1):
        n = sums[f"{scheme}_{b}_n"]
        table.append(
            {
                "low": edges[b],
                "high": edges[b + 1],
                "n": int(n),
                "accuracy": sums[f"{scheme}_{b}_correct"] / n if n else None,
                "mean_confidence": sums[f"{scheme}_{b}_conf"] / n if n else None,
            }
        )
    return table


def ece_subset(confidence: np.ndarray, correct: np.ndarray, mask: np.ndarray, scheme: str = "ece_5bin"):
    """ECE over the items in `mask` only (the original code's answerable / unanswerable split); None if empty."""
    names, cols = calibration_stats(confidence[mask], correct[mask])
    sums = cols.sum(axis=0)
    value = ece_from_sums(lambda n: np.atleast_1d(sums[names.index(n)]), scheme)[0]
    return None if not np.isfinite(value) else float(value)
