"""A report a researcher reads without the source: glossary, code table, readable heat maps and intervals,
one name per number, and a warning when many responses were relabelled truncated or unscored."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.report import build_report, plots, tables
from refusalbench.report.build import relabel_warnings
from refusalbench.report.notes import run_notes
from refusalbench.taxonomy import CLASS_TO_CODE
from tests.report.rb_report_helpers import runs


@pytest.fixture
def captured(monkeypatch):
    """Figures drawn by the plots module, kept open for inspection."""
    figures = []

    def keep(fig, path):
        figures.append(fig)
        return path

    monkeypatch.setattr(plots, "_save", keep)
    return figures


def test_report_has_a_glossary_and_the_class_code_table(tmp_path):
    text = build_report(runs(models=("gpt-4o",)), tmp_path / "report").read_text()
    glossary = text.split("## Glossary", 1)[1]
    for short in ("CRS", "FRR", "MRR", "HRS", "detection F1", "category acc."):
        assert f"| {short} |" in glossary
    for cls, code in CLASS_TO_CODE.items():
        assert f"| {cls} | `{code}` |" in glossary


def test_one_number_has_one_name(tmp_path):
    out = build_report(runs(), tmp_path / "report").parent
    head = pd.read_csv(out / "headline.csv")
    assert "detection_recall" in head.columns
    assert not [c for c in head.columns if c.startswith("overall_refusal_rate")]


def test_heat_map_separates_false_refusals_with_colour_bars_and_n(captured, tmp_path):
    metrics = runs(models=("gpt-4o",))
    frame = tables.class_intensity(metrics)["gpt-4o"]
    counts = tables.class_intensity(metrics, field="n")["gpt-4o"]
    plots.heatmap(frame, tmp_path / "h.png", "title", counts=counts)
    fig = captured[0]
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert len(panels) == 2 and len(fig.axes) == 4  # two panels, each with its own colour bar
    assert "false-refusal" in panels[0].get_title() and [t.get_text() for t in panels[0].get_xticklabels()] == ["LOW"]
    assert "LOW" not in [t.get_text() for t in panels[1].get_xticklabels()]
    assert all("n=" in t.get_text() for ax in panels for t in ax.texts)


def test_confusion_matrix_uses_the_codes_of_logs_and_tables(captured, tmp_path):
    matrix = runs(models=("gpt-4o",))["gpt-4o"]["confusion_matrix"]
    plots.confusion(matrix, tmp_path / "c.png", "confusion")
    labels = [t.get_text() for t in captured[0].axes[0].get_xticklabels()]
    assert "REFUSE_INFO_MISSING_IN_CONTEXT" in labels and not [t for t in labels if t.startswith("R_")]
    assert len(captured[0].axes) == 2  # with a colour bar


def test_interval_ending_at_one_keeps_its_cap_inside_the_axes(captured, tmp_path):
    head = pd.DataFrame(
        {"run": ["a"], "refusal_accuracy": [0.97], "refusal_accuracy_ci_low": [0.9], "refusal_accuracy_ci_high": [1.0]}
    )
    plots.ranking(head, tmp_path / "r.png")
    assert captured[0].axes[0].get_xlim()[1] > 1.0
    assert plots._err([1.0], [0.9], [0.98]).min() >= 0  # an interval below its point is never a negative length


def test_many_truncated_responses_are_warned_about():
    head = pd.DataFrame({"run": ["conf", "plain"], "n": [90, 90], "truncated": [18, 1], "unscored": [0, 0]})
    lines = relabel_warnings(head)
    assert len([line for line in lines if line]) == 1 and "18 of 90" in lines[0] and "confidence" in lines[0]


def _one_code_metrics() -> dict:
    """A model that answers every refusal with REFUSE_AMBIGUOUS_QUERY on a benchmark without Ambiguity items."""
    codes = list(CLASS_TO_CODE.values())
    rows = ["ANSWER_CORRECTLY", *codes]
    columns = ["answer_attempt", *codes, "REFUSE_OTHER", "truncated", "unscored"]
    counts = [[0] * len(columns) for _ in rows]
    counts[0][0], counts[0][1] = 8, 32  # answerable: 8 answered, 32 refused as ambiguous
    counts[rows.index(CLASS_TO_CODE["P-MissingInfo"])][1] = 39
    counts[rows.index(CLASS_TO_CODE["P-MissingInfo"])][0] = 11
    return {
        "confusion_matrix": {"rows": rows, "columns": columns, "counts": counts},
        "refusal_accuracy": {"value": 0.0, "n": 50},
        "detection_recall": {"value": 0.78, "n": 50},
    }


def test_a_zero_refusal_accuracy_is_explained_in_words():
    notes = run_notes("tiny", _one_code_metrics())
    assert len(notes) == 3
    assert "refused 39 of its 50 unanswerable items" in notes[0] and "never with the item's own code" in notes[0]
    assert "All 71 of tiny's refusals are the one code `REFUSE_AMBIGUOUS_QUERY`" in notes[1]
    assert "no P-Ambiguity item" in notes[2]


def test_a_model_that_names_varied_reasons_gets_no_notes(tmp_path):
    metrics = _one_code_metrics()
    counts, rows = metrics["confusion_matrix"]["counts"], metrics["confusion_matrix"]["rows"]
    missing, contradiction = rows.index(CLASS_TO_CODE["P-MissingInfo"]), rows.index(CLASS_TO_CODE["P-Contradiction"])
    counts[0][1] = 0  # no false refusals with the ambiguous code
    counts[missing][1], counts[missing][3] = 0, 20  # refusals name the item's own code
    counts[contradiction][2] = 19
    metrics["refusal_accuracy"]["value"] = 0.78
    assert run_notes("good", metrics) == []


def test_unscored_warning_names_unknown_labels_as_the_cause():
    head = pd.DataFrame({"run": ["file"], "n": [12], "truncated": [0], "unscored": [3]})
    lines = relabel_warnings(head, {"file": {"counts": {"unrecognised_labels": 3}}})
    assert "3 predicted label(s) that are not labels" in lines[0] and "judge_reason" not in lines[0]
