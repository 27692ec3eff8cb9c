"""Wilson intervals, the vectorised cluster bootstrap and the paired bootstrap."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from refusalbench.config import ScoreConfig
from refusalbench.errors import UserError
from refusalbench.metrics import (
    compare_runs,
    compute_metrics,
    paired_bootstrap,
    percentile_interval,
    resample_counts,
    wilson,
)
from tests.metrics.rb_metrics_helpers import AMB, ATT, EIGHT, A, labels


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (1, 2, 0.0945, 0.9055),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson(k, n, 0.95)
    assert float(lo) == pytest.approx(low, abs=1e-4) and float(hi) == pytest.approx(high, abs=1e-4)


def test_wilson_empty_is_nan():
    lo, hi = wilson(0, 0)
    assert np.isnan(lo) and np.isnan(hi)


def test_resample_counts_are_seeded_draws_of_clusters():
    w = resample_counts(7, 500, seed=3)
    assert w.shape == (500, 7) and (w.sum(axis=1) == 7).all()
    assert np.array_equal(w, resample_counts(7, 500, seed=3))
    assert not np.array_equal(w, resample_counts(7, 500, seed=4))
    assert abs(w.mean() - 1.0) < 0.05


def synthetic(n_sources=40, per_source=8, seed=0, p_source=None):
    """Unanswerable items; each source question is refused correctly all-or-nothing (strong clustering)."""
    rng = np.random.default_rng(seed)
    good = rng.random(n_sources) < 0.5 if p_source is None else p_source
    rows = []
    for s in range(n_sources):
        for _ in range(per_source):
            rows.append((AMB, AMB if good[s] else ATT, None, f"s{s}"))
    return labels(rows)


def test_bootstrap_interval_contains_estimate_and_is_reproducible():
    df = synthetic()
    m1 = compute_metrics(df, settings=ScoreConfig(n_resamples=400, seed=11))
    m2 = compute_metrics(df, settings=ScoreConfig(n_resamples=400, seed=11))
    m3 = compute_metrics(df, settings=ScoreConfig(n_resamples=400, seed=12))
    ra = m1["refusal_accuracy"]
    assert ra["ci_low"] <= ra["value"] <= ra["ci_high"]
    assert m1["refusal_accuracy"] == m2["refusal_accuracy"]
    assert m3["refusal_accuracy"]["ci_low"] != ra["ci_low"] or m3["refusal_accuracy"]["ci_high"] != ra["ci_high"]


def test_bootstrap_is_clustered_by_source_question():
    df = synthetic()
    clustered = compute_metrics(df, settings=ScoreConfig(n_resamples=1000, seed=1))["refusal_accuracy"]
    by_item = compute_metrics(df.drop(columns="source_id"), settings=ScoreConfig(n_resamples=1000, seed=1))[
        "refusal_accuracy"
    ]
    width = lambda e: e["ci_high"] - e["ci_low"]  # noqa: E731
    # all-or-nothing clusters of 8: the design effect is about sqrt(8) on the width
    assert width(clustered) > 2 * width(by_item)
    # Wilson treats items as independent, like the unclustered bootstrap
    assert width(by_item) == pytest.approx(clustered["wilson_high"] - clustered["wilson_low"], rel=0.25)


def test_vectorised_bootstrap_matches_an_explicit_loop():
    df = labels(EIGHT)
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=300, seed=5))
    clusters = sorted(df["source_id"].unique())
    weights = resample_counts(len(clusters), 300, 5)
    values = []
    for w in weights:
        parts = [df[df["source_id"] == c] for c, k in zip(clusters, w) for _ in range(int(k))]
        sample = pd.concat(parts)
        unans = sample[sample["expected_rag_behavior"] != A]
        values.append((unans["predicted_label"] == unans["expected_rag_behavior"]).mean() if len(unans) else np.nan)
    low, high = percentile_interval(np.array(values), 0.95)
    assert m["refusal_accuracy"]["ci_low"] == pytest.approx(low) and m["refusal_accuracy"]["ci_high"] == pytest.approx(
        high
    )


def test_paired_bootstrap_identical_models_differ_by_zero():
    df = synthetic()
    d = paired_bootstrap(df, df.copy(), "refusal_accuracy", settings=ScoreConfig(n_resamples=300))
    assert d["difference"] == 0.0 and d["ci_low"] == 0.0 and d["ci_high"] == 0.0 and d["p_value"] == 1.0


def test_paired_bootstrap_detects_a_consistent_difference():
    a = synthetic(seed=2)
    b = a.copy()
    flip = b.index[b["predicted_label"] == AMB][:40]  # model B loses 40 of A's correct refusals
    b.loc[flip, "predicted_label"] = ATT
    d = paired_bootstrap(a, b, "refusal_accuracy", settings=ScoreConfig(n_resamples=500, seed=3))
    assert d["difference"] == pytest.approx(40 / len(a))
    assert d["ci_low"] > 0 and d["p_value"] < 0.05
    # the paired interval is narrower than the two marginal intervals suggest
    ma, mb = (
        compute_metrics(a, settings=ScoreConfig(n_resamples=500, seed=3)),
        compute_metrics(b, settings=ScoreConfig(n_resamples=500, seed=3)),
    )
    assert d["ci_high"] - d["ci_low"] < (ma["refusal_accuracy"]["ci_high"] - ma["refusal_accuracy"]["ci_low"])
    # the same from the two metrics JSON objects
    from_json = compare_runs(ma, mb, ["refusal_accuracy"])["refusal_accuracy"]
    assert from_json["difference"] == pytest.approx(d["difference"])
    assert from_json["ci_low"] == pytest.approx(d["ci_low"]) and from_json["ci_high"] == pytest.approx(d["ci_high"])


def test_paired_comparison_needs_the_same_items():
    a = synthetic()
    with pytest.raises(UserError, match="same items"):
        paired_bootstrap(a, a.iloc[:-1], "refusal_accuracy")
    ma = compute_metrics(a, settings=ScoreConfig(n_resamples=50))
    mb = compute_metrics(a.iloc[:-8], settings=ScoreConfig(n_resamples=50))
    assert compare_runs(ma, mb, ["refusal_accuracy"])["refusal_accuracy"]["difference"] is None


def test_paired_comparison_of_undefined_metric():
    df = labels([(A, ATT, None, "a"), (AMB, AMB, None, "b")]).drop(columns="answer_correct")
    m = compute_metrics(df, settings=ScoreConfig(n_resamples=20))
    out = compare_runs(m, m, ["answer_accuracy", "refusal_accuracy"])
    assert out["answer_accuracy"]["difference"] is None and out["refusal_accuracy"]["difference"] == 0.0
