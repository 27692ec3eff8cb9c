"""Scoring another tool's predictions with the original evaluator's column names."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics import compute_metrics, read_predictions

ORIGINAL_CSV = """\
model_id,entry_idx,unique_id,generator_model,perturbation_class,intensity,query,ground_truth_label,\
model_raw_output,model_predicted_type,answer_quality_score,refusal_match_correct
m1,0,u0,claude,P-Ambiguity,LOW,q,ANSWER_CORRECTLY,Paris,answer_attempt,5.0,
m1,1,u1,claude,P-Ambiguity,LOW,q,ANSWER_CORRECTLY,Lyon,answer_attempt,2.0,
m1,2,u2,gpt,P-Ambiguity,MEDIUM,q,REFUSE_AMBIGUOUS_QUERY,x,REFUSE_AMBIGUOUS_QUERY,,True
m1,3,u3,gpt,P-MissingInfo,HIGH,q,REFUSE_INFO_MISSING_IN_CONTEXT,x,ERROR,,
m1,4,u4,gpt,P-MissingInfo,LOW,q,ANSWER_CORRECTLY,x,**REFUSE_OTHER**,,False
"""


def write(tmp_path, text, name="preds.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_original_csv_scores(tmp_path):
    df = read_predictions(write(tmp_path, ORIGINAL_CSV))
    assert {
        "expected_rag_behavior",
        "predicted_label",
        "answer_quality_score",
        "model",
        "id",
        "generator_model",
    } <= set(df.columns)
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=100))
    assert m["answer_accuracy"]["value"] == pytest.approx(1 / 3)  # 5.0 correct, 2.0 wrong, false refusal
    assert m["false_refusal_rate"]["value"] == pytest.approx(1 / 3)
    assert m["refusal_accuracy"]["value"] == pytest.approx(1 / 2)  # ERROR → unscored, still in the denominator
    assert m["missed_refusal_rate"]["value"] == pytest.approx(1 / 2)
    assert m["counts"]["unscored"] == 1
    assert m["meta"]["cluster_column"] == "id"  # no source_qid column: items are their own clusters
    assert set(m["breakdowns"]["generator_model"]) == {"claude", "gpt"}


def test_missing_required_column_is_named(tmp_path):
    text = ORIGINAL_CSV.replace("model_predicted_type", "prediction")
    with pytest.raises(UserError, match="model_predicted_type"):
        read_predictions(write(tmp_path, text))
    text = ORIGINAL_CSV.replace("ground_truth_label", "gt")
    with pytest.raises(UserError, match="ground_truth_label"):
        read_predictions(write(tmp_path, text))


def test_without_quality_scores_answer_accuracy_is_null(tmp_path):
    df = pd.read_csv(write(tmp_path, ORIGINAL_CSV)).drop(columns="answer_quality_score")
    path = tmp_path / "p.jsonl"
    df.to_json(path, orient="records", lines=True)
    m = compute_metrics(read_predictions(path), settings=ScoreConfig(n_resamples=50))
    assert m["answer_accuracy"]["value"] is None and "answer_quality_score" in m["answer_accuracy"]["reason"]
    assert m["calibrated_refusal_score"]["value"] is None
    assert m["refusal_accuracy"]["value"] == pytest.approx(1 / 2)


def test_parquet_expected_rag_behavior_and_source_ids(tmp_path):
    df = pd.DataFrame(
        {
            "expected_rag_behavior": ["ANSWER_CORRECTLY", "REFUSE_FALSE_PREMISE_IN_QUERY"],
            "model_predicted_type": ["answer_attempt", "refuse_false_premise"],
            "answer_quality_score": [4, None],
            "source_qid": ["q1", "q1"],
        }
    )
    path = tmp_path / "p.parquet"
    df.to_parquet(path)
    m = compute_metrics(read_predictions(path), settings=ScoreConfig(n_resamples=50))
    assert m["answer_accuracy"]["value"] == 1.0 and m["refusal_accuracy"]["value"] == 1.0
    assert m["meta"]["cluster_column"] == "source_id" and m["meta"]["n_clusters"] == 1


def test_garage_columns_and_confidence(tmp_path):
    df = pd.DataFrame(
        {
            "expected_behavior": ["ANSWER_CORRECTLY", "ANSWER_CORRECTLY", "REFUSE_AMBIGUOUS_QUERY"],
            "refusal_classification": ["answer_attempt", "answer_attempt", "REFUSE_AMBIGUOUS_QUERY"],
            "eligibility_score": [1, 1, None],
            "unadjusted_factuality_score": [1, 0, None],
            "raf_score": [0, 1, None],
            "question_category": ["Health", "Finance", "Health"],
            "confidence": [90, 40, 80],
        }
    )
    path = tmp_path / "g.jsonl"
    df.to_json(path, orient="records", lines=True)
    labels = read_predictions(path)
    assert labels["confidence"].tolist() == pytest.approx([0.9, 0.4, 0.8])
    m = compute_metrics(labels, settings=ScoreConfig(n_resamples=0))
    assert m["multi_passage"]["raf_flag"]["value"] == 0.5 and m["multi_passage"]["eligibility"]["value"] == 1.0
    assert set(m["breakdowns"]["domain"]) == {"Health", "Finance"}
    assert m["calibration"]["available"]


def test_confidence_levels(tmp_path):
    text = (
        "ground_truth_label,model_predicted_type,confidence_level\n"
        "ANSWER_CORRECTLY,answer_attempt,VERY_CONFIDENT\n"
        "REFUSE_AMBIGUOUS_QUERY,REFUSE_AMBIGUOUS_QUERY,uncertain\n"
    )
    labels = read_predictions(write(tmp_path, text))
    assert labels["confidence"].tolist() == pytest.approx([0.95, 0.40])


def test_empty_file(tmp_path):
    with pytest.raises(UserError, match="no rows"):
        read_predictions(write(tmp_path, "ground_truth_label,model_predicted_type\n"))


def test_unknown_labels_are_named_once_with_a_suggestion(tmp_path, caplog):
    text = "ground_truth_label,model_predicted_type,answer_correct\n" + "\n".join(
        ["ANSWER_CORRECTLY,ANSWER_CORRECTLY,1", "REFUSE_INFO_MISSING_IN_CONTEXT,REFUSE_MISING,0"] * 3
    )
    with caplog.at_level("WARNING"):
        compute_metrics(read_predictions(write(tmp_path, text)), settings=ScoreConfig(n_resamples=20))
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1
    assert "'REFUSE_MISING' (3; did you mean 'REFUSE_MISSING'?)" in warnings[0]
