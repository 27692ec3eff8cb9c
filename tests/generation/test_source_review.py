"""The blind source-item review: held-out source questions only, one row per question, strictest-verdict rates."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.errors import UserError
from refusalbench.generation.source_review import KEY, SHEET, main, sample_sources, score_sources
from tests.generation.test_review import BUNDLED, candidates


def test_sample_draws_each_held_out_question_once_and_shows_no_generated_text(tmp_path):
    table = tmp_path / "checked.parquet"
    candidates(12).to_parquet(table)
    summary = sample_sources(table, tmp_path / "src", n=10, seed=3)
    sheet = pd.read_csv(tmp_path / "src" / SHEET, keep_default_na=False)
    key = pd.read_csv(tmp_path / "src" / KEY)
    assert summary["held_out_source_questions"] == 12 and len(sheet) == 10 == key["source_id"].nunique()
    assert list(sheet.columns) == ["item", "question", "answers", "passage", "verdict", "notes"]
    assert not sheet["question"].str.lower().isin([q.lower() for q in BUNDLED]).any()  # the bundled sample is used
    assert (sheet["answers"] == "A").all() and (sheet["passage"] == "The answer is A.").all()
    again = sample_sources(table, tmp_path / "src2", n=10, seed=3)
    assert again["sampled"] == 10 and pd.read_csv(tmp_path / "src2" / SHEET, keep_default_na=False).equals(sheet)


def test_score_combines_sheets_by_the_strictest_verdict(tmp_path):
    a = pd.DataFrame({"item": ["S001", "S002", "S003", "S004"], "verdict": ["V", "V", "B", "V"]})
    b = pd.DataFrame({"item": ["S001", "S002", "S003", "S004"], "verdict": ["V", "I", "V", "v"]})
    a.to_csv(tmp_path / "a.csv", index=False)
    b.to_csv(tmp_path / "b.csv", index=False)
    result = score_sources([tmp_path / "a.csv", tmp_path / "b.csv"])
    combined = result["combined"]
    assert (combined["valid"], combined["borderline"], combined["invalid"]) == (2, 1, 1)
    assert combined["strict"] == 0.5 and combined["lenient"] == 0.75 and combined["unanimous"] == 0.5
    assert result["sheets"][str(tmp_path / "a.csv")]["strict"] == 0.75


def test_bad_verdicts_and_empty_draws_fail_clearly(tmp_path, capsys):
    pd.DataFrame({"item": ["S001"], "verdict": ["maybe"]}).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(UserError, match="not V, B or I"):
        score_sources([tmp_path / "bad.csv"])
    used = tmp_path / "used.parquet"
    candidates(0).to_parquet(used)
    assert main(["sample", str(used), "--out", str(tmp_path / "o")]) == 2
    assert "held-out question" in capsys.readouterr().err
