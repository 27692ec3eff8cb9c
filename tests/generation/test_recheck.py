"""Rechecking a review against the current generator: same, changed, declined, absent and already judged again."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench.errors import UserError
from refusalbench.generation.recheck import main, recheck

CELL = {"perturbation_class": "P-MissingInfo", "intensity": "LOW", "generator": "programmatic"}


def sheet_row(item: str, question: str, context: str, verdict: str = "V") -> dict:
    return {
        "item": item,
        "original_question": question,
        "original_context": "The bridge opened in 1932. It is long.",
        "perturbed_question": question,
        "perturbed_context": context,
        "question_changes": "(unchanged)",
        "context_changes": "…",
        "verdict": verdict,
        "failed_criteria": "",
        "notes": "",
    }


def key_row(item: str, candidate: str, source: str) -> dict:
    return {"item": item, "candidate_id": candidate, "source_id": source, **CELL}


def candidate(candidate: str, source: str, context: str, ok: bool = True) -> dict:
    return {
        "candidate_id": candidate,
        "source_id": source,
        **CELL,
        "perturbed_query": "when did the bridge open",
        "perturbed_context": context,
        "generation_ok": ok,
        "check_ok": ok,
    }


@pytest.fixture
def review(tmp_path):
    q = "when did the bridge open"
    sheet = [
        sheet_row("R001", q, "The bridge opened in 1932."),  # the generator still writes this (spacing aside)
        sheet_row("R002", q, "The bridge opened in 1932. It is very long."),  # now written otherwise
        sheet_row("R003", q, "The bridge opened in 1932. It is grey."),  # now declined
        sheet_row("R004", q, "It is long."),  # the table has no such item
        sheet_row("R005", q, "Old form."),  # its new form was judged again as R006
        sheet_row("R006", q, "New form."),
    ]
    key = [
        key_row("R001", "c1", "s1"),
        key_row("R002", "c2", "s2"),
        key_row("R003", "c3", "s3"),
        key_row("R004", "c4", "s4"),
        key_row("R005", "c5", "s5"),
        key_row("R006", "c5", "s5"),
    ]
    table = [
        candidate("c1", "s1", "The bridge  opened in 1932."),
        candidate("other-id", "s2", "The bridge opened in 1932. It is short."),  # a new id: found by its cell
        candidate("c3", "s3", None, ok=False),
        candidate("c5", "s5", "New form."),
    ]
    paths = tmp_path / "sheet.csv", tmp_path / "key.csv", tmp_path / "candidates.parquet"
    pd.DataFrame(sheet).to_csv(paths[0], index=False)
    pd.DataFrame(key).to_csv(paths[1], index=False)
    pd.DataFrame(table).to_parquet(paths[2])
    return paths


def test_recheck_marks_every_item_and_writes_the_changed_ones_as_new_rows(review, tmp_path):
    summary = recheck(*review, tmp_path / "out")
    key = pd.read_csv(tmp_path / "out" / "review_key.csv")
    assert dict(zip(key["item"], key["now"])) == {
        "R001": "same",
        "R002": "changed",
        "R003": "declined",
        "R004": "absent",
        "R005": "judged as R006",
        "R006": "same",
    }
    assert key.loc[key["in_final_generator"], "item"].tolist() == ["R001", "R006"]
    assert summary["changed_items"] == {"R002": "R007"} and summary["declined_items"] == ["R003"]
    sheet = pd.read_csv(tmp_path / "out" / "recheck_sheet.csv", keep_default_na=False)
    assert sheet["item"].tolist() == ["R007"]
    assert sheet.loc[0, "perturbed_context"] == "The bridge opened in 1932. It is short."
    assert "{+short.+}" in sheet.loc[0, "context_changes"] and sheet.loc[0, "verdict"] == ""
    new_key = pd.read_csv(tmp_path / "out" / "recheck_key.csv")
    assert new_key[["item", "candidate_id"]].values.tolist() == [["R007", "other-id"]]


def test_recheck_command_prints_the_counts_and_refuses_a_table_without_texts(review, tmp_path, capsys):
    assert main([*map(str, review), "--out", str(tmp_path / "out")]) == 0
    assert json.loads(capsys.readouterr().out)["same"] == 2
    bare = tmp_path / "bare.parquet"
    pd.DataFrame([{"candidate_id": "c1"}]).to_parquet(bare)
    with pytest.raises(UserError, match="perturbed_query"):
        recheck(review[0], review[1], bare, tmp_path / "out2")
    assert main([str(review[0]), str(review[1]), str(bare), "--out", str(tmp_path / "out3")]) == 2
