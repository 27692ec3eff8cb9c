"""The score stage: labels.parquet or a predictions file → metrics.json + metrics_by_model.csv."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench.errors import UserError
from refusalbench.metrics import REQUIRED_KEYS
from refusalbench.stages import score
from tests.support.scoring import labels_table, make_ctx, written_model_metrics

PREDICTIONS_CSV = """\
model_id,unique_id,source_qid,perturbation_class,intensity,generator_model,\
ground_truth_label,model_predicted_type,answer_quality_score
a,u0,q0,P-Ambiguity,LOW,claude,ANSWER_CORRECTLY,answer_attempt,4
a,u1,q0,P-Ambiguity,MEDIUM,claude,REFUSE_AMBIGUOUS_QUERY,REFUSE_AMBIGUOUS_QUERY,
a,u2,q1,P-MissingInfo,HIGH,gpt,REFUSE_INFO_MISSING_IN_CONTEXT,answer_attempt,3
b,u0,q0,P-Ambiguity,LOW,claude,ANSWER_CORRECTLY,REFUSE_OTHER,
b,u1,q0,P-Ambiguity,MEDIUM,claude,REFUSE_AMBIGUOUS_QUERY,REFUSE_OTHER,
b,u2,q1,P-MissingInfo,HIGH,gpt,REFUSE_INFO_MISSING_IN_CONTEXT,ERROR,
"""


def test_scores_labels_of_the_run(tmp_path):
    ctx = make_ctx(tmp_path)
    ctx.write_table("labels", labels_table())
    score.run(ctx)
    doc = json.loads((ctx.run_dir / "metrics.json").read_text())
    assert doc["schema_version"] == 2 and list(doc["models"]) == ["gpt-4o"] and doc["paired_differences"] == {}
    assert doc["meta"]["reference_model"] == "gpt-4o" and doc["meta"]["benchmark"] == "NQ"
    metrics = written_model_metrics(ctx.run_dir / "metrics.json")
    for key in REQUIRED_KEYS:
        assert {"value", "ci_low", "ci_high", "n"} <= set(metrics[key])
    for key in ("breakdowns", "confusion_matrix", "response_distribution", "calibration", "counts", "meta"):
        assert key in metrics
    assert metrics["meta"]["model"] == "gpt-4o" and metrics["meta"]["benchmark"] == "NQ"
    assert metrics["meta"]["n_resamples"] == 100 and metrics["meta"]["seed"] == 42
    table = pd.read_csv(ctx.run_dir / "metrics_by_model.csv")
    assert table["model"].tolist() == ["gpt-4o"] and "refusal_accuracy_ci_low" in table
    assert ctx.outputs["metrics"].endswith("metrics.json") and ctx.outputs["metrics_by_model"].endswith(".csv")


def test_several_models_in_one_table(tmp_path):
    ctx = make_ctx(tmp_path)
    ctx.write_table("labels", labels_table(models=("m-a", "m-b", "m-c")))
    score.run(ctx)
    metrics = json.loads((ctx.run_dir / "metrics.json").read_text())
    assert metrics["schema_version"] == 2 and set(metrics["models"]) == {"m-a", "m-b", "m-c"}
    reference = metrics["meta"]["reference_model"]
    assert set(metrics["paired_differences"]) == {"m-a", "m-b", "m-c"} - {reference}
    diff = next(iter(metrics["paired_differences"].values()))["refusal_accuracy"]
    assert diff["difference"] <= 0 and diff["ci_low"] <= diff["difference"] <= diff["ci_high"]
    assert len(pd.read_csv(ctx.run_dir / "metrics_by_model.csv")) == 3


def test_reasoning_budgets_are_scored_apart(tmp_path):
    ctx = make_ctx(tmp_path)
    ctx.write_table("labels", labels_table(models=("m", "m"), budgets=(0, 1024)))
    score.run(ctx)
    metrics = json.loads((ctx.run_dir / "metrics.json").read_text())
    assert set(metrics["models"]) == {"m [budget 0]", "m [budget 1024]"}
    assert metrics["models"]["m [budget 1024]"]["meta"]["reasoning_budget"] == 1024


def test_predictions_file_with_output_path(tmp_path):
    preds = tmp_path / "preds.csv"
    preds.write_text(PREDICTIONS_CSV)
    out = tmp_path / "elsewhere" / "OUT.json"
    ctx = make_ctx(tmp_path, predictions=str(preds), output=str(out))
    score.run(ctx)
    metrics = json.loads(out.read_text())
    a, b = metrics["models"]["a"], metrics["models"]["b"]
    assert a["answer_accuracy"]["value"] == 1.0 and a["refusal_accuracy"]["value"] == 0.5
    assert b["false_refusal_rate"]["value"] == 1.0 and b["refusal_accuracy"]["value"] == 0.0
    assert b["counts"]["unscored"] == 1
    assert (tmp_path / "elsewhere" / "OUT_by_model.csv").exists()
    assert (ctx.run_dir / "metrics.json").exists()
    assert ctx.outputs["metrics"] == str(out)


def test_predictions_file_without_quality_scores(tmp_path):
    preds = tmp_path / "p.csv"
    pd.read_csv(pd.io.common.StringIO(PREDICTIONS_CSV)).query("model_id == 'a'").drop(
        columns="answer_quality_score"
    ).to_csv(preds, index=False)
    ctx = make_ctx(tmp_path, predictions=str(preds))
    score.run(ctx)
    metrics = written_model_metrics(ctx.run_dir / "metrics.json", "a")
    assert metrics["answer_accuracy"]["value"] is None and "reason" in metrics["answer_accuracy"]
    assert metrics["refusal_accuracy"]["value"] == 0.5


def test_missing_labels_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="labels"):
        score.run(make_ctx(tmp_path))


def test_missing_prediction_column_is_named(tmp_path):
    preds = tmp_path / "p.csv"
    preds.write_text(PREDICTIONS_CSV.replace("model_predicted_type", "pred"))
    with pytest.raises(UserError, match="model_predicted_type"):
        score.run(make_ctx(tmp_path, predictions=str(preds)))


def test_command_line_scores_a_predictions_file(tmp_path):
    from hydra import compose, initialize_config_dir

    from refusalbench.cli import run_pipeline, validate
    from refusalbench.paths import CONF_DIR

    preds = tmp_path / "preds.csv"
    preds.write_text(PREDICTIONS_CSV)
    out = tmp_path / "OUT.json"
    overrides = ["pipeline=score", f"score.predictions={preds}", f"score.output={out}", "score.n_resamples=50"]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = validate(compose(config_name="config", overrides=overrides))
    ctx = run_pipeline(cfg, tmp_path / "run")
    assert json.loads(out.read_text())["models"]["a"]["refusal_accuracy"]["value"] == 0.5
    assert (tmp_path / "run" / "report" / "report.md").exists()
    assert ctx.outputs["report"].endswith("report.md")
