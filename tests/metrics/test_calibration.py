"""ECE (5 paper bins, 10 equal-width bins), Brier score and the reliability table."""

from __future__ import annotations

import numpy as np
import pytest

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics import compute_metrics
from refusalbench.metrics.calibration import FIVE_BIN_EDGES, bin_index
from tests.metrics.rb_metrics_helpers import AMB, ATT, EIGHT, A, labels


def test_paper_bins_are_right_inclusive():
    conf = np.array([0.0, 0.15, 0.3, 0.31, 0.5, 0.7, 0.9, 0.95, 1.0])
    assert bin_index(conf, FIVE_BIN_EDGES).tolist() == [0, 0, 0, 1, 1, 2, 3, 4, 4]


def constructed():
    # four answers at 0.95 (three correct), two refusals at 0.15 (both wrong code → incorrect)
    rows = [
        (A, ATT, True, "a"),
        (A, ATT, True, "b"),
        (A, ATT, True, "c"),
        (A, ATT, False, "d"),
        (AMB, "REFUSE_OTHER", None, "e"),
        (AMB, ATT, False, "f"),
    ]
    return labels(rows, confidence=[0.95, 0.95, 0.95, 0.95, 0.15, 0.15])


def test_ece_and_brier_on_a_constructed_example():
    cal = compute_metrics(constructed(), settings=ScoreConfig(n_resamples=200))["calibration"]
    # bin (0.9, 1]: 4 items, accuracy 0.75, confidence 0.95 → 4·0.20; bin [0, 0.3]: 2 items, 0 vs 0.15 → 2·0.15
    expected_ece = (4 * 0.20 + 2 * 0.15) / 6
    assert cal["ece_5bin"]["value"] == pytest.approx(expected_ece)
    assert cal["ece_10bin"]["value"] == pytest.approx(expected_ece)  # same occupied bins here
    assert cal["brier"]["value"] == pytest.approx((3 * 0.05**2 + 0.95**2 + 2 * 0.15**2) / 6)
    assert cal["ece_5bin"]["ci_low"] <= cal["ece_5bin"]["value"] <= cal["ece_5bin"]["ci_high"]
    assert cal["ece_5bin_answers"] == pytest.approx(0.20)
    assert cal["ece_5bin_refusals"] == pytest.approx(0.15)
    bins = cal["reliability_5bin"]
    assert [b["n"] for b in bins] == [2, 0, 0, 0, 4]
    assert bins[4]["accuracy"] == 0.75 and bins[4]["mean_confidence"] == pytest.approx(0.95)
    assert sum(b["n"] for b in cal["reliability_10bin"]) == 6


def test_ten_bins_differ_from_five():
    df = labels([(A, ATT, True, "a"), (A, ATT, False, "b")], confidence=[0.55, 0.65])
    cal = compute_metrics(df, settings=ScoreConfig(n_resamples=0))["calibration"]
    assert cal["ece_5bin"]["value"] == pytest.approx(abs(1 - 1.2) / 2)  # one bin (0.5, 0.7]
    assert cal["ece_10bin"]["value"] == pytest.approx((0.45 + 0.65) / 2)  # two bins


def test_items_without_confidence_are_left_out():
    df = constructed()
    df.loc[0, "confidence"] = None
    cal = compute_metrics(df, settings=ScoreConfig(n_resamples=0))["calibration"]
    assert cal["n"] == 5 and cal["n_without_confidence"] == 1


def test_no_confidence_column():
    cal = compute_metrics(labels(EIGHT), settings=ScoreConfig(n_resamples=0))["calibration"]
    assert cal["available"] is False and "confidence" in cal["reason"]


def test_confidence_must_be_a_probability():
    with pytest.raises(UserError, match="confidence"):
        compute_metrics(labels(EIGHT, confidence=[50.0] * 8), settings=ScoreConfig(n_resamples=0))
