"""A blind validity review of generated items: sample a review set, write the sheet, score the filled sheets.

    python -m refusalbench.generation.review holdout POOL.jsonl OUT.jsonl
    python -m refusalbench.generation.review sample TABLE --out DIR [--per-cell 5] [--seed 42]
    python -m refusalbench.generation.review score FILLED.csv [FILLED2.csv ...] [--key DIR/review_key.csv] [--out DIR]

``holdout`` writes the NQ pool questions that no test, fixture or example uses (refusalbench.generation.holdout),
to generate the items to review from. ``sample`` draws ``--per-cell`` items from each of the 18 class × intensity
cells of a benchmark, checked or candidates table (only held-out questions, a question at most
``--max-per-question`` times; with ``--unseen-items``, also questions only earlier reviews quoted, in the cells
where no review showed them; with ``--unseen-texts``, in any cell, items whose perturbed text no review showed)
and writes ``review_sheet.csv`` (what the annotator sees: the item, the label's
meaning, no generator, lever or reasoning) and ``review_key.csv`` (which candidate, generator and lever each
item is). ``score`` reads filled sheets (one per annotator) and prints strict and lenient valid rates with
Wilson intervals; the protocol is in docs/validity.md. After gates change the generator,
``python -m refusalbench.generation.recheck`` marks which judged items it still makes (refusalbench.generation.recheck).
"""

from __future__ import annotations

import argparse
import difflib
import json
import logging
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

import pandas as pd

from refusalbench import taxonomy as tx
from refusalbench.errors import UserError
from refusalbench.generation.holdout import (
    REPO_ROOT,
    excluded_questions,
    holdout,
    normalise,
    perturbed_text,
    reviewed_cells,
    shown_items,
)
from refusalbench.generation.ids import seed_for
from refusalbench.generation.validity import (
    VALID,
    is_blank,
    markdown_table,
    parse_verdict,
    rates_table,
    strictest,
    validity_rates,
)
from refusalbench.rows import as_list
from refusalbench.tables import read_table
from refusalbench.user_errors import tool_main

log = logging.getLogger(__name__)

SHEET, KEY = "review_sheet.csv", "review_key.csv"
ANNOTATION_COLUMNS = ("verdict", "failed_criteria", "notes")
CLASS_MEANING = {
    tx.AMBIGUITY: "the question (with its context) has two or more readings, supported alike, with different answers",
    tx.CONTRADICTION: "the context states conflicting facts about exactly what the question asks",
    tx.MISSING_INFO: "the context no longer holds the fact the answer needs",
    tx.FALSE_PREMISE: "the question assumes something the context contradicts or does not support",
    tx.GRANULARITY: "the context has the information, but at another level of detail or scale than the question asks",
    tx.EPISTEMIC: "the question asks for an opinion, prediction, hypothetical or judgement the context cannot ground",
}
# why a MEDIUM or HIGH item of the class must be declined, where its meaning alone leaves the boundary with another
# class open: the boundary the evaluated model's prompt draws (prompts/evaluate_nq.j2), whose examples of the step run
# from fine to coarse only; the catalogue's levers run both ways ("Part-of-part Detail" asks finer than the context),
# so both directions are named (docs/validity.md, seventieth to seventy-third reviews)
DECLINE_REASON = {
    tx.GRANULARITY: (
        ", so reaching the level asked would need a step the context does not support: aggregating, averaging or "
        "generalising what it gives, or reading into it a finer detail than it states (this class, not missing "
        "information, when the information is there but at a level that does not fit)"
    ),
}
CONTEXT_WORDS = 6  # unchanged words shown on each side of a change in the *_changes columns


