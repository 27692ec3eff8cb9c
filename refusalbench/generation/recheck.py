"""Recheck a finished review against the generator as it is now.

    python -m refusalbench.generation.recheck SHEET.csv review_key.csv TABLE --out DIR

After gates are written from a review's notes, the generator declines some of the judged items and writes
others differently. This compares every judged item with what the current generator made (TABLE: the
candidates or checked table of a fresh run over the same questions) and writes, to DIR:

- ``review_key.csv``: the review's key with ``in_final_generator`` (true where the generator still makes the
  judged text, spacing aside) and ``now`` (``same``, ``changed``, ``declined``, ``absent``, or ``judged as R038``
  where a later row of the same review judged the item's new form);
- ``recheck_sheet.csv`` / ``recheck_key.csv``: the changed items in their new form, as new sheet rows with item
  ids after the review's last one and blank verdicts, ready for the same annotators' protocol;
- ``recheck.json``: the counts.

An item is found by its candidate id, or, when the table has no such id (a catalogue change gives every
candidate a new id), by its source question, class, intensity and generator where that names one candidate.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Optional, Sequence

import pandas as pd

from refusalbench.errors import UserError
from refusalbench.generation.holdout import perturbed_text
from refusalbench.generation.review import ANNOTATION_COLUMNS, read_text_table, word_diff
from refusalbench.tables import read_table
from refusalbench.user_errors import tool_main

SHEET_COLUMNS = ("item", "original_question", "original_context", "perturbed_question", "perturbed_context")
KEY_COLUMNS = ("item", "candidate_id", "source_id", "generator", "perturbation_class", "intensity")
CELL = ["source_id", "perturbation_class", "intensity", "generator"]
SAME, CHANGED, DECLINED, ABSENT, JUDGED_AS = "same", "changed", "declined", "absent", "judged as"


def _made(table: pd.DataFrame) -> pd.Series:
    ok = pd.Series(True, index=table.index)
    for flag in ("generation_ok", "check_ok"):
        if flag in table.columns:
            ok &= table[flag].fillna(False).astype(bool)
    return ok


def _find(table: pd.DataFrame, key_row: pd.Series) -> Optional[pd.Series]:
    hits = table[table["candidate_id"].astype(str) == key_row["candidate_id"]]
    if hits.empty:
        hits = table[(table[CELL].astype(str) == key_row[CELL].astype(str).values).all(axis=1)]
    return hits.iloc[0] if len(hits) == 1 else None


def recheck(sheet_path: str | Path, key_path: str | Path, table_path: str | Path, out_dir: str | Path) -> dict:
    """Compare a review's items with `table_path`; write the marked key and a sheet of the changed items."""
    sheet = read_text_table(sheet_path, SHEET_COLUMNS, "review sheet").set_index("item", drop=False)
    key = read_text_table(key_path, KEY_COLUMNS, "review key")
    table = read_table(table_path)
    missing = [c for c in ("candidate_id", *CELL, "perturbed_query") if c not in table.columns]
    if missing:
        raise UserError(f"{table_path} lacks the column(s) {', '.join(missing)}; give a candidates or checked table.")
    table = table.assign(_made=_made(table))
    texts = {
        i: perturbed_text(q, c)
        for i, q, c in zip(sheet["item"], sheet["perturbed_question"], sheet["perturbed_context"])
    }
    judged_as = {t: i for i, t in texts.items()}
    now, new_rows, new_keys, renamed, new_ids = [], [], [], {}, {}
    numbers = [int(m.group(1)) for i in key["item"] if (m := re.fullmatch(r"R(\d+)", i))]
    next_number = max(numbers, default=0) + 1
    for _, row in key.iterrows():
        if row["item"] not in sheet.index:
            raise UserError(f"{key_path}: item {row['item']} is not in {sheet_path}.")
        judged = sheet.loc[row["item"]]
        cand = _find(table, row)
        if cand is None:
            now.append(ABSENT)
        elif not cand["_made"]:
            now.append(DECLINED)
        elif (text := perturbed_text(cand["perturbed_query"], cand.get("perturbed_context"))) == texts[row["item"]]:
            now.append(SAME)
        elif text in judged_as:  # a later row of the review already judged this form
            now.append(f"{JUDGED_AS} {judged_as[text]}")
        else:
            now.append(CHANGED)
            if text not in new_ids:  # two judged forms of one item can change into the same new one
                new_ids[text] = f"R{next_number:03d}"
                next_number += 1
                new_rows.append(_rewritten(judged, cand, new_ids[text]))
                new_keys.append({**row.to_dict(), "item": new_ids[text], "candidate_id": cand["candidate_id"]})
            renamed[row["item"]] = new_ids[text]
    key = key.assign(in_final_generator=[s == SAME for s in now], now=now)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    key.to_csv(out / "review_key.csv", index=False)
    pd.DataFrame(new_rows, columns=list(sheet.columns)).to_csv(out / "recheck_sheet.csv", index=False)
    new_key = pd.DataFrame(new_keys, columns=[c for c in key.columns if c not in ("in_final_generator", "now")])
    new_key.assign(in_final_generator=True).to_csv(out / "recheck_key.csv", index=False)
    summary = {
        "items": len(key),
        **{state: now.count(state) for state in (SAME, CHANGED, DECLINED, ABSENT)},
        "judged_again": {i: s.split()[-1] for i, s in zip(key["item"], now) if s.startswith(JUDGED_AS)},
        "changed_items": renamed,
        "declined_items": [i for i, s in zip(key["item"], now) if s == DECLINED],
        "table": str(table_path),
    }
    (out / "recheck.json").write_text(json.dumps(summary, indent=2))
    return summary


def _rewritten(judged: pd.Series, cand: pd.Series, item: str) -> dict:
    """The judged sheet row with the current texts, fresh word diffs, a new id and blank verdict columns."""
    row = judged.to_dict()
    context = cand.get("perturbed_context")
    row.update(
        item=item,
        perturbed_question=cand["perturbed_query"],
        perturbed_context=context,
        **{c: "" for c in ANNOTATION_COLUMNS if c in row},
    )
    if "question_changes" in row:
        row["question_changes"] = word_diff(judged["original_question"], cand["perturbed_query"])
    if "context_changes" in row:
        row["context_changes"] = word_diff(judged["original_context"], context)
    return row


@tool_main
def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m refusalbench.generation.recheck", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("sheet", help="the review's sheet (a filled one will do: verdicts are not read)")
    parser.add_argument("key", help="the review's review_key.csv")
    parser.add_argument("table", help="candidates.parquet or checked.parquet of a fresh run of the current generator")
    parser.add_argument("--out", required=True, help="directory for the marked key and the recheck sheet")
    args = parser.parse_args(argv)
    print(json.dumps(recheck(args.sheet, args.key, args.table, args.out), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
