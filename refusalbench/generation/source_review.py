"""A blind review of the source items themselves: does the NQ passage clearly support a gold answer?

    python -m refusalbench.generation.source_review sample TABLE --out DIR [--n 100] [--seed 42]
    python -m refusalbench.generation.source_review score FILLED.csv [FILLED2.csv ...]
    python -m refusalbench.generation.source_review vet TABLE --out DIR [--parts 8] [--seed 7] [--prefix Q]
        [--skip VERDICTS.csv | --recheck VERDICTS.csv]
    python -m refusalbench.generation.source_review verdicts FILLED.csv [...] --key KEY [--key KEY2] --out FILE

An item can be no more valid than the question, answers and passage it was made from. ``sample`` draws ``--n``
held-out source questions that gave at least one usable item in a benchmark, checked or candidates table and
writes ``source_sheet.csv`` (question, answers, passage; nothing generated) and ``source_key.csv``. ``score``
prints the share of source items whose passage supports a gold answer (V), only weakly (B) or not at all (I),
with Wilson intervals, per sheet and by the strictest verdict per item. ``vet`` writes every source question of
a base table (or every one that gave a usable item in an items table; held out or not) as ``--parts`` sheets
for vetting, and ``verdicts`` turns the filled sheets into the verdict file that ``dataset.source_verdicts``
reads (strictest verdict per source). The protocol is in docs/validity.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Optional, Sequence

import pandas as pd

from refusalbench.data.source_verdicts import COLUMNS as VERDICT_COLUMNS
from refusalbench.data.source_verdicts import passage_id, read_verdicts, verdict_of
from refusalbench.errors import UserError
from refusalbench.generation.holdout import excluded_questions, normalise
from refusalbench.generation.review import combine, read_sheet, read_text_table, usable_rows
from refusalbench.generation.validity import markdown_row, parse_verdict, rate_entry, strictest
from refusalbench.rows import as_list
from refusalbench.tables import read_table
from refusalbench.user_errors import tool_main

SHEET, KEY = "source_sheet.csv", "source_key.csv"


def _sheet(drawn: pd.DataFrame, prefix: str, width: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The blind sheet (question, answers, passage) of source rows `drawn` and its key."""
    items = [f"{prefix}{k:0{width}d}" for k in range(1, len(drawn) + 1)]
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
    key = pd.DataFrame(
        {
            "item": items,
            "source_id": drawn["source_id"].tolist(),
            "passage_id": [passage_id(str(c)) for c in drawn["original_context"]],
        }
    )
    return sheet, key


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
    sheet, key = _sheet(drawn, "S", 3)
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


def _vetting_rows(table_path: str | Path) -> pd.DataFrame:
    """One row per source question: every question of a base table, or those with a usable item in an items table."""
    table = read_table(table_path)
    if "original_query" not in table.columns and {"source_id", "query", "answers", "context"} <= set(table.columns):
        names = {"query": "original_query", "answers": "original_answers", "context": "original_context"}
        table = table.rename(columns=names)
    else:
        table = usable_rows(table)
    return table.drop_duplicates("source_id")


