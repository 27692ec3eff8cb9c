"""Human validation: export a stratified sample for an annotator, import the filled file.

The select stage writes `human_validation.csv` (a stratified random sample of the benchmark,
`select.human_sample` items, with empty `human_*` columns: one per checklist item plus
`human_verdict`). `human_verdict` takes V (valid), B (borderline) or I (invalid), the verdicts of the
validity review (docs/validity.md); PASS and FAIL are read as V and I. After annotation:

    python -m refusalbench.generation.human FILLED.csv [VOTES.parquet]

prints a JSON summary: strict and lenient valid rates with Wilson intervals overall, per class, per
intensity and for MEDIUM+HIGH (computed exactly as for a blind review sheet, by
refusalbench.generation.validity), per-item checklist rates, and agreement with the panel (and, with
the run's `votes.parquet`, with each verifier; B counts as not PASS there).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.generation.analysis import cohen_kappa
from refusalbench.generation.consensus import FAIL, PASS
from refusalbench.generation.parsing import CHECKLIST_GARAGE, CHECKLIST_NQ
from refusalbench.generation.validity import VALID, is_blank, parse_verdict, validity_rates
from refusalbench.tables import read_table
from refusalbench.user_errors import tool_main

CONTENT_COLUMNS = (
    "id",
    "candidate_id",
    "generator_model",
    "perturbation_class",
    "intensity",
    "expected_rag_behavior",
    "lever_selected",
    "original_query",
    "original_context",
    "original_answers",
    "perturbed_query",
    "perturbed_context",
    "implementation_reasoning",
)
_TRUE = {"true", "1", "1.0"}  # checklist cells may also be ticked as booleans
_FALSE = {"false", "0", "0.0"}


def checklist_for(multi_passage: bool) -> tuple[str, ...]:
    return CHECKLIST_GARAGE if multi_passage else CHECKLIST_NQ


def export_frame(sample: pd.DataFrame, multi_passage: bool) -> pd.DataFrame:
    """The annotation sheet for `sample` (benchmark rows with `panel_verdict`)."""
    out = pd.DataFrame({c: sample[c] for c in CONTENT_COLUMNS if c in sample})
    if "original_answers" in out:
        out["original_answers"] = out["original_answers"].map(
            lambda a: " | ".join(map(str, a)) if a is not None and not isinstance(a, str) else a
        )
    out["panel_verdict"] = sample.get("panel_verdict", PASS)
    for item in checklist_for(multi_passage):
        out[f"human_{item}"] = ""
    out["human_verdict"] = ""
    out["human_notes"] = ""
    return out


def _verdict(value: Any) -> Optional[str]:
    """PASS or FAIL for a verdict or checklist cell (V/PASS/yes/true → PASS, I/B/FAIL/no/false → FAIL)."""
    if is_blank(value):
        return None
    text = str(value).strip().lower()
    if text in _TRUE or text in _FALSE:
        return PASS if text in _TRUE else FAIL
    parsed = parse_verdict(value)
    return None if parsed is None else PASS if parsed == VALID else FAIL


def _agreement(human: list[str], other: list[str]) -> dict:
    n = len(human)
    agree = sum(a == b for a, b in zip(human, other))
    kappa = cohen_kappa(human, other)
    return {"n": n, "agreement": agree / n if n else None, "kappa": None if math.isnan(kappa) else kappa}


def import_annotations(csv_path: str | Path, votes: Optional[str | Path | pd.DataFrame] = None) -> dict:
    """Summary of a filled sheet: human pass rate, per-item rates, agreement with panel and verifiers."""
    if Path(str(csv_path)).suffix.lower() == ".csv":
        sheet = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    else:
        sheet = read_table(csv_path)
    if "human_verdict" not in sheet or "candidate_id" not in sheet:
        raise UserError(
            f"{csv_path} is not a RefusalBench human-validation sheet (needs candidate_id and human_verdict columns)."
        )
    sheet = sheet.assign(_human=sheet["human_verdict"].map(_verdict))
    blank = sheet["human_verdict"].map(is_blank)
    invalid = int((sheet["_human"].isna() & ~blank).sum())
    done = sheet[sheet["_human"].notna()]
    n = len(done)
    summary: dict[str, Any] = {
        "n_rows": len(sheet),
        "n_annotated": n,
        "n_invalid_verdicts": invalid,
        "human_pass_rate": float((done["_human"] == PASS).mean()) if n else None,
        "checklist_pass_rates": {},
    }
    if {"perturbation_class", "intensity"} <= set(done.columns):
        summary["validity"] = validity_rates(done, verdict_col="human_verdict")
    for col in [c for c in sheet.columns if c.startswith("human_") and c not in ("human_verdict", "human_notes")]:
        flags = done[col].map(_verdict).dropna()
        summary["checklist_pass_rates"][col[len("human_") :]] = float((flags == PASS).mean()) if len(flags) else None
    panel = done["panel_verdict"].map(_verdict) if "panel_verdict" in done else pd.Series(dtype=object)
    ok = panel.notna()
    summary["panel"] = _agreement(done.loc[ok, "_human"].tolist(), panel[ok].tolist())
    if votes is not None:
        table = votes if isinstance(votes, pd.DataFrame) else read_table(votes)
        summary["verifiers"] = {}
        for ver, g in table.groupby("verifier", sort=True):
            joined = done.merge(g[["candidate_id", "verdict"]], on="candidate_id")
            joined = joined[joined["verdict"].isin((PASS, FAIL))]
            summary["verifiers"][ver] = _agreement(joined["_human"].tolist(), joined["verdict"].tolist())
    return summary


@tool_main
def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2:
        print("usage: python -m refusalbench.generation.human FILLED.csv [VOTES.parquet]", file=sys.stderr)
        return 2
    summary = import_annotations(args[0], args[1] if len(args) > 1 else None)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
