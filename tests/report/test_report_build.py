"""build_report: Markdown + CSV + PNG from metrics objects; paired differences; the paper comparison."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.metrics.io import save_metrics
from refusalbench.metrics.models import combine
from refusalbench.report import build_report, collect_sweep, expand
from tests.report.rb_report_helpers import runs


def test_report_writes_markdown_tables_and_figures(tmp_path):
    report = build_report(runs(confidence=True), tmp_path / "report")
    out = report.parent
    text = report.read_text()
    assert report.name == "report.md" and text.startswith("# RefusalBench report")
    for name in (
        "headline.csv",
        "paired_differences.csv",
        "refusal_rate_by_intensity.csv",
        "breakdowns.csv",
        "response_distribution.csv",
        "calibration.csv",
        "paper_comparison.csv",
    ):
        assert (out / name).exists(), name
    figures = {p.name for p in (out / "figures").glob("*.png")}
    for name in (
        "refusal_accuracy_ranking.png",
        "calibrated_refusal_dashboard.png",
        "detection_vs_categorisation.png",
        "refusal_rate_by_intensity.png",
        "confusion_gpt-4o.png",
        "class_intensity_gpt-4o.png",
        "reliability_gpt-4o.png",
    ):
        assert name in figures, name
    for png in (out / "figures").glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"figures/{png.name}" in text
    head = pd.read_csv(out / "headline.csv")
    assert head["refusal_accuracy"].is_monotonic_decreasing
    paired = pd.read_csv(out / "paired_differences.csv")
    assert set(paired["reference"]) == {head["run"].iloc[0]}
    assert "Scoring convention and the rule for truncated, unscored and ERROR responses" in text


def test_paper_numbers_beside_ours(tmp_path):
    data = runs()
    report = build_report(data, tmp_path)
    comparison = pd.read_csv(tmp_path / "paper_comparison.csv")
    claude = comparison[comparison["run"] == "claude-sonnet-4"].set_index("paper_metric")
    assert claude.loc["refusal_accuracy", "paper"] == 0.73
    assert claude.loc["refusal_accuracy", "ours"] == pytest.approx(data["claude-sonnet-4"]["refusal_accuracy"]["value"])
    assert "REFUSE_GRANULARITY_accuracy" in claude.index
    gpt = comparison[comparison["run"] == "gpt-4o"].set_index("paper_metric")
    assert gpt.loc["missed_refusal_rate", "paper"] == 0.043
    assert "Beside the paper's reported numbers" in report.read_text()
    # another benchmark: no NQ rows
    build_report(runs(benchmark="GaRAGe"), tmp_path / "g")
    garage = pd.read_csv(tmp_path / "g" / "paper_comparison.csv")
    assert set(garage["paper_model"]) <= {"Claude-4-Sonnet", "GPT-4o"} and "answer_accuracy" not in set(
        garage["paper_metric"]
    )
    # switched off
    build_report(runs(), tmp_path / "off", paper_numbers=False)
    assert not (tmp_path / "off" / "paper_comparison.csv").exists()


def test_thinking_budget_curves(tmp_path):
    data = runs(models=("claude-sonnet-4",) * 3, budgets=(0, 1024, 4096))
    assert set(data) == {"claude-sonnet-4 [budget 0]", "claude-sonnet-4 [budget 1024]", "claude-sonnet-4 [budget 4096]"}
    report = build_report(data, tmp_path)
    assert (tmp_path / "figures" / "thinking_budget.png").exists()
    assert "Thinking-budget curves" in report.read_text()
    comparison = pd.read_csv(tmp_path / "paper_comparison.csv")
    # the paper's "(4096 thinking tokens)" row matches only the 4096 run; plain rows only budget 0
    assert set(comparison.loc[comparison["paper_model"].str.contains("4096"), "run"]) == {
        "claude-sonnet-4 [budget 4096]"
    }
    assert set(comparison.loc[comparison["paper_model"] == "Claude-4-Sonnet", "run"]) == {"claude-sonnet-4 [budget 0]"}


def test_single_run_and_multi_passage(tmp_path):
    data = runs(models=("m",), multi_passage=True, benchmark="GaRAGe")
    report = build_report(data, tmp_path)
    assert (tmp_path / "multi_passage.csv").exists() and "raf_eligible" in report.read_text()
    assert not (tmp_path / "paired_differences.csv").exists()


def test_expand_and_collect_sweep(tmp_path):
    data = runs(models=("a", "b"))
    assert set(expand({"job": combine(data)})) == {"a", "b"}
    assert set(expand({"j1": combine(data), "j2": data["a"]})) == {"j1: a", "j1: b", "j2"}
    save_metrics(combine({"a": data["a"]}), tmp_path / "sweep" / "job0" / "metrics.json")
    save_metrics(data["b"], tmp_path / "sweep" / "job1" / "metrics.json")  # an earlier version's one-model file
    save_metrics(combine(data), tmp_path / "sweep" / "job2" / "metrics.json")
    save_metrics(data["a"], tmp_path / "sweep" / "report" / "metrics.json")  # ignored: a report folder
    collected = collect_sweep(tmp_path / "sweep")
    assert set(collected) == {"a", "b", "job2"}
    assert set(expand(collected)) == {"a", "b", "job2: a", "job2: b"}
