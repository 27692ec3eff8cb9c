"""Metrics objects for the report tests, computed from small synthetic labels tables."""

from __future__ import annotations

from refusalbench.config import ScoreConfig
from refusalbench.metrics.models import score_by_model
from tests.support.scoring import labels_table


def runs(
    models=("claude-sonnet-4", "gpt-4o"), budgets=None, confidence=False, benchmark="NQ", multi_passage=False
) -> dict[str, dict]:
    table = labels_table(models=models, budgets=budgets, confidence=confidence)
    if multi_passage:
        table["eligibility"] = table["answer_correct"]
        table["factuality_all"] = table["answer_correct"]
        table["factuality_relevant"] = table["answer_correct"]
    return score_by_model(table, settings=ScoreConfig(n_resamples=100), meta={"benchmark": benchmark})
