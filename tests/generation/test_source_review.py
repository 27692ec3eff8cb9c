"""The blind source-item review: held-out source questions only, one row per question, strictest-verdict rates."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.data.source_verdicts import passage_id, read_verdicts
from refusalbench.errors import UserError
from refusalbench.generation.source_review import (
    KEY,
    SHEET,
    main,
    sample_sources,
    score_sources,
    vet_sheets,
    write_verdicts,
)
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


def test_vet_writes_every_source_once_and_verdicts_keep_the_strictest_judgement(tmp_path):
    table = tmp_path / "checked.parquet"
    candidates(5).to_parquet(table)  # five fresh questions and the bundled ones: vetting holds nothing out
    summary = vet_sheets(table, tmp_path / "vet", parts=2, seed=1)
    sheets = [pd.read_csv(p, dtype=str, keep_default_na=False) for p in summary["sheets"]]
    key = pd.read_csv(summary["key"], dtype=str)
    assert len(sheets) == 2 and sum(map(len, sheets)) == summary["sources"] == key["source_id"].nunique() == len(key)
    assert set(key["passage_id"]) == {passage_id("The answer is A.")}
    assert "generator" not in sheets[0].columns and "perturbed_query" not in sheets[0].columns
    first = sheets[0].assign(verdict="V")
    second = first.head(2).assign(verdict=["B", "v"], notes=["only implied", ""])  # a second pass over some rows
    first.to_csv(tmp_path / "first.csv", index=False)
    second.to_csv(tmp_path / "second.csv", index=False)
    out = tmp_path / "verdicts.csv"
    counts = write_verdicts([tmp_path / "first.csv", tmp_path / "second.csv"], [summary["key"]], out)
    assert counts == {"out": str(out), "sources": len(first), "V": len(first) - 1, "B": 1}
    verdicts = read_verdicts(out)
    weak = key.set_index("item").loc[first["item"].iloc[0]]
    assert verdicts[(weak["source_id"], weak["passage_id"])] == "B"
    assert "only implied" in pd.read_csv(out, keep_default_na=False)["notes"].tolist()


def test_verdicts_refuse_items_missing_from_the_key(tmp_path, capsys):
    pd.DataFrame({"item": ["Q0001"], "source_id": ["s0"], "passage_id": ["p"]}).to_csv(tmp_path / "k.csv", index=False)
    pd.DataFrame({"item": ["Q0009"], "verdict": ["V"], "notes": [""]}).to_csv(tmp_path / "f.csv", index=False)
    code = main(["verdicts", str(tmp_path / "f.csv"), "--key", str(tmp_path / "k.csv"), "--out", str(tmp_path / "o")])
    assert code == 2 and "not in" in capsys.readouterr().err


def test_vet_rounds_skip_judged_sources_or_recheck_the_supported_ones(tmp_path):
    table = tmp_path / "checked.parquet"
    candidates(3).to_parquet(table)
    first = vet_sheets(table, tmp_path / "r1", parts=1)
    sheet = pd.read_csv(first["sheets"][0], dtype=str, keep_default_na=False)
    sheet.loc[0, "verdict"], sheet.loc[1:, "verdict"] = "I", "V"
    sheet.to_csv(tmp_path / "r1.csv", index=False)
    write_verdicts([tmp_path / "r1.csv"], [first["key"]], tmp_path / "v.csv")
    again = vet_sheets(table, tmp_path / "r2", parts=1, prefix="S", recheck=tmp_path / "v.csv")
    assert again["sources"] == len(sheet) - 1  # the unsupported source is not re-checked
    second = pd.read_csv(again["sheets"][0], dtype=str, keep_default_na=False).assign(verdict="B", notes="weak")
    second.to_csv(tmp_path / "r2.csv", index=False)
    both = write_verdicts([tmp_path / "r1.csv", tmp_path / "r2.csv"], [first["key"], again["key"]], tmp_path / "v2.csv")
    assert both["sources"] == len(sheet) and both["B"] == len(sheet) - 1 and both["I"] == 1
    with pytest.raises(UserError, match="no source question left"):
        vet_sheets(table, tmp_path / "r3", skip=tmp_path / "v.csv")
