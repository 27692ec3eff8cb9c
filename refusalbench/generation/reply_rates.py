"""How often LLM generators and verifiers answer in parseable JSON, and how often a re-ask was needed.

    python -m refusalbench.generation.reply_rates RUN_DIR

reads ``candidates.parquet`` and ``votes.parquet`` of a run and prints, per LLM generator and verifier:
items asked, first replies that parsed, items re-asked, items that parsed after the re-ask, items still
unparseable (recorded invalid / unscored), and the share of all replies that parsed, each rate with a
95 % Wilson interval. Programmatic generators, the structural verifier and call failures are left out
(they are not model replies).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.generation.asking import CALL
from refusalbench.metrics.intervals import wilson
from refusalbench.tables import read_table
from refusalbench.user_errors import tool_main

NOT_MODELS = ("programmatic", "structural")


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {
        "k": k,
        "n": n,
        "rate": k / n if n else None,
        "low": float(low) if n else None,
        "high": float(high) if n else None,
    }


def rates_for(attempts: pd.Series, ok: pd.Series) -> dict[str, Any]:
    """Parse rates from per-item attempt counts and final success (items with a model reply only)."""
    attempts, ok = attempts.astype(int), ok.astype(bool)
    n, first_ok = len(attempts), int(((attempts == 1) & ok).sum())
    reasked = int((attempts >= 2).sum())
    replies = int(attempts.sum())
    return {
        "items": n,
        "first_reply_parsed": _rate(first_ok, n),
        "reasked": _rate(reasked, n),
        "parsed_after_reask": _rate(int(((attempts >= 2) & ok).sum()), reasked),
        "never_parsed": _rate(int((~ok).sum()), n),
        "replies_parsed": _rate(int(ok.sum()), replies),
    }


def reply_rates(candidates: Optional[pd.DataFrame], votes: Optional[pd.DataFrame]) -> dict[str, dict]:
    """``{"generator/<key>": rates, "verifier/<key>": rates}`` for every LLM generator and verifier."""
    out: dict[str, dict] = {}
    if candidates is not None and len(candidates):
        llm = candidates[
            ~candidates["generator_backend"].isin(NOT_MODELS)
            & (candidates["generation_failure_kind"] != CALL)
            & (candidates["gen_attempts"] > 0)
        ]
        for key, g in llm.groupby("generator", sort=True):
            out[f"generator/{key}"] = rates_for(g["gen_attempts"], g["generation_ok"])
    if votes is not None and len(votes):
        llm = votes[~votes["verifier_backend"].isin(NOT_MODELS) & (votes["verify_failure_kind"] != CALL)]
        llm = llm[llm["ver_attempts"].fillna(0) > 0] if "ver_attempts" in llm else llm.iloc[0:0]
        for key, g in llm.groupby("verifier", sort=True):
            out[f"verifier/{key}"] = rates_for(g["ver_attempts"], g["verify_failure_kind"].isna())
    return out


def format_rates(rates: dict[str, dict]) -> str:
    """A Markdown table: one row per role/model, rates as percentages with Wilson intervals."""

    def cell(r: dict) -> str:
        if not r["n"]:
            return "–"
        return f"{r['k']}/{r['n']} = {100 * r['rate']:.0f} % ({100 * r['low']:.0f}–{100 * r['high']:.0f} %)"

    lines = [
        "| model | items | first reply parsed | re-asked | parsed after re-ask | never parsed | replies parsed |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in rates.items():
        lines.append(
            f"| {name} | {r['items']} | {cell(r['first_reply_parsed'])} | {cell(r['reasked'])} | "
            f"{cell(r['parsed_after_reask'])} | {cell(r['never_parsed'])} | {cell(r['replies_parsed'])} |"
        )
    return "\n".join(lines)


@tool_main
def main(argv: Optional[list[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m refusalbench.generation.reply_rates RUN_DIR", file=sys.stderr)
        return 2
    run = Path(args[0])
    tables = {
        name: read_table(run / f"{name}.parquet") if (run / f"{name}.parquet").exists() else None
        for name in ("candidates", "votes")
    }
    if all(t is None for t in tables.values()):
        raise UserError(f"{run} holds neither candidates.parquet nor votes.parquet.")
    rates = reply_rates(tables["candidates"], tables["votes"])
    print(format_rates(rates))
    print(json.dumps(rates, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
