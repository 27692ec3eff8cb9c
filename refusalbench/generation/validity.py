"""Validity rates of reviewed benchmark items: strict (valid) and lenient (valid or borderline).

One verdict per item, from a person (or a helper annotator) reading it against the verifier checklist:
``V`` valid, ``B`` borderline, ``I`` invalid (docs/validity.md). ``PASS`` counts as valid and ``FAIL``
as invalid, so the human-validation sheet of the select stage and the blind review sheet give the
same numbers. Rates come with Wilson intervals (refusalbench.metrics.wilson), overall, per class, per
intensity and for MEDIUM+HIGH (the items that score refusals).
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Optional

import pandas as pd

from refusalbench import taxonomy as tx
from refusalbench.metrics.intervals import wilson

VALID, BORDERLINE, INVALID = "V", "B", "I"
_WORDS = {
    VALID: {"v", "valid", "pass", "passed", "ok", "yes", "y"},
    BORDERLINE: {"b", "borderline", "weak"},
    INVALID: {"i", "invalid", "fail", "failed", "no", "n"},
}
_LOOKUP = {word: verdict for verdict, words in _WORDS.items() for word in words}


def parse_verdict(value: Any) -> Optional[str]:
    """``V``/``B``/``I`` for a verdict cell (case-insensitive, PASS/FAIL accepted); None when blank or unknown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return _LOOKUP.get(str(value).strip().lower())


_RANK = {INVALID: 0, BORDERLINE: 1, VALID: 2}


def strictest(verdicts: Iterable[str]) -> str:
    """The strictest of several V/B/I verdicts on one item (I < B < V)."""
    return min(verdicts, key=_RANK.__getitem__)


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() in ("", "nan")


def rate_entry(verdicts: list[str], level: float = 0.95) -> dict[str, Any]:
    """Counts, strict and lenient rates with Wilson bounds for a list of V/B/I verdicts."""
    n = len(verdicts)
    v, b = verdicts.count(VALID), verdicts.count(BORDERLINE)
    entry: dict[str, Any] = {"n": n, "valid": v, "borderline": b, "invalid": n - v - b}
    for name, k in (("strict", v), ("lenient", v + b)):
        low, high = wilson(k, n, level)
        entry[name] = k / n if n else None
        entry[f"{name}_low"] = None if n == 0 else float(low)
        entry[f"{name}_high"] = None if n == 0 else float(high)
    return entry


def validity_rates(frame: pd.DataFrame, verdict_col: str = "verdict", level: float = 0.95) -> dict[str, Any]:
    """Rates over the rows of `frame` whose verdict parses (needs perturbation_class and intensity columns).

    Returns ``{"overall", "medium_high", "by_class", "by_intensity", "by_cell"}``; a group with no
    judged item has n = 0 and rates None (never 0).
    """
    verdicts = frame[verdict_col].map(parse_verdict)
    judged = frame.assign(_v=verdicts)[verdicts.notna()]

    def entry(rows: pd.DataFrame) -> dict[str, Any]:
        return rate_entry(rows["_v"].tolist(), level)

    refused = judged["intensity"].isin((tx.MEDIUM, tx.HIGH))
    return {
        "overall": entry(judged),
        "medium_high": entry(judged[refused]),
        "by_class": {cls: entry(judged[judged["perturbation_class"] == cls]) for cls in tx.CLASSES},
        "by_intensity": {i: entry(judged[judged["intensity"] == i]) for i in tx.INTENSITIES},
        "by_cell": {
            f"{cls}/{i}": entry(judged[(judged["perturbation_class"] == cls) & (judged["intensity"] == i)])
            for cls, i in tx.cells()
        },
    }


def rates_table(rates: dict[str, Any]) -> pd.DataFrame:
    """One row per group (overall, MEDIUM+HIGH, each class, each intensity) for printing or CSV."""
    groups = [("overall", "all", rates["overall"]), ("intensity", "MEDIUM+HIGH", rates["medium_high"])]
    groups += [("class", cls, e) for cls, e in rates["by_class"].items()]
    groups += [("intensity", i, e) for i, e in rates["by_intensity"].items()]
    rows = []
    for dimension, group, e in groups:
        rows.append(
            {
                "dimension": dimension,
                "group": group,
                "n": e["n"],
                "valid": e["valid"],
                "borderline": e["borderline"],
                "invalid": e["invalid"],
                "strict": e["strict"],
                "strict_low": e["strict_low"],
                "strict_high": e["strict_high"],
                "lenient": e["lenient"],
                "lenient_low": e["lenient_low"],
                "lenient_high": e["lenient_high"],
            }
        )
    return pd.DataFrame(rows)


def markdown_table(rates: dict[str, Any]) -> str:
    """The rates as the Markdown table of docs/validity.md (strict and lenient with 95 % Wilson intervals)."""
    lines = [
        "| group | n | V | B | I | strict valid (95 % CI) | lenient valid (95 % CI) |",
        "|---|---|---|---|---|---|---|",
    ]

    lines += [markdown_row(row["group"], row) for row in rates_table(rates).to_dict(orient="records")]
    return "\n".join(lines)


def markdown_row(name: str, e: dict[str, Any]) -> str:
    """One rate entry (`rate_entry`) as a Markdown row: n, V, B, I, strict and lenient with their intervals."""

    def with_interval(value, low, high) -> str:
        if value is None or pd.isna(value):
            return "–"
        return f"{100 * value:.0f} % ({100 * low:.0f}–{100 * high:.0f} %)"

    strict = with_interval(e["strict"], e["strict_low"], e["strict_high"])
    lenient = with_interval(e["lenient"], e["lenient_low"], e["lenient_high"])
    return f"| {name} | {e['n']} | {e['valid']} | {e['borderline']} | {e['invalid']} | {strict} | {lenient} |"
