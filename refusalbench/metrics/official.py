"""The ``official`` scoring convention: the formulas of the paper's figure code (headline, per-class, ECE).

The official figure code (``extract_metrics_final.py``) reads the evaluator's CSV with exact
strings. Per row, with ``pred`` the predicted label as written and ``gt`` the ground truth as written:

- answerable A ⇔ ``gt == "ANSWER_CORRECTLY"``, unanswerable U otherwise;
- a *refusal* is any ``pred != "answer_attempt"`` — ``ERROR``, ``ANSWER_CORRECTLY``, lower-case or
  marked-up codes and (for our own labels) ``truncated`` and ``unscored`` included;
- ``m`` = ``refusal_match_correct``: the file's own column when it has one; otherwise as the
  evaluator writes it — missing (NaN) for ``ERROR`` / ``unscored`` / empty predictions, ``False`` for
  an answer attempt on U, else exact string equality ``pred == gt``.

Metrics (0 for an empty denominator, as the figure code returns):
answer accuracy = |A ∧ pred = answer_attempt ∧ correct| / |A|; refusal accuracy = NaN-skipping
mean of ``m`` over U (so ERROR rows leave the denominator; null when every ``m`` on U is missing);
FRR = |A ∩ R| / |A|; missed refusal rate = |U ∧ pred = answer_attempt| / |U|; overall refusal
rate = recall = |U ∩ R| / |U|; precision = |U ∩ R| / |R|; F1 = 2PR/(P+R) (0 if P+R = 0); category
accuracy = |U ∩ R ∧ m = True| / |U ∩ R|; hierarchical = F1 × category accuracy; CRS = ½(answer +
refusal accuracy); refusal volume = |R| / N. Per class (MEDIUM+HIGH only): refusal accuracy = mean
``m``, refusal rate = |U ∩ R| / |U|. ECE split: Σ_b n_b^A |acc_b^A − conf_b| / |A| (all answerable
items) and likewise over |U|.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pandas as pd

from refusalbench.config import SCORE_CONVENTIONS
from refusalbench.metrics.definitions import BREAKDOWN_HEADLINE_NAMES, Metric
from refusalbench.taxonomy import ANSWER_ATTEMPT, ANSWER_CORRECTLY, UNSCORED

CONVENTIONS = SCORE_CONVENTIONS
RULE_ID = "official-figure-code"
RULE = (
    "Official convention (the paper's figure code): any predicted label other than the exact string "
    "'answer_attempt' is a refusal (ERROR rows, unrecognised labels, truncated and unscored included); "
    "refusal accuracy is the mean of refusal_match_correct over unanswerable items skipping missing values "
    "(ERROR rows leave its denominator); labels are compared as exact strings (no credit for case or "
    "markup variants); a metric with an empty denominator is 0; missed refusal rate counts answer "
    "attempts on unanswerable items."
)
#: labels that the original evaluator writes when it has no classification (m is missing).
ERROR_LABELS = frozenset({"ERROR", UNSCORED})

STATS = (
    "off_n_ans", "off_n_unans", "off_ans_correct", "off_ans_refusal", "off_unans_refusal",
    "off_unans_attempt", "off_unans_m_true", "off_unans_m_known", "off_unans_refusal_m_true", "off_refusal",
)  # fmt: skip


def _raw(df: pd.DataFrame, raw_column: str, column: str) -> pd.Series:
    return df[raw_column] if raw_column in df.columns else df[column]


def _match_column(values: pd.Series) -> pd.Series:
    """The file's refusal_match_correct as nullable booleans (True/False/1/0 text or numbers; else missing)."""
    truth = {"true": True, "1": True, "1.0": True, "false": False, "0": False, "0.0": False}

    def read(v):
        if v is None or (not isinstance(v, str) and pd.isna(v)):
            return None
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
        return truth.get(str(v).strip().lower())

    return pd.Series(pd.array([read(v) for v in values], dtype="boolean"), index=values.index)


