"""Report tables: DataFrames built from single-model metrics objects, and a Markdown renderer."""

from __future__ import annotations

import math
from typing import Iterable, Optional

import pandas as pd

from refusalbench.metrics.compare import DEFAULT_COMPARED, compare_runs
from refusalbench.metrics.models import summary_table
from refusalbench.metrics.prepare import OUTCOMES
from refusalbench.taxonomy import INTENSITIES

MULTI_PASSAGE_NAMES = (
    "eligibility",
    "factuality",
    "raf_flag",
    "raf_eligible",
    "raf_flag_on_answered",
    "hybrid_score",
    "calibrated_refusal_score_raf",
)


def headline(runs: dict[str, dict]) -> pd.DataFrame:
    """One row per run, sorted by refusal accuracy (best first)."""
    table = summary_table(runs)
    if table.empty:
        return table
    return table.sort_values("refusal_accuracy", ascending=False, na_position="last").reset_index(drop=True)


def refusal_rate_by_intensity(runs: dict[str, dict]) -> pd.DataFrame:
    rows = []
    for run, m in runs.items():
        for level in INTENSITIES:
            e = m.get("refusal_rate_by_intensity", {}).get(level)
            if e:
                rows.append(
                    {
                        "run": run,
                        "intensity": level,
                        "refusal_rate": e.get("value"),
                        "ci_low": e.get("ci_low"),
                        "ci_high": e.get("ci_high"),
                        "n": e.get("n"),
                    }
                )
    return pd.DataFrame(rows, columns=["run", "intensity", "refusal_rate", "ci_low", "ci_high", "n"])


def breakdown_long(runs: dict[str, dict]) -> pd.DataFrame:
    """Every breakdown cell as one row per (run, dimension, group, metric)."""
    rows = []
    for run, m in runs.items():
        for dim, groups in m.get("breakdowns", {}).items():
            for group, cell in groups.items():
                for metric, e in cell.items():
                    if isinstance(e, dict):
                        rows.append(
                            {
                                "run": run,
                                "dimension": dim,
                                "group": group,
                                "metric": metric,
                                "value": e.get("value"),
                                "n": e.get("n"),
                                "wilson_low": e.get("wilson_low"),
                                "wilson_high": e.get("wilson_high"),
                                "reason": e.get("reason"),
                            }
                        )
    return pd.DataFrame(
        rows, columns=["run", "dimension", "group", "metric", "value", "n", "wilson_low", "wilson_high", "reason"]
    )


def class_intensity(
    runs: dict[str, dict], metric: str = "refusal_rate", field: str = "value"
) -> dict[str, pd.DataFrame]:
    """Per run: a class × intensity matrix of `metric`'s `field` ("value", or "n" for the items per cell)."""
    out = {}
    for run, m in runs.items():
        cells = m.get("breakdowns", {}).get("class_intensity")
        if not cells:
            continue
        data: dict[str, dict[str, float]] = {}
        for key, cell in cells.items():
            cls, _, level = key.partition("|")
            value = (cell.get(metric) or {}).get(field)
            data.setdefault(cls, {})[level] = math.nan if value is None else value
        frame = pd.DataFrame(data).T
        out[run] = frame.reindex(columns=[i for i in INTENSITIES if i in frame.columns])
    return out


def response_distribution(runs: dict[str, dict]) -> pd.DataFrame:
    rows = []
    for run, m in runs.items():
        dist = m.get("response_distribution", {})
        rows.append({"run": run, **{cat: (dist.get(cat) or {}).get("share") for cat in OUTCOMES}})
    return pd.DataFrame(rows, columns=["run", *OUTCOMES])


def multi_passage(runs: dict[str, dict]) -> pd.DataFrame:
    rows = []
    for run, m in runs.items():
        block = m.get("multi_passage")
        if block:
            rows.append({"run": run, **{k: (block.get(k) or {}).get("value") for k in MULTI_PASSAGE_NAMES}})
    return pd.DataFrame(rows, columns=["run", *MULTI_PASSAGE_NAMES])


def calibration(runs: dict[str, dict]) -> pd.DataFrame:
    rows = []
    for run, m in runs.items():
        c = m.get("calibration") or {}
        if c.get("available"):
            rows.append(
                {
                    "run": run,
                    "n": c.get("n"),
                    "ece_5bin": c["ece_5bin"]["value"],
                    "ece_5bin_ci_low": c["ece_5bin"].get("ci_low"),
                    "ece_5bin_ci_high": c["ece_5bin"].get("ci_high"),
                    "ece_10bin": c["ece_10bin"]["value"],
                    "brier": c["brier"]["value"],
                    "ece_5bin_answers": c.get("ece_5bin_answers"),
                    "ece_5bin_refusals": c.get("ece_5bin_refusals"),
                    "mean_confidence": c.get("mean_confidence"),
                    "accuracy": c.get("accuracy"),
                }  # fmt: skip
            )
    return pd.DataFrame(rows)


def paired_differences(
    runs: dict[str, dict], ranking: pd.DataFrame, metrics: Iterable[str] = DEFAULT_COMPARED
) -> pd.DataFrame:
    """Each run minus the top-ranked run, with a paired bootstrap interval, per metric."""
    columns = ["run", "reference", "metric", "difference", "ci_low", "ci_high", "p_value", "reason"]
    if len(runs) < 2 or ranking.empty:
        return pd.DataFrame(columns=columns)
    best = ranking["run"].iloc[0]
    rows = []
    for run in ranking["run"].iloc[1:]:
        for metric, d in compare_runs(runs[run], runs[best], tuple(metrics)).items():
            rows.append({"run": run, "reference": best, "metric": metric, **{k: d.get(k) for k in columns[3:]}})
    return pd.DataFrame(rows, columns=columns)


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def to_markdown(df: pd.DataFrame, columns: Optional[list[str]] = None, headers: Optional[list[str]] = None) -> str:
    """A GitHub-flavoured Markdown table (floats to 3 decimals, missing as an en dash)."""
    columns = columns or list(df.columns)
    headers = headers or columns
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for _, row in df.iterrows():
        lines.append("| " + " | ".join(_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines)


def with_interval(df: pd.DataFrame, metric: str) -> pd.Series:
    """'0.712 [0.670, 0.751]' strings for a metric with `_ci_low`/`_ci_high` columns."""

    def fmt(row) -> str:
        value = row[metric]
        if value is None or pd.isna(value):
            return "–"
        low, high = row.get(f"{metric}_ci_low"), row.get(f"{metric}_ci_high")
        if low is None or high is None or pd.isna(low) or pd.isna(high):
            return f"{value:.3f}"
        return f"{value:.3f} [{low:.3f}, {high:.3f}]"

    return df.apply(fmt, axis=1)
