"""Every headline metric pinned on small hand-computed tables, edge cases and the truncated/unscored rule."""

from __future__ import annotations

import math

import pytest

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics import REQUIRED_KEYS, RULE_ID, compute_metrics
from tests.metrics.rb_metrics_helpers import AMB, ATT, CON, EIGHT, MIS, OTHER, A, labels, value


def score(rows, **kw):
    table = labels(rows, **kw.pop("extra", {}))
    return compute_metrics(table, ScoreConfig(n_resamples=kw.pop("n_resamples", 200), seed=7), **kw)


def test_worked_example_every_headline_metric():
    m = score(EIGHT)
    # A = 4 items (1 correct answer), U = 4 items: TP = 2 refusals, C = 1 exact code, FP = 1.
    assert value(m, "answer_accuracy") == pytest.approx(1 / 4)
    assert value(m, "refusal_accuracy") == pytest.approx(1 / 4)
    assert value(m, "false_refusal_rate") == pytest.approx(1 / 4)
    assert value(m, "missed_refusal_rate") == pytest.approx(2 / 4)  # answer attempt + unscored on U
    assert value(m, "detection_precision") == pytest.approx(2 / 3)
    assert value(m, "detection_recall") == pytest.approx(2 / 4)
    assert value(m, "detection_f1") == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert value(m, "category_accuracy") == pytest.approx(1 / 2)
    assert value(m, "hierarchical_refusal_score") == pytest.approx(value(m, "detection_f1") * 0.5)
    assert value(m, "calibrated_refusal_score") == pytest.approx(0.5 * (1 / 4 + 1 / 4))
    assert value(m, "overall_refusal_rate") == pytest.approx(2 / 4)
    assert value(m, "refusal_volume") == pytest.approx(3 / 8)
    assert m["answer_accuracy"]["n"] == 4 and m["detection_precision"]["n"] == 3
    for key in REQUIRED_KEYS:
        assert {"value", "ci_low", "ci_high", "n"} <= set(m[key])
    assert {"wilson_low", "wilson_high"} <= set(m["refusal_accuracy"])
    assert "wilson_low" not in m["detection_f1"]


def test_response_distribution_partitions_items():
    m = score(EIGHT)
    dist = m["response_distribution"]
    assert list(dist) == [
        "correct_answer", "wrong_answer", "correct_refusal", "wrong_category_refusal",
        "false_refusal", "missed_refusal", "truncated", "unscored",
    ]  # fmt: skip
    assert all(d["count"] == 1 and d["share"] == pytest.approx(1 / 8) for d in dist.values())
    c = m["counts"]
    assert (c["total_instances"], c["answerable_instances"], c["unanswerable_instances"]) == (8, 4, 4)
    assert (c["truncated"], c["unscored"], c["refusals"], c["answer_attempts"], c["source_questions"]) == (
        1,
        1,
        3,
        3,
        3,
    )
    assert m["meta"]["truncated_unscored_rule"] == RULE_ID


def test_identity_refusal_accuracy_is_recall_times_category_accuracy():
    rows = [
        (AMB, AMB, None, "a"),
        (AMB, OTHER, None, "a"),
        (CON, CON, None, "b"),
        (CON, ATT, False, "c"),
        (MIS, MIS, None, "c"),
        (A, ATT, True, "d"),
    ]
    m = score(rows)
    assert m["counts"]["truncated"] == m["counts"]["unscored"] == 0
    assert value(m, "refusal_accuracy") == pytest.approx(value(m, "detection_recall") * value(m, "category_accuracy"))
    assert value(m, "hierarchical_refusal_score") == pytest.approx(
        value(m, "detection_f1") * value(m, "category_accuracy")
    )
    # under the rule it also holds with truncated/unscored rows present
    m8 = score(EIGHT)
    assert value(m8, "refusal_accuracy") == pytest.approx(
        value(m8, "detection_recall") * value(m8, "category_accuracy")
    )


def test_truncated_and_unscored_rule():
    # answerable: truncated lowers answer accuracy but is no false refusal
    m = score([(A, ATT, True, "a"), (A, "truncated", None, "b"), (AMB, AMB, None, "c")])
    assert value(m, "answer_accuracy") == pytest.approx(0.5)
    assert value(m, "false_refusal_rate") == 0.0
    assert value(m, "detection_precision") == 1.0
    # unanswerable: unscored lowers refusal accuracy, counts as missed, never enters precision
    m = score([(AMB, AMB, None, "a"), (AMB, "unscored", None, "b"), (A, ATT, True, "c")])
    assert value(m, "refusal_accuracy") == pytest.approx(0.5)
    assert value(m, "missed_refusal_rate") == pytest.approx(0.5)
    assert value(m, "detection_precision") == 1.0
    assert value(m, "category_accuracy") == 1.0
    assert m["response_distribution"]["unscored"]["count"] == 1
    assert m["response_distribution"]["missed_refusal"]["count"] == 0


def test_error_and_unrecognised_labels_are_unscored():
    m = score([(AMB, "ERROR", None, "a"), (AMB, "I cannot say", None, "b"), (A, ATT, True, "c")])
    assert m["counts"]["unscored"] == 2
    assert m["counts"]["unrecognised_labels"] == 1
    assert value(m, "refusal_accuracy") == 0.0
    assert m["detection_precision"]["value"] is None  # no refusals at all


def test_label_normalisation_of_markup_case_and_short_names():
    rows = [
        (AMB, "**refuse_ambiguous_query**.", None, "a"),
        (MIS, "REFUSE_MISSING", None, "b"),
        (CON, "`Refuse-Contradictory-Context`", None, "c"),
        (A, "Answer_Attempt", True, "d"),
    ]
    m = score(rows)
    assert value(m, "refusal_accuracy") == 1.0
    assert value(m, "answer_accuracy") == 1.0
    assert m["counts"]["unrecognised_labels"] == 0