def vet_sheets(
    table_path: str | Path,
    out_dir: str | Path,
    parts: int = 8,
    seed: int = 7,
    prefix: str = "Q",
    skip: Optional[str | Path] = None,
    recheck: Optional[str | Path] = None,
) -> dict:
    """The source questions of `table_path`, shuffled, as `parts` vetting sheets and one key.

    A base table (base.parquet) gives every question; an items table the questions with a usable item. `skip`, a
    verdict file, leaves out the sources it already judges; `recheck`, one, keeps only those it marks supported (V),
    for a second annotator.
    """
    if parts < 1:
        raise UserError("--parts must be at least 1.")
    sources = _vetting_rows(table_path)
    pairs = list(zip(sources["source_id"], sources["original_context"].map(str)))
    if skip is not None:
        judged = read_verdicts(skip)
        sources = sources[[verdict_of(judged, *pair) is None for pair in pairs]]
    elif recheck is not None:
        judged = read_verdicts(recheck)
        sources = sources[[verdict_of(judged, *pair) == "V" for pair in pairs]]
    if sources.empty:
        raise UserError(f"{table_path} holds no source question left to vet.")
    sheet, key = _sheet(sources.sample(frac=1, random_state=seed), prefix, 4)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    size = -(-len(sheet) // parts)
    files = []
    for part in range(parts):
        chunk = sheet.iloc[part * size : (part + 1) * size]
        if len(chunk):
            files.append(str(out / f"vet_part{part + 1}.csv"))
            chunk.to_csv(files[-1], index=False)
    key_path = str(out / "vet_key.csv")
    key.to_csv(key_path, index=False)
    return {"table": str(table_path), "sources": len(sheet), "seed": seed, "sheets": files, "key": key_path}


def write_verdicts(sheet_paths: Sequence[str | Path], key_paths: Sequence[str | Path], out_path: str | Path) -> dict:
    """The verdict file of filled vetting sheets: one row per judged source, its strictest verdict and the notes.

    A source judged in several sheets or rounds (a second annotator re-checking the first round's V, say) keeps its
    strictest verdict and every note.
    """
    sheets = [read_sheet(p, columns=("item", "verdict", "notes")) for p in sheet_paths]
    if not sheets:
        raise UserError("Give at least one filled vetting sheet.")
    keys = [read_text_table(p, ("item", "source_id", "passage_id"), "vetting key") for p in key_paths]
    key = pd.concat(keys, ignore_index=True).drop_duplicates()
    if key["item"].duplicated().any():
        raise UserError("Two keys give one item id different sources; give each vetting round its own --prefix.")
    rows = pd.concat(sheets, ignore_index=True)
    rows["verdict"] = rows["verdict"].map(parse_verdict)
    rows = rows.dropna(subset=["verdict"])
    unknown = sorted(set(rows["item"]) - set(key["item"]))
    if unknown:
        keys = ", ".join(map(str, key_paths))
        raise UserError(f"{len(unknown)} item(s) of the sheets are not in {keys}: {', '.join(unknown[:3])}.")
    by_source = rows.merge(key, on="item").groupby(["source_id", "passage_id"], sort=True)
    table = by_source.agg(
        verdict=("verdict", strictest),
        notes=("notes", lambda n: " / ".join(x for x in n if x.strip())),
    ).reset_index()[list(VERDICT_COLUMNS)]
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out_path, index=False)
    return {"out": str(out_path), "sources": len(table), **table["verdict"].value_counts().to_dict()}


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


@tool_main
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
    p_vet = sub.add_parser("vet", help="write every source question with a usable item as sheets for vetting")
    p_vet.add_argument("table", help="benchmark.parquet, checked.parquet or candidates.parquet")
    p_vet.add_argument("--out", required=True)
    p_vet.add_argument("--parts", type=int, default=8)
    p_vet.add_argument("--seed", type=int, default=7)
    p_vet.add_argument("--prefix", default="Q", help="item id prefix (one per vetting round)")
    which = p_vet.add_mutually_exclusive_group()
    which.add_argument("--skip", help="a verdict file whose sources are already judged")
    which.add_argument("--recheck", help="a verdict file: only the sources it marks V (for a second annotator)")
    p_verdicts = sub.add_parser("verdicts", help="the verdict file (dataset.source_verdicts) of filled vetting sheets")
    p_verdicts.add_argument("sheets", nargs="+")
    p_verdicts.add_argument("--key", action="append", required=True, help="a vetting key (repeat for several rounds)")
    p_verdicts.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.command == "sample":
        print(json.dumps(sample_sources(args.table, args.out, args.n, args.seed, args.exclude), indent=2))
    elif args.command == "vet":
        summary = vet_sheets(args.table, args.out, args.parts, args.seed, args.prefix, args.skip, args.recheck)
        print(json.dumps(summary, indent=2))
    elif args.command == "verdicts":
        print(json.dumps(write_verdicts(args.sheets, args.key, args.out), indent=2))
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
