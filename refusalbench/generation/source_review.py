"""A blind review of the source items themselves: does the NQ passage clearly support a gold answer?

    python -m refusalbench.generation.source_review sample TABLE --out DIR [--n 100] [--seed 42]
    python -m refusalbench.generation.source_review score FILLED.csv [FILLED2.csv ...]

An item can be no more valid than the question, answers and passage it was made from. ``sample`` draws ``--n``
held-out source questions that gave at least one usable item in a benchmark, checked or candidates table and
writes ``source_sheet.csv`` (question, answers, passage; nothing generated) and ``source_key.csv``. ``score``
prints the share of source items whose passage supports a gold answer (V), only weakly (B) or not at all (I),
with Wilson intervals, per sheet and by the strictest verdict per item. The protocol is in docs/validity.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional, Sequence

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.generation.holdout import excluded_questions, normalise
from refusalbench.generation.review import combine, read_sheet, usable_rows
from refusalbench.generation.validity import markdown_row, parse_verdict, rate_entry
from refusalbench.rows import as_list
from refusalbench.tables import read_table

SHEET, KEY = "source_sheet.csv", "source_key.csv"


def sample_sources(
    table_path: str | Path, out_dir: str | Path, n: int = 100, seed: int = 42, exclude: Sequence[str | Path] = ()
) -> dict:
    """Draw `n` held-out source questions of `table_path` and write the blind source sheet and its key."""
    if n < 1:
        raise UserError("--n must be at least 1.")
    rows = usable_rows(read_table(table_path))
    reasons = excluded_questions(rows["original_query"].unique(), exclude)
    excluded = set().union(*reasons.values())
    sources = rows[~rows["original_query"].map(normalise).isin(excluded)].drop_duplicates("source_id")
    if sources.empty:
        raise UserError(f"No usable item of {table_path} comes from a held-out question; nothing to review.")
    drawn = sources.sample(min(n, len(sources)), random_state=seed)
    items = [f"S{k:03d}" for k in range(1, len(drawn) + 1)]
    sheet = pd.DataFrame(
        {
            "item": items,
            "question": drawn["original_query"].tolist(),
            "answers": [" | ".join(str(a) for a in as_list(x) or []) for x in drawn["original_answers"]],
            "passage": drawn["original_context"].tolist(),
            "verdict": "",
            "notes": "",
        }
    )
    key = pd.DataFrame({"item": items, "source_id": drawn["source_id"].tolist()})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sheet.to_csv(out / SHEET, index=False)
    key.to_csv(out / KEY, index=False)
    summary = {
        "table": str(table_path),
        "held_out_source_questions": len(sources),
        "sampled": len(sheet),
        "seed": seed,
        "sheet": str(out / SHEET),
        "key": str(out / KEY),
    }
    (out / "source_sample.json").write_text(json.dumps(summary, indent=2))
    return summary


def score_sources(sheet_paths: Sequence[str | Path]) -> dict:
    """Supported (strict) and at-least-weakly-supported (lenient) rates per sheet and combined."""
    if not sheet_paths:
        raise UserError("Give at least one filled source sheet.")
    sheets = [read_sheet(p, columns=("item", "verdict")) for p in sheet_paths]
    result = {
        "sheets": {
            str(p): rate_entry(s["verdict"].map(parse_verdict).dropna().tolist()) for p, s in zip(sheet_paths, sheets)
        }
    }
    if len(sheets) > 1:
        merged = combine(sheets)
        result["combined"] = {
            "rule": "strictest verdict per item over all sheets",
            "unanimous": float(merged["unanimous"].mean()) if len(merged) else None,
            **rate_entry(merged["verdict"].tolist()),
        }
    return result


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m refusalbench.generation.source_review", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_sample = sub.add_parser("sample", help="draw held-out source items and write the blind source sheet")
    p_sample.add_argument("table", help="benchmark.parquet, checked.parquet or candidates.parquet")
    p_sample.add_argument("--out", required=True)
    p_sample.add_argument("--n", type=int, default=100)
    p_sample.add_argument("--seed", type=int, default=42)
    p_sample.add_argument("--exclude", action="append", default=[], help="a file of further questions to leave out")
    p_score = sub.add_parser("score", help="supported rates of filled source sheets")
    p_score.add_argument("sheets", nargs="+")
    args = parser.parse_args(argv)
    try:
        if args.command == "sample":
            print(json.dumps(sample_sources(args.table, args.out, args.n, args.seed, args.exclude), indent=2))
        else:
            result = score_sources(args.sheets)
            lines = [
                "| sheet | n | V | B | I | supported (95 % CI) | at least weakly (95 % CI) |",
                "|---|---|---|---|---|---|---|",
            ]
            lines += [markdown_row(Path(p).name, e) for p, e in result["sheets"].items()]
            if "combined" in result:
                unanimous = f"{100 * result['combined']['unanimous']:.0f} % unanimous"
                lines.append(markdown_row(f"strictest ({unanimous})", result["combined"]))
            print("\n".join(lines))
    except UserError as exc:
        print(f"refusalbench: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