def test_no_answerable_items():
    m = score([(AMB, AMB, None, "a"), (CON, ATT, False, "b")])
    for key in ("answer_accuracy", "false_refusal_rate", "calibrated_refusal_score"):
        assert m[key]["value"] is None and "answerable" in m[key]["reason"]
    assert value(m, "refusal_accuracy") == 0.5
    assert m["counts"]["answerable_instances"] == 0


def test_no_unanswerable_items():
    m = score([(A, ATT, True, "a"), (A, OTHER, None, "b")])
    for key in (
        "refusal_accuracy",
        "missed_refusal_rate",
        "detection_recall",
        "category_accuracy",
        "calibrated_refusal_score",
    ):
        assert m[key]["value"] is None, key
    assert value(m, "detection_f1") == 0.0  # one false positive, nothing to detect
    assert value(m, "false_refusal_rate") == 0.5
    m = score([(A, ATT, True, "a")])
    assert m["detection_f1"]["value"] is None and m["hierarchical_refusal_score"]["value"] is None


def test_no_refusals():
    m = score([(A, ATT, True, "a"), (AMB, ATT, False, "b"), (CON, ATT, True, "c")])
    assert m["detection_precision"] == {"value": None, "reason": "no refusals predicted", "n": 0}
    assert value(m, "detection_recall") == 0.0
    assert value(m, "detection_f1") == 0.0
    assert m["category_accuracy"]["value"] is None
    assert value(m, "hierarchical_refusal_score") == 0.0
    assert value(m, "false_refusal_rate") == 0.0 and value(m, "missed_refusal_rate") == 1.0


def test_all_correct():
    m = score([(A, ATT, True, "a"), (A, ATT, True, "b"), (AMB, AMB, None, "a"), (CON, CON, None, "c")])
    for key in (
        "answer_accuracy",
        "refusal_accuracy",
        "detection_precision",
        "detection_recall",
        "detection_f1",
        "category_accuracy",
        "hierarchical_refusal_score",
        "calibrated_refusal_score",
    ):
        assert m[key]["value"] == 1.0 and m[key]["ci_low"] == 1.0 and m[key]["ci_high"] == 1.0, key
    assert value(m, "false_refusal_rate") == 0.0 and value(m, "missed_refusal_rate") == 0.0
    assert m["refusal_accuracy"]["wilson_high"] == 1.0 and m["refusal_accuracy"]["wilson_low"] < 1.0


def test_answer_accuracy_needs_quality_judgements():
    df = labels([(A, ATT, None, "a"), (A, OTHER, None, "b"), (AMB, AMB, None, "c")]).drop(columns="answer_correct")
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=50))
    assert m["answer_accuracy"]["value"] is None and "quality" in m["answer_accuracy"]["reason"]
    assert m["calibrated_refusal_score"]["value"] is None
    assert value(m, "false_refusal_rate") == 0.5  # other metrics unaffected
    # the column exists but no attempted answer was judged
    m = score([(A, ATT, None, "a"), (AMB, AMB, None, "c")])
    assert m["answer_accuracy"]["value"] is None
    # a model that never attempts an answer has answer accuracy 0 even without judgements
    m = score([(A, OTHER, None, "a"), (AMB, AMB, None, "c")])
    assert value(m, "answer_accuracy") == 0.0


def test_unjudged_attempt_among_judged_ones_is_not_correct():
    m = score([(A, ATT, True, "a"), (A, ATT, None, "b"), (AMB, AMB, None, "c")])
    assert value(m, "answer_accuracy") == 0.5
    assert m["counts"]["answerable_attempts_unjudged"] == 1
    assert m["response_distribution"]["unscored"]["count"] == 1


def test_quality_score_threshold():
    df = labels([(A, ATT, None, "a"), (A, ATT, None, "b"), (A, ATT, None, "c")]).drop(columns="answer_correct")
    df["answer_quality_score"] = [4.0, 3.0, 5.0]
    assert value(compute_metrics(df, settings=ScoreConfig(n_resamples=0)), "answer_accuracy") == pytest.approx(2 / 3)
    assert value(
        compute_metrics(df, settings=ScoreConfig(n_resamples=0), correct_score=5), "answer_accuracy"
    ) == pytest.approx(1 / 3)


def test_refusal_rate_by_intensity_over_all_items():
    rows = [
        (A, OTHER, None, "a", "LOW"),
        (A, ATT, True, "b", "LOW"),
        (AMB, AMB, None, "a", "MEDIUM"),
        (AMB, ATT, False, "b", "HIGH"),
    ]
    m = score(rows)
    rates = m["refusal_rate_by_intensity"]
    assert (rates["LOW"]["value"], rates["MEDIUM"]["value"], rates["HIGH"]["value"]) == (0.5, 1.0, 0.0)
    assert rates["LOW"]["n"] == 2


def test_invalid_tables():
    with pytest.raises(UserError, match="predicted_label"):
        compute_metrics(labels(EIGHT).drop(columns="predicted_label"))
    with pytest.raises(UserError, match="REFUSE_OTHER is never"):
        compute_metrics(labels([(OTHER, OTHER, None, "a")]))
    with pytest.raises(UserError, match="empty"):
        compute_metrics(labels(EIGHT).iloc[:0])


def test_no_source_id_clusters_by_item():
    df = labels(EIGHT).drop(columns="source_id")
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=50))
    assert m["meta"]["cluster_column"] == "id" and m["meta"]["n_clusters"] == 8
    assert not math.isnan(m["refusal_accuracy"]["ci_high"])
