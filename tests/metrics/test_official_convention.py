"""The official convention reproduces the paper's figure code; the strict convention keeps the project's rule.

Hand-computed tables pin each formula under both conventions (ERROR rows and odd labels included);
randomised files in the official columns are checked against an independent re-statement of the
official formulas (`rb_official_reference`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import tests.metrics.rb_official_reference as reference
from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics import compute_metrics, read_predictions
from refusalbench.metrics.models import score_by_model

HEADER = (
    "model_id,unique_id,perturbation_class,intensity,ground_truth_label,model_predicted_type,"
    "answer_quality_score,refusal_match_correct\n"
)
HAND = [
    # (class, intensity, ground truth, predicted as written, quality, refusal_match_correct)
    ("P-Ambiguity", "LOW", "ANSWER_CORRECTLY", "answer_attempt", "5", ""),  # correct answer
    ("P-Ambiguity", "LOW", "ANSWER_CORRECTLY", "answer_attempt", "2", ""),  # wrong answer
    ("P-MissingInfo", "LOW", "ANSWER_CORRECTLY", "ERROR", "", ""),  # error on an answerable item
    ("P-MissingInfo", "LOW", "ANSWER_CORRECTLY", "ANSWER_CORRECTLY", "", ""),  # gt label echoed as a prediction
    ("P-Ambiguity", "MEDIUM", "REFUSE_AMBIGUOUS_QUERY", "REFUSE_AMBIGUOUS_QUERY", "", "True"),
    ("P-Ambiguity", "HIGH", "REFUSE_AMBIGUOUS_QUERY", "refuse_ambiguous_query", "", "False"),  # case variant
    ("P-MissingInfo", "MEDIUM", "REFUSE_INFO_MISSING_IN_CONTEXT", "ERROR", "", ""),  # error: m missing
    ("P-MissingInfo", "HIGH", "REFUSE_INFO_MISSING_IN_CONTEXT", "answer_attempt", "3", "False"),  # missed refusal
    ("P-Contradiction", "MEDIUM", "REFUSE_CONTRADICTORY_CONTEXT", "REFUSE_OTHER", "", "False"),
    ("P-Contradiction", "HIGH", "REFUSE_CONTRADICTORY_CONTEXT", "REFUSE_NONE", "", "False"),  # invented code
]


def write_rows(tmp_path, rows, name="hand.csv", model="m1"):
    lines = [f"{model},u{i},{c},{lv},{gt},{p},{q},{m}" for i, (c, lv, gt, p, q, m) in enumerate(rows)]
    path = tmp_path / name
    path.write_text(HEADER + "\n".join(lines) + "\n")
    return path


def values(metrics: dict) -> dict:
    return {k: v["value"] for k, v in metrics.items() if isinstance(v, dict) and "value" in v}


def test_hand_table_official(tmp_path):
    m = compute_metrics(
        read_predictions(write_rows(tmp_path, HAND)), settings=ScoreConfig(n_resamples=0, convention="official")
    )
    f1 = 2 * (5 / 7) * (5 / 6) / (5 / 7 + 5 / 6)
    expected = {
        "answer_accuracy": 1 / 4,  # ERROR and ANSWER_CORRECTLY are refusals, never correct answers
        "refusal_accuracy": 1 / 5,  # the ERROR row leaves the denominator; the case variant is wrong
        "calibrated_refusal_score": 0.5 * (1 / 4 + 1 / 5),
        "false_refusal_rate": 2 / 4,  # ERROR and ANSWER_CORRECTLY on answerable items
        "missed_refusal_rate": 1 / 6,  # answer attempts on unanswerable items only
        "overall_refusal_rate": 5 / 6,
        "detection_precision": 5 / 7,
        "detection_recall": 5 / 6,
        "detection_f1": f1,
        "category_accuracy": 1 / 5,
        "hierarchical_refusal_score": f1 / 5,
        "refusal_volume": 7 / 10,
    }
    got = values(m)
    for name, want in expected.items():
        assert got[name] == pytest.approx(want), name
    assert m["meta"]["convention"] == "official" and m["meta"]["truncated_unscored_rule"] == "official-figure-code"
    per_class = m["breakdowns"]["perturbation_class"]
    assert per_class["P-MissingInfo"]["refusal_rate"]["value"] == pytest.approx(1 / 2)  # MEDIUM+HIGH only
    assert per_class["P-MissingInfo"]["refusal_accuracy"]["value"] == pytest.approx(0.0)  # ERROR skipped: 0/1


def test_hand_table_strict(tmp_path):
    m = compute_metrics(read_predictions(write_rows(tmp_path, HAND)), settings=ScoreConfig(n_resamples=0))
    expected = {
        "answer_accuracy": 1 / 4,
        "refusal_accuracy": 2 / 6,  # the case variant is credited; ERROR and REFUSE_NONE stay in the denominator
        "calibrated_refusal_score": 0.5 * (1 / 4 + 2 / 6),
        "false_refusal_rate": 0.0,  # ERROR is unscored, ANSWER_CORRECTLY an (unjudged) answer attempt
        "missed_refusal_rate": 3 / 6,  # = 1 - recall: the attempt and the two unscored rows
        "overall_refusal_rate": 3 / 6,
        "detection_precision": 1.0,
        "detection_recall": 3 / 6,
        "detection_f1": 2 / 3,
        "category_accuracy": 2 / 3,
        "hierarchical_refusal_score": 4 / 9,
        "refusal_volume": 3 / 10,
    }
    got = values(m)
    for name, want in expected.items():
        assert got[name] == pytest.approx(want), name
    assert m["meta"]["convention"] == "strict"
    assert m["counts"]["unscored"] == 3
    # both conventions are carried, so a reader sees where the choice matters
    assert m["conventions"]["official"]["refusal_accuracy"]["value"] == pytest.approx(1 / 5)
    assert m["conventions"]["strict"]["refusal_accuracy"]["value"] == pytest.approx(2 / 6)
    per_class = m["breakdowns"]["perturbation_class"]
    assert per_class["P-Ambiguity"]["refusal_rate"]["value"] == pytest.approx(1.0)  # over MEDIUM+HIGH only
    assert per_class["P-Ambiguity"]["refusal_rate"]["n"] == 2


def test_empty_denominators_give_zero_officially_and_null_strictly(tmp_path):
    only_answerable = [r for r in HAND if r[2] == "ANSWER_CORRECTLY"]
    df = read_predictions(write_rows(tmp_path, only_answerable))
    off = values(compute_metrics(df, settings=ScoreConfig(n_resamples=0, convention="official")))
    strict = values(compute_metrics(df, settings=ScoreConfig(n_resamples=0)))
    for name in ("refusal_accuracy", "missed_refusal_rate", "detection_recall", "category_accuracy", "detection_f1"):
        assert off[name] == 0.0 and strict[name] is None, name
    all_error = [("P-MissingInfo", "HIGH", "REFUSE_INFO_MISSING_IN_CONTEXT", "ERROR", "", "")] * 2
    m = compute_metrics(
        read_predictions(write_rows(tmp_path, all_error)), settings=ScoreConfig(n_resamples=0, convention="official")
    )
    assert m["refusal_accuracy"]["value"] is None and "NaN" in m["refusal_accuracy"]["reason"]  # pandas mean of NaNs


def test_derived_match_without_the_column_follows_the_evaluator(tmp_path):
    df = read_predictions(write_rows(tmp_path, HAND)).drop(columns="refusal_match_correct")
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=0, convention="official"))
    # derived m: ERROR → missing; attempt → False; else exact string equality — the same as the file's column
    assert m["refusal_accuracy"]["value"] == pytest.approx(1 / 5)
    assert m["category_accuracy"]["value"] == pytest.approx(1 / 5)


def test_the_files_own_match_column_is_used(tmp_path):
    rows = [("P-Ambiguity", "MEDIUM", "REFUSE_AMBIGUOUS_QUERY", "REFUSE_OTHER", "", "True")]  # a lenient evaluator
    df = read_predictions(write_rows(tmp_path, rows))
    assert (
        compute_metrics(df, settings=ScoreConfig(n_resamples=0, convention="official"))["refusal_accuracy"]["value"]
        == 1.0
    )
    assert compute_metrics(df, settings=ScoreConfig(n_resamples=0))["refusal_accuracy"]["value"] == 0.0


def test_unknown_convention_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="convention"):
        ScoreConfig(n_resamples=0, convention="lenient")


# --- randomised files in the official columns --------------------------------------------------

CODES = [
    "REFUSE_AMBIGUOUS_QUERY",
    "REFUSE_CONTRADICTORY_CONTEXT",
    "REFUSE_INFO_MISSING_IN_CONTEXT",
    "REFUSE_FALSE_PREMISE_IN_QUERY",
    "REFUSE_GRANULARITY_MISMATCH",
    "REFUSE_NONFACTUAL_QUERY",
]
CLASSES = [
    "P-Ambiguity",
    "P-Contradiction",
    "P-MissingInfo",
    "P-FalsePremise",
    "P-GranularityMismatch",
    "P-EpistemicMismatch",
]
ODD = [
    "ERROR",
    "",
    "REFUSE_OTHER",
    "ANSWER_CORRECTLY",
    "refuse_ambiguous_query",
    "**REFUSE_OTHER**",
    "REFUSE_MISSING",
    "REFUSE_NONE",
    "Answer_Attempt",
    "REFUSE_CONTRADICTORY_QUERY",
]


def random_file(rng: np.random.Generator, path, models=("m1", "m2"), confidence=False) -> None:
    rows = []
    for model in models:
        for i in range(int(rng.integers(1, 60))):
            k = int(rng.integers(0, 6))
            level = ["LOW", "MEDIUM", "HIGH"][int(rng.integers(0, 3))]
            gt = "ANSWER_CORRECTLY" if level == "LOW" else CODES[k]
            r = rng.random()
            pred = (
                "answer_attempt"
                if r < 0.4
                else (
                    gt
                    if r < 0.6
                    else (CODES[int(rng.integers(0, 6))] if r < 0.75 else ODD[int(rng.integers(0, len(ODD)))])
                )
            )
            q = "" if pred != "answer_attempt" or rng.random() < 0.1 else str(int(rng.integers(1, 6)))
            if pred in ("ERROR", ""):
                m = ""
            elif gt == "ANSWER_CORRECTLY":
                m = "" if pred == "answer_attempt" else "False"
            else:
                m = str(pred == gt)
            if rng.random() < 0.05:  # an evaluator's own verdict that disagrees with the strings
                m = ["True", "False", ""][int(rng.integers(0, 3))]
            row = {
                "model_id": model,
                "unique_id": f"{model}-{i}",
                "perturbation_class": CLASSES[k],
                "intensity": level,
                "ground_truth_label": gt,
                "model_predicted_type": pred,
                "answer_quality_score": q,
                "refusal_match_correct": m,
            }
            if confidence:
                row["confidence_level"] = list(reference.LEVELS)[int(rng.integers(0, 5))] if rng.random() < 0.9 else ""
            rows.append(row)
    pd.DataFrame(rows).to_csv(path, index=False)


def assert_parity(ours: dict, official: dict) -> None:
    for name, want in official["core"].items():
        if name.endswith("_instances"):
            assert ours["counts"][name] == want, name
            continue
        got = ours[name]["value"]
        if want is None or (isinstance(want, float) and math.isnan(want)):
            assert got is None, name
        else:
            assert got == pytest.approx(float(want), abs=1e-12), name
    for suffix, want in official["per_class"].items():
        cls = CLASSES[[c.split("REFUSE_")[1] for c in CODES].index(suffix)]
        entry = ours["breakdowns"]["perturbation_class"][cls]
        for name in ("refusal_accuracy", "refusal_rate"):
            got, exp = entry[name]["value"], want[name]
            assert (got is None) if math.isnan(exp) else got == pytest.approx(exp, abs=1e-12), (suffix, name)
    if "ece" in official:
        for name, want in official["ece"].items():
            got = ours["calibration"][name]
            got = got["value"] if isinstance(got, dict) else got
            assert got == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize("seed", range(25))
def test_random_files_match_the_official_formulas(tmp_path, seed):
    rng = np.random.default_rng(seed)
    path = tmp_path / "results.csv"
    random_file(rng, path, confidence=seed % 2 == 0)
    official = reference.figures(path)
    ours = score_by_model(read_predictions(path), settings=ScoreConfig(n_resamples=0, convention="official"))
    assert set(ours) == set(official)
    for model in official:
        assert_parity(ours[model], official[model])


def test_command_line_official_convention_matches_the_figure_code(tmp_path):
    from hydra import compose, initialize_config_dir

    from refusalbench.cli import run_pipeline, validate
    from refusalbench.paths import CONF_DIR

    path = tmp_path / "results.csv"
    random_file(np.random.default_rng(101), path, confidence=True)
    out = tmp_path / "OUT.json"
    overrides = [
        "pipeline=score",
        f"score.predictions={path}",
        "score.convention=official",
        f"score.output={out}",
        "score.n_resamples=20",
        "tracking.enabled=false",
    ]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = validate(compose(config_name="config", overrides=overrides))
    run_pipeline(cfg, tmp_path / "run")
    import json

    metrics = json.loads(out.read_text())
    official = reference.figures(path)
    for model, want in official.items():
        assert metrics["models"][model]["meta"]["convention"] == "official"
        assert_parity(metrics["models"][model], want)
    assert "official" in (tmp_path / "run" / "report" / "report.md").read_text()


GARAGE_HEADER = (
    "model_id,entry_idx,sample_id,original_sample_id,expected_behavior,perturbation_class,intensity,"
    "is_answerable,question_category,refusal_classification,eligibility_score,"
    "unadjusted_factuality_score,raf_score,refusal_match_correct,false_refusal,missed_refusal\n"
)
GARAGE_ROWS = """g,0,s0_0,s0,ANSWER_CORRECTLY,P-Ambiguity,LOW,True,Finance,answer_attempt,1,1,1,,False,
g,1,s1_1,s1,ANSWER_CORRECTLY,P-MissingInfo,LOW,True,Finance,answer_attempt,1,0,0,,False,
g,2,s2_2,s2,ANSWER_CORRECTLY,P-MissingInfo,LOW,True,Sports,REFUSE_OTHER,0,0,0,,True,
g,3,s3_3,s3,REFUSE_AMBIGUOUS_QUERY,P-Ambiguity,HIGH,False,Sports,REFUSE_AMBIGUOUS_QUERY,,,,True,,False
g,4,s4_4,s4,REFUSE_INFO_MISSING_IN_CONTEXT,P-MissingInfo,MEDIUM,False,Finance,answer_attempt,,,,False,,True
g,5,s5_5,s5,REFUSE_INFO_MISSING_IN_CONTEXT,P-MissingInfo,HIGH,False,Finance,ERROR,,,,False,,
"""


@pytest.mark.parametrize("convention", ["strict", "official"])
def test_garage_file_in_official_columns_scores_without_nulls(tmp_path, convention):
    path = tmp_path / "hybrid_evaluation_results.csv"
    path.write_text(GARAGE_HEADER + GARAGE_ROWS)
    m = compute_metrics(read_predictions(path), settings=ScoreConfig(n_resamples=50, convention=convention))
    headline = [
        "answer_accuracy",
        "refusal_accuracy",
        "calibrated_refusal_score",
        "false_refusal_rate",
        "missed_refusal_rate",
        "detection_precision",
        "detection_recall",
        "detection_f1",
        "category_accuracy",
        "hierarchical_refusal_score",
    ]
    assert all(m[name]["value"] is not None for name in headline)
    assert m["answer_accuracy"]["value"] == pytest.approx(1 / 3)  # garage_raf: mean raf_score over answerable items
    # GaRAGe's evaluator writes refusal_match_correct=False for ERROR rows, so they count against refusal accuracy
    assert m["refusal_accuracy"]["value"] == pytest.approx(1 / 3)
    assert m["multi_passage"]["raf_flag"]["value"] == pytest.approx(1 / 3)


def test_rescoring_applies_a_changed_correct_score(tmp_path):
    df = read_predictions(write_rows(tmp_path, HAND))
    df["answer_correct"] = df["answer_quality_score"].map(lambda q: None if pd.isna(q) else float(q) >= 4)
    assert compute_metrics(df, settings=ScoreConfig(n_resamples=0), correct_score=4)["answer_accuracy"][
        "value"
    ] == pytest.approx(1 / 4)
    # the stored answer_correct came from threshold 4; threshold 2 re-derives it from the stored scores
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=0), correct_score=2)
    assert m["answer_accuracy"]["value"] == pytest.approx(2 / 4)
    assert m["meta"]["answer_correct_threshold"] == 2


def test_report_shows_both_conventions_where_they_differ_and_paper_numbers_use_official(tmp_path):
    from refusalbench.metrics.official import convention_differences
    from refusalbench.report.build import build_report
    from refusalbench.report.paper import our_number

    m = compute_metrics(read_predictions(write_rows(tmp_path, HAND * 5)), settings=ScoreConfig(n_resamples=200))
    differ = {row["metric"]: row for row in convention_differences(m)}
    assert differ["false_refusal_rate"]["strict"] == 0.0 and differ["false_refusal_rate"]["official"] == 0.5
    assert "answer_accuracy" not in differ  # the same under both
    report = build_report({"m1": m}, tmp_path / "report", paper_numbers=False).read_text()
    assert "Scoring convention: strict" in report and "Where the scoring conventions differ" in report
    assert our_number(m, "false_refusal_rate")[1] == 0.5  # official, although the run reports strict


def test_own_labels_under_official_truncated_and_unscored_are_refusals():
    from tests.metrics.rb_metrics_helpers import EIGHT, labels

    m = compute_metrics(labels(EIGHT), settings=ScoreConfig(n_resamples=0, convention="official"))
    # answerable: correct, wrong, REFUSE_OTHER, truncated → 2 refusals of 4
    assert m["false_refusal_rate"]["value"] == pytest.approx(2 / 4)
    # unanswerable: exact code, wrong code, attempt, unscored (the evaluator's ERROR: m missing) → 1 of 3
    assert m["refusal_accuracy"]["value"] == pytest.approx(1 / 3)
    assert m["missed_refusal_rate"]["value"] == pytest.approx(1 / 4)


def test_config_checks_the_convention():
    from refusalbench.config import ConfigError, ScoreConfig

    assert ScoreConfig(convention="official").convention == "official"
    with pytest.raises(ConfigError, match="score.convention must be one of strict, official"):
        ScoreConfig(convention="lenient")
