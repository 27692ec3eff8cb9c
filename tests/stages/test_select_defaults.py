"""The default human-validation sheet larger than the benchmark takes the whole benchmark without a warning."""

from __future__ import annotations

import logging

import pandas as pd

from tests.stages.test_select import run_select, synthetic


def test_human_sheet_larger_than_the_benchmark_is_not_a_shortfall(tmp_path, caplog):
    path = synthetic(tmp_path, lambda k: ["PASS"] * 4, generators=("gpt",), per_cell=1)
    with caplog.at_level(logging.INFO):
        run_select(tmp_path, path, per_stratum=1, per_generator=18, human=180)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(pd.read_csv(tmp_path / "run" / "human_validation.csv")) == 18
