"""Stage `check`: deterministic checks of every candidate → `checked.parquet` (candidates + check_ok, check_reason).

Runs before any verifier is paid (see refusalbench.generation.checks for the rules). Cheap and
deterministic, so it is simply recomputed in full on every run.
"""

from __future__ import annotations

import logging

import pandas as pd

from refusalbench.context import RunContext
from refusalbench.errors import UserError
from refusalbench.generation.checks import check_candidate
from refusalbench.generation.tasks import run_catalogue

log = logging.getLogger(__name__)


def lever_checker(catalogue):
    return lambda cls, intensity, name: catalogue.get(cls, intensity, name) is not None


def check_table(candidates: pd.DataFrame, catalogue) -> pd.DataFrame:
    """`candidates` with `check_ok` and `check_reason` added."""
    known = lever_checker(catalogue)
    results = [check_candidate(row, known) for row in candidates.to_dict(orient="records")]
    out = candidates.copy()
    out["check_ok"] = [ok for ok, _ in results]
    out["check_reason"] = [reason for _, reason in results]
    return out


def run(ctx: RunContext) -> None:
    if not ctx.has_table("candidates"):
        raise UserError(f"No candidates.parquet in {ctx.run_dir}; run the generate stage first (pipeline=generate).")
    candidates = ctx.read_table("candidates")
    checked = check_table(candidates, run_catalogue(ctx.cfg))
    ctx.write_table("checked", checked)
    failed = checked[~checked["check_ok"]]
    log.info("check: %d of %d candidates pass", len(checked) - len(failed), len(checked))
    if len(failed):
        reasons = failed["check_reason"].str.split(";").str[0].str.replace(r"\".*\"", "…", regex=True).value_counts()
        for reason, n in reasons.head(8).items():
            log.info("check: %5d x %s", n, reason)
