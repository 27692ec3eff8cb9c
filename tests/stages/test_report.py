"""The report stage: the run's own metrics, or every job of a sweep."""

from __future__ import annotations

import pytest

from refusalbench.errors import UserError
from refusalbench.stages import report, score
from tests.support.scoring import labels_table, make_ctx


def test_report_of_the_run(tmp_path):
    ctx = make_ctx(tmp_path)
    ctx.write_table("labels", labels_table())
    score.run(ctx)
    report.run(ctx)
    out = ctx.run_dir / "report"
    assert ctx.outputs["report"] == str(out / "report.md")
    assert "| gpt-4o |" in (out / "report.md").read_text()
    assert (out / "headline.csv").exists() and (out / "figures" / "confusion_gpt-4o.png").exists()


def test_report_of_a_sweep(tmp_path):
    for i, model in enumerate(("m-a", "m-b")):
        job = make_ctx(tmp_path / f"sweep/job{i}")
        job.write_table("labels", labels_table(models=(model,)))
        score.run(job)
    ctx = make_ctx(tmp_path / "collector")
    ctx.cfg.report.sweep_dir = str(tmp_path / "sweep")
    report.run(ctx)
    text = (ctx.run_dir / "report" / "report.md").read_text()
    assert "2 run(s)" in text and "| m-a |" in text and "| m-b |" in text
    assert (ctx.run_dir / "report" / "paired_differences.csv").exists()


def test_report_without_metrics(tmp_path):
    with pytest.raises(UserError, match="score stage"):
        report.run(make_ctx(tmp_path))
    ctx = make_ctx(tmp_path)
    ctx.cfg.report.sweep_dir = str(tmp_path / "empty")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="metrics.json"):
        report.run(ctx)


def test_a_rerun_copies_the_figures_from_the_cache_and_cache_off_draws_them(tmp_path, monkeypatch):
    from refusalbench.report import plots

    ctx = make_ctx(tmp_path)
    ctx.write_table("labels", labels_table())
    score.run(ctx)
    report.run(ctx)
    stored = sorted((tmp_path / "cache" / "figures").iterdir())
    assert stored
    drawn = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(path) or path)
    report.run(ctx)
    assert drawn == []
    ctx.cfg.cache.mode = "off"
    report.run(ctx)
    assert len(drawn) == len(stored)
