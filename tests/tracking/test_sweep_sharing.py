"""Two different sweeps under one name share a directory, a report and a parent run: the second says so."""

from __future__ import annotations

import json
import logging

from refusalbench.tracking.callback import _warn_if_another_sweep
from refusalbench.tracking.mlflow_run import SWEEP_FILE


def _warnings(tmp_path, before, now, caplog):
    (tmp_path / SWEEP_FILE).write_text(json.dumps({"parent_run_id": "x", "overrides": before}))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        _warn_if_another_sweep(tmp_path, now)
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_another_study_in_the_same_sweep_directory_is_warned_about(tmp_path, caplog):
    found = _warnings(tmp_path, ["pipeline=score", "score.predictions=a.csv,b.csv"], ["model=x,y"], caplog)
    assert len(found) == 1 and "own name=NAME" in found[0] and "score.predictions=a.csv,b.csv" in found[0]
    assert _warnings(tmp_path, ["model=x,y", "seed=1"], ["model=x,y", "seed=2"], caplog)


def test_rerunning_or_growing_a_sweep_is_not_warned_about(tmp_path, caplog):
    assert not _warnings(tmp_path, ["model=a", "seed=1"], ["model=a,b", "seed=1"], caplog)
    assert not _warnings(tmp_path, ["model=a,b"], ["model=a,b"], caplog)
    (tmp_path / SWEEP_FILE).unlink()
    with caplog.at_level(logging.WARNING):
        _warn_if_another_sweep(tmp_path, ["model=a"])  # a first sweep: nothing to compare with
    assert not caplog.records
