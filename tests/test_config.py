"""Every config option and experiment preset composes and validates; bad values fail early and clearly."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException as HydraCompositionError

from refusalbench.cli import validate
from refusalbench.config import RefusalBenchConfig, register_configs
from refusalbench.errors import UserError
from refusalbench.paths import CONF_DIR

register_configs()

GROUPS = ["dataset", "generators", "verifiers", "model", "judge", "reasoning", "pipeline", "tracking", "cache"]
# options whose required values (???) must be supplied on the command line
REQUIRED = {
    ("dataset", "nq"): ["dataset.path=/tmp/x.jsonl"],
    ("model", "openai_compatible"): ["model.name=m", "model.api_base=http://127.0.0.1:1/v1"],
    ("model", "vllm_served"): ["model.name=hosted_vllm/m"],
    ("model", "vllm_managed"): ["model.name=Qwen/Qwen2.5-0.5B-Instruct"],
    ("model", "local_gguf"): ["model.path=/tmp/m.gguf"],
    ("generators", "openai_compatible"): ["generators.models.local.name=m", "generators.models.local.api_base=http://127.0.0.1:1/v1"],
    ("verifiers", "openai_compatible"): ["verifiers.models.local.name=m", "verifiers.models.local.api_base=http://127.0.0.1:1/v1"],
    ("judge", "openai_compatible"): ["judge.model.name=m", "judge.model.api_base=http://127.0.0.1:1/v1"],
    ("experiment", "paper_nq"): ["dataset.path=/tmp/x.jsonl"],
    ("experiment", "generate_openai_compatible"): ["generators.models.local.name=m",
                                                   "generators.models.local.api_base=http://127.0.0.1:1/v1"],
}


def options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))


def compose_cfg(overrides: list[str]):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=overrides)


CASES = [(g, o) for g in GROUPS + ["experiment"] for o in options(g)]


@pytest.mark.parametrize("group,option", CASES, ids=[f"{g}={o}" for g, o in CASES])
def test_every_option_composes_and_validates(group, option):
    cfg = compose_cfg([f"{group}={option}", *REQUIRED.get((group, option), [])])
    assert isinstance(validate(cfg), RefusalBenchConfig)


def test_default_is_the_offline_embedded_run():
    cfg = validate(compose_cfg([]))
    assert cfg.model.backend == "embedded"
    assert [m.backend for m in cfg.generators.models.values()] == ["programmatic"]
    assert cfg.judge.kind == "deterministic"
    assert cfg.pipeline.stages == ["generate", "check", "verify", "select", "evaluate", "judge", "score", "report"]
    assert cfg.tracking.uri == "sqlite:///mlflow.db"


def test_paper_panels_hold_four_models():
    cfg = validate(compose_cfg(["experiment=paper_nq", "dataset.path=/tmp/x.jsonl"]))
    assert sorted(cfg.generators.models) == ["claude", "deepseek", "gpt", "nova"]
    assert sorted(cfg.verifiers.models) == ["claude", "deepseek", "gpt", "nova"]
    assert cfg.select.per_stratum == 22 and cfg.select.per_generator == 400


def test_openai_compatible_contract():
    cfg = validate(compose_cfg(["model=openai_compatible", "model.name=my-model", "model.api_base=http://127.0.0.1:9/v1"]))
    assert cfg.model.name == "my-model" and cfg.model.api_base == "http://127.0.0.1:9/v1" and cfg.model.id == "my-model"


def test_unknown_key_fails_at_compose():
    with pytest.raises(HydraCompositionError, match="nonexistent_key"):
        compose_cfg(["model.nonexistent_key=1"])


def test_wrong_type_fails_at_compose():
    with pytest.raises(Exception, match="max_concurrency"):
        compose_cfg(["model.max_concurrency=lots"])


def test_invalid_value_fails_at_validation_naming_the_key():
    with pytest.raises(UserError, match="cache.mode"):
        validate(compose_cfg(["cache.mode=sometimes"]))
    with pytest.raises(UserError, match="backend"):
        validate(compose_cfg(["model.backend=telepathy"]))


def test_missing_required_value_names_the_key():
    with pytest.raises(UserError, match="model.api_base"):
        validate(compose_cfg(["model=openai_compatible", "model.name=m"]))


def test_unknown_stage_is_rejected():
    with pytest.raises(UserError, match="teleport"):
        validate(compose_cfg(["pipeline.stages=[evaluate,teleport]"]))


def test_cli_reports_user_errors_without_traceback(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "refusalbench", "cache.mode=sometimes", f"hydra.run.dir={tmp_path}"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 2
    assert "cache.mode" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_dataset_needing_a_path_says_so():
    with pytest.raises(UserError, match="dataset.path"):
        validate(compose_cfg(["dataset=nq"]))


def test_a_plus_override_cannot_add_an_unknown_key():
    with pytest.raises(UserError, match="select.per_stratun"):
        validate(compose_cfg(["+select.per_stratun=5"]))
    with pytest.raises(UserError, match="model.reasoning.foo"):
        validate(compose_cfg(["+model.reasoning.foo=1"]))


def test_judge_values_are_range_checked():
    with pytest.raises(UserError, match="f1_threshold"):
        validate(compose_cfg(["judge.f1_threshold=2"]))
    with pytest.raises(UserError, match="correct_score"):
        validate(compose_cfg(["judge=claude_sonnet_4", "judge.correct_score=7"]))
