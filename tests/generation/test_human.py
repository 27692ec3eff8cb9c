import json

import pandas as pd

from refusalbench.generation.human import export_frame, import_annotations, main


def test_export_import_roundtrip(tmp_path, capsys):
    bench = pd.DataFrame(
        {
            "id": ["x1", "x2", "x3"],
            "candidate_id": ["a", "b", "c"],
            "perturbation_class": "P-Ambiguity",
            "intensity": "LOW",
            "original_answers": [["A", "B"], ["C"], ["D"]],
            "panel_verdict": "PASS",
        }
    )
    sheet = export_frame(bench, multi_passage=False)
    assert "human_lever_correctly_implemented" in sheet and "human_strategy_compliance" not in sheet
    assert sheet["original_answers"].iloc[0] == "A | B"
    sheet.loc[0, "human_verdict"] = "PASS"
    sheet.loc[1, "human_verdict"] = "fail"
    sheet.loc[2, "human_verdict"] = "??"
    sheet.loc[0, "human_lever_correctly_implemented"] = "yes"
    path = tmp_path / "filled.csv"
    sheet.to_csv(path, index=False)
    votes = pd.DataFrame({"candidate_id": ["a", "b"], "verifier": ["v", "v"], "verdict": ["PASS", "PASS"]})
    votes_path = tmp_path / "votes.parquet"
    votes.to_parquet(votes_path)
    s = import_annotations(path, votes_path)
    assert s["n_annotated"] == 2 and s["n_invalid_verdicts"] == 1
    assert s["human_pass_rate"] == 0.5
    assert s["panel"]["agreement"] == 0.5
    assert s["verifiers"]["v"]["n"] == 2
    assert s["checklist_pass_rates"]["lever_correctly_implemented"] == 1.0
    assert main([str(path), str(votes_path)]) == 0
    assert json.loads(capsys.readouterr().out)["n_annotated"] == 2
    assert main([str(votes_path)]) == 2