def official_rows(df: pd.DataFrame, correct: pd.Series) -> dict[str, np.ndarray]:
    """Per-item official indicators (see the module docstring); `correct` is the answer correctness."""
    pred = _raw(df, "predicted_label_raw", "predicted_label").astype(object)
    gt = _raw(df, "expected_rag_behavior_raw", "expected_rag_behavior").astype(object)
    ans = (gt == ANSWER_CORRECTLY).to_numpy()
    attempt = (pred == ANSWER_ATTEMPT).to_numpy()
    refusal = ~attempt  # NaN != "answer_attempt" too
    if "refusal_match_correct" in df.columns:
        m = _match_column(df["refusal_match_correct"])
    else:
        missing = pred.isna() | pred.isin(list(ERROR_LABELS))
        derived = np.where(attempt, False, (pred == gt).to_numpy())
        m = pd.Series(pd.array(np.where(missing.to_numpy(), None, derived), dtype="boolean"), index=df.index)
    m_true = m.fillna(False).to_numpy(dtype=bool)
    m_known = m.notna().to_numpy()
    unans = ~ans
    is_true = correct.fillna(False).to_numpy(dtype=bool)
    return {
        "off_n_ans": ans, "off_n_unans": unans, "off_ans_correct": ans & attempt & is_true,
        "off_ans_refusal": ans & refusal, "off_unans_refusal": unans & refusal, "off_unans_attempt": unans & attempt,
        "off_unans_m_true": unans & m_true, "off_unans_m_known": unans & m_known,
        "off_unans_refusal_m_true": unans & refusal & m_true, "off_refusal": refusal,
        "_correct": np.where(ans, ans & attempt & is_true, m_true),
    }  # fmt: skip


