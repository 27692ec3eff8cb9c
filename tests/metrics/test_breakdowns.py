"""Breakdowns per slice, the confusion matrix and the multi-passage (GaRAGe) metrics."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.config import ScoreConfig
from refusalbench.metrics import compute_metrics
from refusalbench.taxonomy import GROUND_TRUTH_LABELS, PREDICTION_LABELS
from tests.metrics.rb_metrics_helpers import AMB, ATT, CON, EIGHT, OTHER, A, labels


def test_breakdowns_per_class_intensity_and_cells():
    m = compute_metrics(labels(EIGHT), settings=ScoreConfig(n_resamples=0))
    b = m["breakdowns"]
    assert set(b) == {"perturbation_class", "intensity", "class_intensity"}
    assert list(b["intensity"]) == ["LOW", "MEDIUM", "HIGH"]
    low = b["intensity"]["LOW"]
    assert (low["n"], low["n_answerable"], low["truncated"]) == (4, 4, 1)
    assert low["refusal_rate"]["value"] == pytest.approx(1 / 4)  # LOW refusal rate = false-refusal rate
    assert low["answer_accuracy"]["value"] == pytest.approx(1 / 4)
    assert low["refusal_accuracy"]["value"] is None and low["calibrated_refusal_score"]["value"] is None
    contra = b["perturbation_class"]["P-Contradiction"]
    # answerable rows of the helper are P-Ambiguity, so P-Contradiction holds the two CON items
    assert contra["n_unanswerable"] == 2 and contra["refusal_accuracy"]["value"] == 0.0 and contra["unscored"] == 1
    assert list(b["class_intensity"])[:2] == ["P-Ambiguity|LOW", "P-Ambiguity|MEDIUM"]
    assert b["class_intensity"]["P-Ambiguity|HIGH"]["refusal_accuracy"]["value"] == 0.0
    assert "wilson_low" in b["class_intensity"]["P-Ambiguity|MEDIUM"]["refusal_accuracy"]


def test_optional_dimensions_generator_lever_domain():
    df = labels(EIGHT, generator_model=["claude", "gpt"] * 4, lever_selected=["x"] * 8, domain=[None] * 8)
    b = compute_metrics(df, settings=ScoreConfig(n_resamples=0))["breakdowns"]
    assert set(b["generator_model"]) == {"claude", "gpt"}
    assert b["lever_selected"]["x"]["n"] == 8
    assert "domain" not in b  # an all-empty column is not a breakdown


def test_confusion_matrix_counts_and_rows():
    cm = compute_metrics(labels(EIGHT), settings=ScoreConfig(n_resamples=0))["confusion_matrix"]
    assert cm["rows"] == list(GROUND_TRUTH_LABELS) and cm["columns"] == list(PREDICTION_LABELS)
    counts = pd.DataFrame(cm["counts"], index=cm["rows"], columns=cm["columns"])
    assert counts.loc[A, "answer_attempt"] == 2 and counts.loc[A, OTHER] == 1 and counts.loc[A, "truncated"] == 1
    assert counts.loc[AMB, AMB] == 1 and counts.loc[CON, "unscored"] == 1
    assert counts.to_numpy().sum() == 8
    shares = pd.DataFrame(cm["row_normalised"], index=cm["rows"], columns=cm["columns"])
    assert shares.loc[A, "answer_attempt"] == 0.5
    assert shares.loc["REFUSE_NONFACTUAL_QUERY"].isna().all()  # no items with that ground truth
    assert set(cm["by_intensity"]) == {"LOW", "MEDIUM", "HIGH"}
    assert sum(map(sum, cm["by_intensity"]["LOW"]["counts"])) == 4


def test_multi_passage_raf_flag_and_eligibility_gated_raf():
    rows = [(A, ATT, None, "a"), (A, ATT, None, "b"), (A, ATT, None, "c"), (A, OTHER, None, "d"), (AMB, AMB, None, "a")]
    df = labels(
        rows,
        eligibility=[True, False, True, None, None],
        factuality_all=[True, False, False, None, None],
        factuality_relevant=[True, True, False, None, None],
    )
    mp = compute_metrics(df, settings=ScoreConfig(n_resamples=100))["multi_passage"]
    assert mp["eligibility"]["value"] == pytest.approx(2 / 4)  # false refusal counts 0
    assert mp["factuality"]["value"] == pytest.approx(1 / 4)
    assert mp["raf_flag"]["value"] == pytest.approx(2 / 4)  # the original code's flag
    assert mp["raf_eligible"]["value"] == pytest.approx(1 / 4)  # GaRAGe paper: eligible and relevant-factual
    assert mp["raf_flag_on_answered"]["value"] == pytest.approx(2 / 3)
    assert mp["hybrid_score"]["value"] == pytest.approx((2 + 1) / 5)
    assert mp["calibrated_refusal_score_raf"]["value"] == pytest.approx(0.5 * (0.5 + 1.0))
    assert mp["raf_flag"]["ci_low"] <= 0.5 <= mp["raf_flag"]["ci_high"]


def test_no_multi_passage_block_without_flags():
    assert "multi_passage" not in compute_metrics(labels(EIGHT), settings=ScoreConfig(n_resamples=0))
