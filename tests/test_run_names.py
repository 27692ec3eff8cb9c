"""A tracked run is named after what it is about, not after a model it never calls."""

from __future__ import annotations

from hydra import compose, initialize_config_dir

from refusalbench.cli import run_subject, sweep_job_name, validate
from refusalbench.config import register_configs
from refusalbench.paths import CONF_DIR

register_configs()


def subject(overrides):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return run_subject(validate(compose("config", overrides=overrides)))


def test_runs_are_named_after_the_model_the_file_or_the_stages():
    assert subject([]) == ("local-qwen2.5-0.5b", None)
    assert subject(["pipeline=score", "score.predictions=/data/other_tool.csv"]) == ("score other_tool.csv", None)
    assert subject(["pipeline=generate"]) == ("generate+check+verify+select (nq_sample.jsonl)", None)
    assert subject(["model=claude_sonnet_4", "reasoning=budget_1024"]) == ("claude-sonnet-4", 1024)


def test_a_swept_predictions_file_is_named_once():
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        overrides = ["pipeline=score", "score.predictions=/data/a.csv", "seed=3"]
        cfg = validate(compose("config", overrides=overrides))
    name = sweep_job_name(cfg, overrides, ["score.predictions", "seed"])
    assert name == "score a.csv, seed=3"
