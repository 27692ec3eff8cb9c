"""Every metric as a function of summed per-item indicators (the paper's, with the truncated/unscored rule).

Notation (sums over the items of a slice or a bootstrap resample; see `prepare.BASE_STATS`):
A = answerable items (ground truth ANSWER_CORRECTLY), U = the others; a *refusal* is a predicted
label among the seven refusal codes; TP = refusals on U; C = refusals on U with the exact code;
FP = refusals on A.

- answer accuracy      = correct answers on A / |A|
- refusal accuracy     = C / |U|
- false refusal rate   = FP / |A|
- missed refusal rate  = (|U| − TP) / |U|           (= 1 − recall; includes truncated/unscored on U)
- detection precision  = TP / (TP + FP)             (positive class: "should refuse")
- detection recall     = TP / |U|
- detection F1         = 2·TP / (2·TP + FP + FN)    = 2·TP / (TP + FP + |U|), i.e. 2PR/(P+R), and 0 when TP = 0
- category accuracy    = C / TP                     (over correctly detected refusals)
- hierarchical score   = F1 × category accuracy     = 2·C / (TP + FP + |U|)  (0 when TP = 0)
- calibrated refusal score (CRS) = ½ (answer accuracy + refusal accuracy)
- overall refusal rate = TP / |U| (the original code's ORR, the paper's "correct refusal rate"; = recall)
- refusal volume       = refusals / all items
So refusal accuracy = recall × category accuracy always holds under this rule.

A metric whose denominator is 0 in the data is undefined (``None`` with a reason), never 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from refusalbench.taxonomy import INTENSITIES

Get = Callable[[str], np.ndarray]


def ratio(num, den) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


@dataclass(frozen=True)
class Metric:
    name: str
    value: Callable[[Get], np.ndarray]
    n: Callable[[Get], np.ndarray]  # the items the metric is computed over
    undefined: str  # why it has no value when `n` is 0
    successes: Optional[Callable[[Get], np.ndarray]] = None  # set for proportions → Wilson interval
    requires: tuple[str, ...] = ()  # stats that must exist (else the metric is not reported)
    needs_quality: bool = False
    empty_zero: bool = False  # official convention: an empty denominator gives 0, not "undefined"

    @property
    def is_proportion(self) -> bool:
        return self.successes is not None


def _proportion(
    name: str, num: Callable[[Get], np.ndarray], den: Callable[[Get], np.ndarray], undefined: str, **kw
) -> Metric:
    return Metric(name, lambda g: ratio(num(g), den(g)), den, undefined, successes=num, **kw)


def _refusals(g: Get) -> np.ndarray:
    return g("ans_refusal") + g("unans_refusal")


def _answer_acc(g: Get) -> np.ndarray:
    return ratio(g("ans_correct"), g("n_ans"))


def _refusal_acc(g: Get) -> np.ndarray:
    return ratio(g("unans_correct"), g("n_unans"))


NO_A = "no answerable items (ground truth ANSWER_CORRECTLY) in this slice"
NO_U = "no unanswerable items (ground truth a refusal code) in this slice"

HEADLINE: tuple[Metric, ...] = (
    _proportion("answer_accuracy", lambda g: g("ans_correct"), lambda g: g("n_ans"), NO_A, needs_quality=True),
    _proportion("refusal_accuracy", lambda g: g("unans_correct"), lambda g: g("n_unans"), NO_U),
    _proportion("false_refusal_rate", lambda g: g("ans_refusal"), lambda g: g("n_ans"), NO_A),
    _proportion("missed_refusal_rate", lambda g: g("n_unans") - g("unans_refusal"), lambda g: g("n_unans"), NO_U),
    _proportion("detection_precision", lambda g: g("unans_refusal"), _refusals, "no refusals predicted"),
    _proportion("detection_recall", lambda g: g("unans_refusal"), lambda g: g("n_unans"), NO_U),
    Metric(
        "detection_f1",
        lambda g: ratio(2 * g("unans_refusal"), _refusals(g) + g("n_unans")),
        lambda g: g("n_unans") + g("ans_refusal"),
        "no unanswerable items and no refusals",
    ),
    _proportion(
        "category_accuracy",
        lambda g: g("unans_correct"),
        lambda g: g("unans_refusal"),
        "no correctly detected refusals (refusals on unanswerable items)",
    ),
    Metric(
        "hierarchical_refusal_score",
        lambda g: ratio(2 * g("unans_correct"), _refusals(g) + g("n_unans")),
        lambda g: g("n_unans") + g("ans_refusal"),
        "no unanswerable items and no refusals",
    ),
    Metric(
        "calibrated_refusal_score",
        lambda g: 0.5 * (_answer_acc(g) + _refusal_acc(g)),
        lambda g: np.where((g("n_ans") > 0) & (g("n_unans") > 0), g("n"), 0),
        "needs both answerable and unanswerable items (meaningless on a single-intensity slice)",
        needs_quality=True,
    ),
    _proportion("overall_refusal_rate", lambda g: g("unans_refusal"), lambda g: g("n_unans"), NO_U),
    _proportion("refusal_volume", _refusals, lambda g: g("n"), "no items"),
)

#: The keys the metrics JSON must carry even when a metric is undefined.
REQUIRED_KEYS = tuple(m.name for m in HEADLINE[:10])

MULTI_PASSAGE: tuple[Metric, ...] = tuple(
    _proportion(name, (lambda s: lambda g: g(s))(stat), lambda g: g("n_ans"), NO_A, requires=(stat,))
    for name, stat in (
        ("eligibility", "mp_eligible"),
        ("factuality", "mp_factual"),
        ("raf_flag", "mp_raf_flag"),
        ("raf_eligible", "mp_raf_eligible"),
    )
) + (
    _proportion(
        "raf_flag_on_answered",
        lambda g: g("mp_raf_flag"),
        lambda g: g("ans_attempt"),
        "no answer attempts on answerable items",
        requires=("mp_raf_flag",),
    ),
    Metric(
        "hybrid_score",
        lambda g: ratio(g("mp_raf_flag") + g("unans_correct"), g("n")),
        lambda g: g("n"),
        "no items",
        requires=("mp_raf_flag",),
    ),
    Metric(
        "calibrated_refusal_score_raf",
        lambda g: 0.5 * (ratio(g("mp_raf_flag"), g("n_ans")) + _refusal_acc(g)),
        lambda g: np.where((g("n_ans") > 0) & (g("n_unans") > 0), g("n"), 0),
        "needs both answerable and unanswerable items",
        requires=("mp_raf_flag",),
    ),
)

REFUSAL_RATE_BY_INTENSITY: tuple[Metric, ...] = tuple(
    _proportion(
        level,
        (lambda lv: lambda g: g(f"refusals_at_{lv}"))(level),
        (lambda lv: lambda g: g(f"n_at_{lv}"))(level),
        f"no items at intensity {level}",
        requires=(f"n_at_{level}",),
    )
    for level in INTENSITIES
)

#: The headline metrics a breakdown repeats for every group, under either scoring convention.
BREAKDOWN_HEADLINE_NAMES = (
    "answer_accuracy",
    "refusal_accuracy",
    "false_refusal_rate",
    "missed_refusal_rate",
    "detection_f1",
    "category_accuracy",
    "calibrated_refusal_score",
)

#: Metrics reported for every group of a breakdown (point estimate + Wilson; no bootstrap).
BREAKDOWN: tuple[Metric, ...] = (
    tuple(m for m in HEADLINE if m.name in BREAKDOWN_HEADLINE_NAMES)
    + (_proportion("refusal_rate", _refusals, lambda g: g("n"), "no items"),)
    + tuple(m for m in MULTI_PASSAGE if m.name in ("raf_flag", "raf_eligible"))
)


#: Per-class refusal rate: over the class's unanswerable (MEDIUM+HIGH) items only, as the official per-class figure.
REFUSAL_RATE_UNANSWERABLE = _proportion("refusal_rate", lambda g: g("unans_refusal"), lambda g: g("n_unans"), NO_U)


def undefined_reason(metric: Metric, get: Get, quality_reason: Optional[str]) -> Optional[str]:
    """Why `metric` has no value on the (point-estimate) sums `get`, or None if it has one."""
    if metric.needs_quality and quality_reason:
        return quality_reason
    if metric.empty_zero:
        return None if np.isfinite(metric.value(get)[0]) else metric.undefined
    if metric.name == "calibrated_refusal_score":
        if not get("n_ans")[0] > 0:
            return "answer accuracy is undefined: " + NO_A
        if not get("n_unans")[0] > 0:
            return "refusal accuracy is undefined: " + NO_U
    if not metric.n(get)[0] > 0 or not np.isfinite(metric.value(get)[0]):
        return metric.undefined
    return None