def label_meaning(cls: str, intensity: str, catalogue) -> str:
    """What the item's label asks of it, in the words an annotator needs: the class's defect and intensity criterion."""
    criterion = catalogue.intensity_criterion(cls, intensity)
    if intensity == tx.LOW:
        return (
            f"LOW {cls}: a careful reader still answers, with an original answer; the defect "
            f"({CLASS_MEANING[cls]}) is really present but minor or resolvable. Intensity criterion: {criterion}"
        )
    return (
        f"{intensity} {cls}: a careful reader must decline, because {CLASS_MEANING[cls]}{DECLINE_REASON.get(cls, '')}, "
        "and no original answer stays safe (not stated elsewhere, not right under every reading, not implied at a "
        "coarser level). "
        f"Intensity criterion: {criterion}"
    )


def word_diff(before: Any, after: Any, keep: int = CONTEXT_WORDS) -> str:
    """The changes from `before` to `after` as ``[-removed-]{+added+}``, long unchanged runs elided."""
    a, b = str(before or "").split(), str(after or "").split()
    if a == b:
        return "(unchanged)"
    parts: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            run = a[i1:i2]
            if len(run) > 2 * keep:
                head = run[:keep] if parts else []
                tail = run[-keep:] if i2 < len(a) or j2 < len(b) else []
                run = head + ["…"] + tail
            parts.extend(run)
            continue
        if i2 > i1:
            parts.append("[-" + " ".join(a[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(parts)


# ---- sampling --------------------------------------------------------------------------------------


def usable_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Items that a generator emitted and (when the table says) passed the check; one id column, one generator."""
    df = table.copy()
    for flag in ("generation_ok", "check_ok"):
        if flag in df.columns:
            df = df[df[flag].fillna(False).astype(bool)]
    if "candidate_id" not in df.columns:
        if "id" not in df.columns:
            raise UserError("The table has neither candidate_id nor id; give a benchmark, checked or candidates table.")
        df["candidate_id"] = df["id"].astype(str)
    if "generator" not in df.columns:
        df["generator"] = df["generator_model"] if "generator_model" in df.columns else None
    missing = [
        c
        for c in ("source_id", "perturbation_class", "intensity", "original_query", "perturbed_query")
        if c not in df.columns
    ]
    if missing:
        raise UserError(
            f"The table lacks the column(s) {', '.join(missing)}; give a benchmark, checked or candidates table."
        )
    return df.reset_index(drop=True)


def draw_review_set(rows: pd.DataFrame, per_cell: int, seed: int, max_per_question: int) -> tuple[pd.DataFrame, dict]:
    """`per_cell` items per cell, round-robin over the cells, preferring the least-used source questions.

    Returns (the drawn rows, the cells that had fewer than `per_cell` usable items with their counts).
    """
    order = sorted(range(len(rows)), key=lambda i: seed_for(seed, "review", rows.at[i, "candidate_id"]))
    by_cell: dict[tuple[str, str], list[int]] = {cell: [] for cell in tx.cells()}
    for i in order:
        cell = (rows.at[i, "perturbation_class"], rows.at[i, "intensity"])
        if cell in by_cell:
            by_cell[cell].append(i)
    used: dict[str, int] = {}
    chosen: list[int] = []
    for _ in range(per_cell):
        for cell in tx.cells():
            free = [i for i in by_cell[cell] if used.get(rows.at[i, "source_id"], 0) < max_per_question]
            if not free:
                continue
            pick = min(free, key=lambda i: used.get(rows.at[i, "source_id"], 0))  # stable: the seeded order breaks ties
            by_cell[cell].remove(pick)
            used[rows.at[pick, "source_id"]] = used.get(rows.at[pick, "source_id"], 0) + 1
            chosen.append(pick)
    drawn = rows.loc[chosen]
    counts = drawn.groupby(["perturbation_class", "intensity"]).size().to_dict()
    short = {f"{c}/{i}": int(counts.get((c, i), 0)) for c, i in tx.cells() if counts.get((c, i), 0) < per_cell}
    return drawn, short


def build_sheet(drawn: pd.DataFrame, seed: int, catalogue) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(blind annotation sheet, key) for the drawn rows, in a seeded shuffled order with ids R001, R002, ..."""
    drawn = drawn.assign(_order=[seed_for(seed, "sheet", c) for c in drawn["candidate_id"]]).sort_values("_order")
    items = [f"R{n:03d}" for n in range(1, len(drawn) + 1)]
    sheet, key = [], []
    for item, row in zip(items, drawn.to_dict(orient="records")):
        cls, intensity = row["perturbation_class"], row["intensity"]
        answers = [str(a) for a in as_list(row.get("original_answers")) or []]
        sheet.append(
            {
                "item": item,
                "perturbation_class": cls,
                "intensity": intensity,
                "expected_behaviour": tx.ground_truth(cls, intensity),
                "label_meaning": label_meaning(cls, intensity, catalogue),
                "may_change": catalogue.target(cls, multi_passage="original_passages" in row),
                "original_question": row["original_query"],
                "original_answers": " | ".join(answers),
                "original_context": row.get("original_context"),
                "perturbed_question": row["perturbed_query"],
                "perturbed_context": row.get("perturbed_context"),
                "question_changes": word_diff(row["original_query"], row["perturbed_query"]),
                "context_changes": word_diff(row.get("original_context"), row.get("perturbed_context")),
                **{c: "" for c in ANNOTATION_COLUMNS},
            }
        )
        key.append(
            {
                "item": item,
                "candidate_id": row["candidate_id"],
                "source_id": row["source_id"],
                "generator": row.get("generator"),
                "lever_selected": row.get("lever_selected"),
                "perturbation_class": cls,
                "intensity": intensity,
            }
        )
    return pd.DataFrame(sheet), pd.DataFrame(key)


def sample(
    table_path: str | Path,
    out_dir: str | Path,
    per_cell: int = 5,
    seed: int = 42,
    max_per_question: int = 3,
    exclude: Sequence[str | Path] = (),
    test_draws: bool = True,
    unseen_items: bool = False,
    root: Path = REPO_ROOT,
    unseen_texts: bool = False,
) -> dict:
    """Draw the review set from `table_path`, write the sheet and key to `out_dir`; returns a summary.

    With `unseen_items`, a question that only earlier reviews quote is usable in the cells where none showed it;
    with `unseen_texts`, also in the cells they showed, as long as no sheet showed this item's perturbed text.
    """
    from refusalbench.levers import load_catalogue

    if per_cell < 1 or max_per_question < 1:
        raise UserError("--per-cell and --max-per-question must be at least 1.")
    if unseen_items and unseen_texts:
        raise UserError("Give --unseen-items or --unseen-texts, not both.")
    rows = usable_rows(read_table(table_path))
    reuse = unseen_items or unseen_texts
    reasons = excluded_questions(
        rows["original_query"].unique(), exclude, root, test_draws=test_draws, skip_reviews=reuse
    )
    excluded = set().union(*reasons.values())
    questions = rows["original_query"].map(normalise)
    keep = ~questions.isin(excluded)
    reviewed = pd.Series(False, index=rows.index)
    if reuse:
        keys = list(zip(questions, rows["perturbation_class"], rows["intensity"]))
        if unseen_texts:
            seen = shown_items(root)
            contexts = rows["perturbed_context"] if "perturbed_context" in rows.columns else [None] * len(rows)
            texts = [perturbed_text(q, c) for q, c in zip(rows["perturbed_query"], contexts)]
            keys = [(*k, t) for k, t in zip(keys, texts)]
        else:
            seen = reviewed_cells(root)
        reviewed = pd.Series([k in seen for k in keys], index=rows.index)
        keep &= ~reviewed
    held_out = rows[keep].reset_index(drop=True)
    drawn, short = draw_review_set(held_out, per_cell, seed, max_per_question)
    if drawn.empty:
        raise UserError(f"No usable item of {table_path} comes from a held-out question; nothing to review.")
    sheet, key = build_sheet(drawn, seed, load_catalogue())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sheet.to_csv(out / SHEET, index=False)
    key.to_csv(out / KEY, index=False)
    summary = {
        "table": str(table_path),
        "usable_items": len(rows),
        "items_from_excluded_questions": int((~keep & ~reviewed).sum()),
        "items_reviewed_before": int(reviewed.sum()),
        "unseen_items": unseen_items,
        "unseen_texts": unseen_texts,
        "sampled": len(sheet),
        "source_questions": int(key["source_id"].nunique()),
        "per_cell": per_cell,
        "cells_short": short,
        "seed": seed,
        "sheet": str(out / SHEET),
        "key": str(out / KEY),
    }
    (out / "review_sample.json").write_text(json.dumps(summary, indent=2))
    if short:
        log.warning("review set: %d cell(s) have fewer than %d usable held-out items: %s", len(short), per_cell, short)
    return summary


# ---- scoring ---------------------------------------------------------------------------------------


def read_text_table(path: str | Path, columns: Sequence[str], what: str) -> pd.DataFrame:
    """A CSV read as text (blanks stay empty strings) that must have `columns`; `what` names it in errors."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{what.capitalize()} {path} does not exist.")
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise UserError(f"{path} is not a {what}: it lacks the column(s) {', '.join(missing)}.")
    return table


def read_sheet(
    path: str | Path, columns: Sequence[str] = ("item", "perturbation_class", "intensity", "verdict")
) -> pd.DataFrame:
    """A filled review sheet with `columns`; blank verdicts are kept (not judged), unknown words are an error."""
    sheet = read_text_table(path, columns, "review sheet")
    bad = sheet[~sheet["verdict"].map(is_blank) & sheet["verdict"].map(parse_verdict).isna()]
    if len(bad):
        examples = ", ".join(f"{i}: {v!r}" for i, v in zip(bad["item"].head(3), bad["verdict"].head(3)))
        raise UserError(f"{path}: {len(bad)} verdict(s) are not V, B or I (valid, borderline, invalid): {examples}.")
    return sheet


def combine(sheets: list[pd.DataFrame]) -> pd.DataFrame:
    """One row per item judged by every sheet: the strictest of its verdicts (I < B < V)."""
    first = sheets[0][[c for c in ("item", "perturbation_class", "intensity") if c in sheets[0].columns]]
    merged = first.copy()
    for n, sheet in enumerate(sheets):
        merged[f"v{n}"] = merged["item"].map(dict(zip(sheet["item"], sheet["verdict"].map(parse_verdict))))
    cols = [f"v{n}" for n in range(len(sheets))]
    merged = merged.dropna(subset=cols)
    merged["verdict"] = merged[cols].apply(strictest, axis=1)
    merged["unanimous"] = merged[cols].nunique(axis=1) == 1
    return merged


def score(sheet_paths: Sequence[str | Path], key_path: Optional[str | Path] = None) -> dict:
    """Strict and lenient rates per sheet (annotator) and, for several sheets, for their strictest verdicts."""
    if not sheet_paths:
        raise UserError("Give at least one filled review sheet.")
    sheets = [read_sheet(p) for p in sheet_paths]
    result: dict[str, Any] = {"sheets": {}}
    for path, sheet in zip(sheet_paths, sheets):
        judged = sheet["verdict"].map(parse_verdict).notna()
        result["sheets"][str(path)] = {
            "n_rows": len(sheet),
            "n_judged": int(judged.sum()),
            "rates": validity_rates(sheet),
        }
    if len(sheets) > 1:
        merged = combine(sheets)
        result["combined"] = {
            "rule": "strictest verdict per item over all sheets",
            "n_items": len(merged),
            "unanimous": float(merged["unanimous"].mean()) if len(merged) else None,
            "rates": validity_rates(merged),
        }
    if key_path is not None:
        key = pd.read_csv(key_path, dtype=str, keep_default_na=False)
        if not {"item", "generator", "lever_selected"} <= set(key.columns):
            raise UserError(f"{key_path} is not a review key (needs item, generator and lever_selected columns).")
        verdicts = (
            (combine(sheets) if len(sheets) > 1 else sheets[0])
            .assign(verdict=lambda d: d["verdict"].map(parse_verdict))
            .dropna(subset=["verdict"])
        )
        joined = verdicts[["item", "perturbation_class", "intensity", "verdict"]].merge(
            key[["item", "generator", "lever_selected"]], on="item"
        )
        result["by_generator"] = {g: validity_rates(group) for g, group in joined.groupby("generator")}
        not_valid = joined[joined["verdict"] != VALID]
        result["not_valid_by_lever"] = {
            str(k): int(v) for k, v in not_valid.groupby("lever_selected").size().sort_values(ascending=False).items()
        }
    return result


def _print_rates(title: str, rates: dict) -> None:
    print(f"\n## {title}\n\n{markdown_table(rates)}")


@tool_main
def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m refusalbench.generation.review", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_hold = sub.add_parser("holdout", help="write the NQ pool questions no test or example uses")
    p_hold.add_argument("pool")
    p_hold.add_argument("out")
    p_sample = sub.add_parser("sample", help="draw the review set and write the blind sheet and its key")
    p_sample.add_argument("table", help="benchmark.parquet, checked.parquet or candidates.parquet")
    p_sample.add_argument("--out", required=True, help="directory for review_sheet.csv and review_key.csv")
    p_sample.add_argument("--per-cell", type=int, default=5)
    p_sample.add_argument("--seed", type=int, default=42)
    p_sample.add_argument("--max-per-question", type=int, default=3)
    reuse = p_sample.add_mutually_exclusive_group()
    reuse.add_argument(
        "--unseen-items",
        action="store_true",
        help="also draw from questions that only earlier reviews quote, in the cells where none showed them "
        "(a weaker hold-out, for when the held-out questions are used up)",
    )
    reuse.add_argument(
        "--unseen-texts",
        action="store_true",
        help="also draw from questions that only earlier reviews quote, in any cell, items whose perturbed text "
        "no review showed (weaker still: gates may have been written from other texts of the same item)",
    )
    for p in (p_hold, p_sample):
        p.add_argument("--exclude", action="append", default=[], help="a file of further questions to leave out")
        p.add_argument("--no-test-draws", action="store_true", help="do not exclude the questions the tests draw")
    p_score = sub.add_parser("score", help="strict and lenient valid rates of filled sheets")
    p_score.add_argument("sheets", nargs="+")
    p_score.add_argument("--key", help="review_key.csv: adds rates per generator and not-valid counts per lever")
    p_score.add_argument("--out", help="directory for validity.json and validity_rates.csv")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.command == "holdout":
        kept, counts = holdout(args.pool, args.exclude, test_draws=not args.no_test_draws)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
        print(json.dumps(counts, indent=2))
    elif args.command == "sample":
        summary = sample(
            args.table,
            args.out,
            args.per_cell,
            args.seed,
            args.max_per_question,
            args.exclude,
            test_draws=not args.no_test_draws,
            unseen_items=args.unseen_items,
            unseen_texts=args.unseen_texts,
        )
        print(json.dumps(summary, indent=2))
    else:
        result = score(args.sheets, args.key)
        for path, entry in result["sheets"].items():
            _print_rates(f"{path}: {entry['n_judged']} of {entry['n_rows']} items judged", entry["rates"])
        if "combined" in result:
            c = result["combined"]
            _print_rates(
                f"all sheets, strictest verdict per item ({c['n_items']} items, "
                f"{100 * (c['unanimous'] or 0):.0f} % unanimous)",
                c["rates"],
            )
        if args.out:
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            (out / "validity.json").write_text(json.dumps(result, indent=2))
            final = result.get("combined", next(iter(result["sheets"].values())))["rates"]
            rates_table(final).to_csv(out / "validity_rates.csv", index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
