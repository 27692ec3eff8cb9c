"""RQ3 report views: model-scale series, alignment-stage groups and the per-domain breakdown."""

from __future__ import annotations

import pandas as pd
import pytest

from refusalbench.report import build_report
from refusalbench.report.rq3 import parse_size, parse_stage
from refusalbench.stages import report, score
from tests.report.rb_report_helpers import runs
from tests.support.scoring import labels_table, make_ctx, written_model_metrics

QWEN = ("Qwen2.5-0.5B-Instruct", "Qwen2.5-7B-Instruct", "Qwen2.5-14B-Instruct")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "model, size, family",
    [
        ("Qwen2.5-0.5B-Instruct", 0.5, "Qwen2.5-Instruct"),
        ("llama-3.1-70b", 70.0, "llama-3.1"),
        ("Qwen3-30B-A3B", 30.0, "Qwen3-A3B"),
        ("gpt-4o", None, None),
    ],
)
def test_parse_size(model, size, family):
    parsed = parse_size(model)
    assert (parsed is None) if size is None else parsed == (size, family)


def test_parse_stage():
    assert parse_stage("allenai/OLMo-2-1124-7B-DPO") == ("DPO", "allenai/OLMo-2-1124-7B")
    assert parse_stage("Llama-3.1-8B") == ("base", "Llama-3.1-8B")
    assert parse_stage("m_sft") == ("sft", "m")


def test_model_scale_table_and_plot(tmp_path):
    text = build_report(runs(models=QWEN), tmp_path).read_text()
    scale = pd.read_csv(tmp_path / "model_scale.csv")
    assert list(scale["params_b"]) == [0.5, 7.0, 14.0] and set(scale["family"]) == {"Qwen2.5-Instruct"}
    assert scale["calibrated_refusal_score_ci_low"].notna().all()
    assert "## Model scale" in text and "figures/model_scale.png" in text
    assert (tmp_path / "figures" / "model_scale.png").read_bytes()[:8] == PNG
    head = pd.read_csv(tmp_path / "headline.csv").set_index("model")
    assert head.loc["Qwen2.5-14B-Instruct", "params_b"] == 14.0
    assert "Alignment stages" not in text and "Breakdown by domain" not in text


def test_alignment_pair_with_paired_differences(tmp_path):
    data = runs(models=("OLMo-2-1124-7B-SFT", "OLMo-2-1124-7B-DPO"))
    text = build_report(data, tmp_path).read_text()
    groups = pd.read_csv(tmp_path / "alignment_stages.csv")
    assert list(groups["stage"]) == ["SFT", "DPO"] and set(groups["group"]) == {"OLMo-2-1124-7B"}
    diffs = pd.read_csv(tmp_path / "alignment_differences.csv")
    assert set(diffs["reference"]) == {"OLMo-2-1124-7B-SFT"} and set(diffs["run"]) == {"OLMo-2-1124-7B-DPO"}
    ra = diffs.set_index("metric").loc["refusal_accuracy", "difference"]
    expected = (
        data["OLMo-2-1124-7B-DPO"]["refusal_accuracy"]["value"]
        - data["OLMo-2-1124-7B-SFT"]["refusal_accuracy"]["value"]
    )
    assert ra == pytest.approx(expected)
    assert "## Alignment stages" in text and (tmp_path / "figures" / "alignment_stages.png").read_bytes()[:8] == PNG
    assert "Model scale" not in text  # one size per family is no series
    # without cluster sums: the pair, but no paired differences
    for m in data.values():
        m.pop("cluster_sums")
    build_report(data, tmp_path / "bare")
    assert (tmp_path / "bare" / "alignment_stages.csv").exists() and not (
        tmp_path / "bare" / "alignment_differences.csv"
    ).exists()


def test_no_rq3_sections_without_their_data(tmp_path):
    text = build_report(runs(models=("claude-sonnet-4",) * 3, budgets=(0, 1024, 4096)), tmp_path).read_text()
    for title in ("Model scale", "Alignment stages", "Breakdown by domain"):
        assert title not in text
    assert "params_b" not in pd.read_csv(tmp_path / "headline.csv").columns


def test_domain_breakdown_from_the_score_stage(tmp_path):
    ctx = make_ctx(tmp_path)
    labels = labels_table()
    labels["domain"] = ["Science", "Health", "Finance"] * (len(labels) // 3)
    ctx.write_table("labels", labels)
    score.run(ctx)
    by_domain = written_model_metrics(ctx.run_dir / "metrics.json")["breakdowns"]["domain"]
    assert set(by_domain) == {"Science", "Health", "Finance"} and by_domain["Health"]["n"] == 24
    assert by_domain["Health"]["refusal_accuracy"]["value"] is not None
    report.run(ctx)
    out = ctx.run_dir / "report"
    table = pd.read_csv(out / "domain_breakdown.csv")
    assert set(table["domain"]) == {"Science", "Health", "Finance"} and set(table["run"]) == {"gpt-4o"}
    assert table.set_index("domain").loc["Health", "refusal_accuracy"] == pytest.approx(
        by_domain["Health"]["refusal_accuracy"]["value"]
    )
    text = (out / "report.md").read_text()
    assert "## Breakdown by domain" in text
    for metric in ("refusal_accuracy", "answer_accuracy"):
        assert (out / "figures" / f"domain_{metric}.png").read_bytes()[
            :8
        ] == PNG and f"figures/domain_{metric}.png" in text
