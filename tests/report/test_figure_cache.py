"""Figures drawn once per content: a rerun with the same metrics copies them, a change draws anew."""

from __future__ import annotations

import pytest

from refusalbench.report import build_report, plots, tables
from refusalbench.report.figure_cache import use_figure_cache
from tests.report.rb_report_helpers import runs


@pytest.fixture
def drawn(monkeypatch):
    """Names of the figures actually drawn (saved through matplotlib)."""
    names = []
    save = plots._save

    def counting(fig, path):
        names.append(path.name)
        return save(fig, path)

    monkeypatch.setattr(plots, "_save", counting)
    return names


def figures(report_md):
    return {p.name: p.read_bytes() for p in (report_md.parent / "figures").iterdir()}


def test_a_rerun_copies_every_figure_with_the_same_bytes(tmp_path, drawn):
    metrics = runs(models=("gpt-4o", "claude"))
    plain = figures(build_report(metrics, tmp_path / "plain"))
    count = len(drawn)
    with use_figure_cache(tmp_path / "cache"):
        first = figures(build_report(metrics, tmp_path / "first"))
        assert len(drawn) == 2 * count
        second = figures(build_report(metrics, tmp_path / "second"))
    assert len(drawn) == 2 * count  # nothing drawn the second time
    assert plain == first == second
    assert len(list((tmp_path / "cache").iterdir())) == count


def test_changed_inputs_draw_anew(tmp_path, drawn):
    frame = tables.class_intensity(runs(models=("gpt-4o",)))["gpt-4o"]
    with use_figure_cache(tmp_path / "cache"):
        plots.heatmap(frame, tmp_path / "a.png", "title")
        plots.heatmap(frame, tmp_path / "b.png", "another title")
        changed = frame.copy()
        changed.iloc[0, 0] = 0.123
        plots.heatmap(changed, tmp_path / "c.png", "title")
        plots.heatmap(frame, tmp_path / "d.png", "title")
    assert drawn == ["a.png", "b.png", "c.png"]
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "d.png").read_bytes()


def test_read_only_stores_nothing_and_write_only_reads_nothing(tmp_path, drawn):
    frame = tables.class_intensity(runs(models=("gpt-4o",)))["gpt-4o"]
    with use_figure_cache(tmp_path / "cache", read=True, write=False):
        plots.heatmap(frame, tmp_path / "a.png", "title")
    assert not (tmp_path / "cache").exists()
    with use_figure_cache(tmp_path / "cache", read=False, write=True):
        plots.heatmap(frame, tmp_path / "b.png", "title")
        plots.heatmap(frame, tmp_path / "c.png", "title")
    assert drawn == ["a.png", "b.png", "c.png"]
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_without_the_cache_every_figure_is_drawn(tmp_path, drawn):
    frame = tables.class_intensity(runs(models=("gpt-4o",)))["gpt-4o"]
    plots.heatmap(frame, tmp_path / "a.png", "title")
    plots.heatmap(frame, tmp_path / "b.png", "title")
    assert drawn == ["a.png", "b.png"]
