"""Valid rates of a hand-made review sheet, checked against numbers computed by hand; the human-validation
sheet of the select stage gives the same numbers."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.errors import UserError
from refusalbench.generation.human import export_frame, import_annotations
from refusalbench.generation.review import main, score

# (class, intensity, verdict as an annotator might write it); "" = not judged yet
ITEMS = [
    ("P-Ambiguity", "LOW", "V"),
    ("P-Ambiguity", "MEDIUM", "I"),
    ("P-Ambiguity", "HIGH", "B"),
    ("P-Contradiction", "LOW", "v"),
    ("P-Contradiction", "MEDIUM", "valid"),
    ("P-Contradiction", "HIGH", "V"),
    ("P-MissingInfo", "MEDIUM", "i"),
    ("P-FalsePremise", "HIGH", "Valid "),
    ("P-EpistemicMismatch", "LOW", ""),
    ("P-GranularityMismatch", "MEDIUM", "borderline"),
]
# by hand: 9 judged, V 5 / B 2 / I 2. Wilson 95 %: p=(k + z²/2)/(n + z²) ± z·sqrt(k(n-k)/n + z²/4)/(n + z²)
EXPECTED = {
    "overall": dict(
        n=9,
        valid=5,
        borderline=2,
        invalid=2,
        strict=5 / 9,
        strict_low=0.2667,
        strict_high=0.8112,
        lenient=7 / 9,
        lenient_low=0.4526,
        lenient_high=0.9368,
    ),
    "medium_high": dict(
        n=7,
        valid=3,
        borderline=2,
        invalid=2,
        strict=3 / 7,
        strict_low=0.1582,
        strict_high=0.7495,
        lenient=5 / 7,
        lenient_low=0.3589,
        lenient_high=0.9178,
    ),
}


def review_sheet(verdicts=None) -> pd.DataFrame:
    rows = [
        {"item": f"R{n:03d}", "perturbation_class": c, "intensity": i, "verdict": v}
        for n, (c, i, v) in enumerate(ITEMS, 1)
    ]
    sheet = pd.DataFrame(rows)
    if verdicts is not None:
        sheet["verdict"] = verdicts
    return sheet


def check_rates(rates: dict) -> None:
    for group, want in EXPECTED.items():
        got = rates[group]
        for key, value in want.items():
            assert got[key] == pytest.approx(value, abs=1e-4), (group, key)
    amb = rates["by_class"]["P-Ambiguity"]
    assert (amb["n"], amb["strict"], amb["lenient"]) == (3, pytest.approx(1 / 3), pytest.approx(2 / 3))
    assert (amb["strict_low"], amb["strict_high"]) == (pytest.approx(0.0615, abs=1e-4), pytest.approx(0.7923, abs=1e-4))
    none_judged = rates["by_class"]["P-EpistemicMismatch"]
    assert none_judged == {
        "n": 0,
        "valid": 0,
        "borderline": 0,
        "invalid": 0,
        "strict": None,
        "strict_low": None,
        "strict_high": None,
        "lenient": None,
        "lenient_low": None,
        "lenient_high": None,
    }
    low, medium, high = (rates["by_intensity"][i] for i in ("LOW", "MEDIUM", "HIGH"))
    assert (low["n"], low["strict"], low["strict_low"]) == (2, 1.0, pytest.approx(0.3424, abs=1e-4))
    assert (medium["n"], medium["strict"], medium["lenient"]) == (4, 0.25, 0.5)
    assert (high["n"], high["strict"], high["lenient"]) == (3, pytest.approx(2 / 3), 1.0)


def test_review_sheet_rates_match_hand_computed_numbers(tmp_path):
    path = tmp_path / "filled.csv"
    review_sheet().to_csv(path, index=False)
    result = score([path])
    entry = result["sheets"][str(path)]
    assert (entry["n_rows"], entry["n_judged"]) == (10, 9)
    check_rates(entry["rates"])


def test_human_validation_sheet_gives_the_same_numbers(tmp_path):
    n = len(ITEMS)
    bench = pd.DataFrame(
        {
            "id": [f"x{i}" for i in range(n)],
            "candidate_id": [f"c{i}" for i in range(n)],
            "perturbation_class": [c for c, _, _ in ITEMS],
            "intensity": [i for _, i, _ in ITEMS],
            "original_answers": [["A"]] * len(ITEMS),
            "panel_verdict": "PASS",
        }
    )
    sheet = export_frame(bench, multi_passage=False)
    sheet["human_verdict"] = [v for _, _, v in ITEMS]
    sheet.loc[0, "human_verdict"] = "PASS"  # the sheet's older vocabulary: PASS = valid
    path = tmp_path / "human.csv"
    sheet.to_csv(path, index=False)
    summary = import_annotations(path)
    check_rates(summary["validity"])
    assert summary["human_pass_rate"] == pytest.approx(5 / 9)
    assert summary["n_annotated"] == 9 and summary["n_invalid_verdicts"] == 0


def test_several_annotators_combine_to_the_strictest_verdict(tmp_path, capsys):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    review_sheet().to_csv(first, index=False)
    other = [v for _, _, v in ITEMS]
    other[0], other[2], other[9] = "B", "I", "V"  # R001 V→B, R003 B→I, R010 B→V (strictest stays B)
    review_sheet(other).to_csv(second, index=False)
    key = pd.DataFrame(
        {
            "item": [f"R{n:03d}" for n in range(1, 11)],
            "generator": ["g1"] * 5 + ["g2"] * 5,
            "lever_selected": ["L1", "L2"] * 5,
        }
    )
    key.to_csv(tmp_path / "key.csv", index=False)
    result = score([first, second], tmp_path / "key.csv")
    combined = result["combined"]["rates"]["overall"]
    assert (combined["n"], combined["valid"], combined["borderline"], combined["invalid"]) == (9, 4, 2, 3)
    assert result["combined"]["unanimous"] == pytest.approx(6 / 9)
    assert result["by_generator"]["g1"]["overall"]["n"] == 5 and result["by_generator"]["g2"]["overall"]["n"] == 4
    assert result["not_valid_by_lever"] == {"L1": 3, "L2": 2}  # R001, R003, R007 and R002, R010
    assert main(["score", str(first), str(second), "--out", str(tmp_path / "out")]) == 0
    assert "| all | 9 | 4 | 2 | 3 | 44 % (19–73 %) |" in capsys.readouterr().out
    assert (tmp_path / "out" / "validity.json").exists() and (tmp_path / "out" / "validity_rates.csv").exists()


def test_an_unknown_verdict_is_an_error_naming_the_item(tmp_path, capsys):
    verdicts = [v for _, _, v in ITEMS]
    verdicts[3] = "maybe"
    path = tmp_path / "bad.csv"
    review_sheet(verdicts).to_csv(path, index=False)
    with pytest.raises(UserError, match="R004: 'maybe'"):
        score([path])
    assert main(["score", str(path)]) == 2 and "not V, B or I" in capsys.readouterr().err