def ratio0(num, den) -> np.ndarray:
    """num / den, and 0 where den is 0 (the figure code's guard)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def _refusal_acc(g) -> np.ndarray:
    """NaN-skipping mean of m over U: NaN when U is non-empty but every m is missing, 0 when U is empty."""
    with np.errstate(divide="ignore", invalid="ignore"):
        known = g("off_unans_m_known")
        mean = np.where(known > 0, g("off_unans_m_true") / np.maximum(known, 1), np.nan)
    return np.where(g("off_n_unans") > 0, mean, 0.0)


def _precision(g):
    return ratio0(g("off_unans_refusal"), g("off_refusal"))


def _recall(g):
    return ratio0(g("off_unans_refusal"), g("off_n_unans"))


def _f1(g):
    p, r = _precision(g), _recall(g)
    return ratio0(2 * p * r, p + r)


def _category(g):
    return ratio0(g("off_unans_refusal_m_true"), g("off_unans_refusal"))


def _answer_acc(g):
    return ratio0(g("off_ans_correct"), g("off_n_ans"))


ALL_M_MISSING = "every unanswerable item lacks refusal_match_correct (ERROR rows): the official mean is NaN"


def _p(name, num, den, **kw) -> Metric:
    return Metric(name, lambda g: ratio0(num(g), den(g)), den, "", successes=num, empty_zero=True, **kw)


HEADLINE: tuple[Metric, ...] = (
    _p("answer_accuracy", lambda g: g("off_ans_correct"), lambda g: g("off_n_ans"), needs_quality=True),
    Metric(
        "refusal_accuracy",
        _refusal_acc,
        lambda g: g("off_unans_m_known"),
        ALL_M_MISSING,
        successes=lambda g: g("off_unans_m_true"),
        empty_zero=True,
    ),
    _p("false_refusal_rate", lambda g: g("off_ans_refusal"), lambda g: g("off_n_ans")),
    _p("missed_refusal_rate", lambda g: g("off_unans_attempt"), lambda g: g("off_n_unans")),
    _p("detection_precision", lambda g: g("off_unans_refusal"), lambda g: g("off_refusal")),
    _p("detection_recall", lambda g: g("off_unans_refusal"), lambda g: g("off_n_unans")),
    Metric("detection_f1", _f1, lambda g: g("off_n_unans") + g("off_ans_refusal"), "", empty_zero=True),
    _p("category_accuracy", lambda g: g("off_unans_refusal_m_true"), lambda g: g("off_unans_refusal")),
    Metric(
        "hierarchical_refusal_score",
        lambda g: _f1(g) * _category(g),
        lambda g: g("off_n_unans") + g("off_ans_refusal"),
        "",
        empty_zero=True,
    ),
    Metric(
        "calibrated_refusal_score",
        lambda g: 0.5 * _answer_acc(g) + 0.5 * _refusal_acc(g),
        lambda g: g("n"),
        ALL_M_MISSING,
        needs_quality=True,
        empty_zero=True,
    ),
    _p("overall_refusal_rate", lambda g: g("off_unans_refusal"), lambda g: g("off_n_unans")),
    _p("refusal_volume", lambda g: g("off_refusal"), lambda g: g("n")),
)

#: Per-slice metrics (the official per-class figures are refusal accuracy and refusal rate over U).
BREAKDOWN: tuple[Metric, ...] = tuple(m for m in HEADLINE if m.name in BREAKDOWN_HEADLINE_NAMES) + (
    _p("refusal_rate", lambda g: g("off_refusal"), lambda g: g("n")),
)
REFUSAL_RATE_UNANSWERABLE = _p("refusal_rate", lambda g: g("off_unans_refusal"), lambda g: g("off_n_unans"))


def ece_split(confidence: np.ndarray, correct: np.ndarray, answerable: np.ndarray, edges) -> dict[str, Optional[float]]:
    """The figure code's ECE decomposition: per bin |acc − bin midpoint|, weighted by the bin's A (U)
    items and divided by all A (U) items — with or without a stated confidence."""
    has = np.isfinite(confidence)
    idx = np.searchsorted(np.asarray(edges[1:-1]), np.where(has, confidence, 0.0), side="left")
    mids = [(edges[b] + edges[b + 1]) / 2 for b in range(len(edges) - 1)]
    out: dict[str, Optional[float]] = {}
    for name, mask in (("ece_5bin_answers", answerable), ("ece_5bin_refusals", ~answerable)):
        total = 0.0
        for b, mid in enumerate(mids):
            inside = has & mask & (idx == b)
            if inside.any():
                total += inside.sum() * abs(correct[inside].mean() - mid)
        out[name] = total / mask.sum() if mask.sum() else 0.0
    overall = has.sum()
    num = sum(
        ((has & (idx == b)).sum() * abs(correct[has & (idx == b)].mean() - mid)) if (has & (idx == b)).any() else 0.0
        for b, mid in enumerate(mids)
    )
    out["ece_5bin"] = num / overall if overall else 0.0
    return out


def convention_differences(metrics: dict) -> list[dict]:
    """Headline metrics whose strict and official values differ by more than the half-width of the
    reported convention's interval (bootstrap, else Wilson; any difference when neither exists)."""
    both = metrics.get("conventions") or {}
    reported = (metrics.get("meta") or {}).get("convention", "strict")
    if set(both) != set(CONVENTIONS):
        return []
    rows = []
    for m in HEADLINE:
        ours = metrics.get(m.name) or {}
        strict, off = both["strict"].get(m.name) or {}, both["official"].get(m.name) or {}
        if strict.get("value") is None or off.get("value") is None:
            continue
        low, high = ours.get("ci_low"), ours.get("ci_high")
        if low is None or high is None:
            low, high = ours.get("wilson_low"), ours.get("wilson_high")
        half = (high - low) / 2 if low is not None and high is not None else 0.0
        diff = abs(strict["value"] - off["value"])
        if diff > half + 1e-12:
            rows.append(
                {
                    "metric": m.name,
                    "reported": reported,
                    "strict": strict["value"],
                    "official": off["value"],
                    "difference": strict["value"] - off["value"],
                    "half_width": half,
                }
            )
    return rows
