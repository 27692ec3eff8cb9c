"""RefusalBench metrics: the paper's definitions, clustered bootstrap and Wilson intervals, breakdowns,
calibration, paired comparisons and reading other tools' predictions.

Two scoring conventions: ``strict`` (default) — truncated / unscored / ERROR rows stay in every
denominator and are never correct and never refusals, see `refusalbench.metrics.prepare.RULE` — and
``official``, the paper's figure code exactly, see `refusalbench.metrics.official`.
"""

from refusalbench.metrics.compare import compare_runs, paired_bootstrap
from refusalbench.metrics.core import compute_metrics
from refusalbench.metrics.definitions import HEADLINE, REQUIRED_KEYS
from refusalbench.metrics.intervals import paired_difference, percentile_interval, resample_counts, wilson
from refusalbench.metrics.predictions import read_predictions, to_labels
from refusalbench.metrics.prepare import OUTCOMES, RULE, RULE_ID, prepare

__all__ = [
    "HEADLINE",
    "OUTCOMES",
    "REQUIRED_KEYS",
    "RULE",
    "RULE_ID",
    "compare_runs",
    "compute_metrics",
    "paired_bootstrap",
    "paired_difference",
    "percentile_interval",
    "prepare",
    "read_predictions",
    "resample_counts",
    "to_labels",
    "wilson",
]
