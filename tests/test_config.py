"""Every config option and experiment preset composes and validates; bad values fail early and clearly."""

from __future__ import annotations

import json
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
    ("generators", "openai_compatible"): [
        "generators.models.local.name=m",
        "generators.models.local.api_base=http://127.0.0.1:1/v1",
    ],
    ("verifiers", "openai_compatible"): [
        "verifiers.models.local.name=m",
        "verifiers.models.local.api_base=http://127.0.0.1:1/v1",
    ],
    ("judge", "openai_compatible"): ["judge.model.name=m", "judge.model.api_base=http://127.0.0.1:1/v1"],
    ("experiment", "paper_nq"): ["dataset.path=/tmp/x.jsonl"],
    ("experiment", "generate_openai_compatible"): [
        "generators.models.local.name=m",
        "generators.models.local.api_base=http://127.0.0.1:1/v1",
    ],
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
    cfg = validate(
        compose_cfg(["model=openai_compatible", "model.name=my-model", "model.api_base=http://127.0.0.1:9/v1"])
    )
    assert cfg.model.name == "my-model" and cfg.model.api_base == "http://127.0.0.1:9/v1" and cfg.model.id == "my-model"


# Every named config mistake stops at composition (choices, types, unknown keys) or at validation (values,
# combinations): both happen in the entry point before tracking starts or any model is called.
COMPOSE_MISTAKES = {
    "cache.mode=sometimes": "cache.mode",
    "model.backend=telepathy": "backend",
    "verifiers.consensus=unanimus": "consensus",
    "generators.lever_assignment=random": "lever_assignment",
    "evaluate.prompt_variant=cot": "prompt_variant",
    "judge.kind=oracle": "kind",
    "reasoning.effort=extreme": "effort",
    "dataset.kind=squad": "kind",
    "pipeline.stages=[evaluate,teleport]": "stages",
    "model.max_concurrency=lots": "max_concurrency",
    "model.nonexistent_key=1": "nonexistent_key",
}
VALIDATE_MISTAKES = {
    ("score.n_resamples=-1",): "score.n_resamples",
    ("score.confidence_level=1.5",): "score.confidence_level",
    ("select.per_generator=0",): "select.per_generator",
    ("select.per_stratum=-2",): "select.per_stratum",
    ("evaluate.replicates=0",): "evaluate.replicates",
    ("evaluate.limit=0",): "evaluate.limit",
    ("generate.max_parse_retries=-1",): "max_parse_retries",
    ("generators.lever_assignment=fixed",): "fixed_lever",
    ("judge.f1_threshold=2",): "f1_threshold",
    ("judge=claude_sonnet_4", "judge.correct_score=7"): "correct_score",
    ("reasoning.budget_tokens=-5",): "budget_tokens",
    ("model.top_p=0",): "top_p",
    ("dataset=nq_multi", "dataset.path=x.jsonl", "dataset.passages_per_question=1"): "passages_per_question",
    ("verifiers=structural", "verifiers.models.structural.backend=programmatic"): "programmatic",
    ("generators.models.programmatic.backend=structural",): "structural",
    ("pipeline=generate", "~generators.models.programmatic"): "generators panel has no models",
    ("reasoning=budget_1024", "model.reasoning.budget_tokens=4096"): "disagree",
}


@pytest.mark.parametrize("override,key", COMPOSE_MISTAKES.items(), ids=list(COMPOSE_MISTAKES))
def test_wrong_choice_type_or_key_fails_at_compose_naming_the_key(override, key):
    with pytest.raises(HydraCompositionError, match=key):
        compose_cfg([override])


@pytest.mark.parametrize("overrides,key", VALIDATE_MISTAKES.items(), ids=[" ".join(o) for o in VALIDATE_MISTAKES])
def test_invalid_value_fails_at_validation_naming_the_key(overrides, key):
    with pytest.raises(UserError, match=key):
        validate(compose_cfg(list(overrides)))


def test_model_reasoning_is_the_run_reasoning():
    cfg = validate(compose_cfg(["model.reasoning.budget_tokens=2048"]))
    assert cfg.reasoning.budget_tokens == 2048 and cfg.model.reasoning.budget_tokens == 2048
    cfg = validate(compose_cfg(["reasoning=budget_1024"]))
    assert cfg.model.reasoning.budget_tokens == 1024


def test_missing_required_value_names_the_key():
    with pytest.raises(UserError, match="model.api_base"):
        validate(compose_cfg(["model=openai_compatible", "model.name=m"]))


@pytest.mark.integration
def test_cli_stops_config_mistakes_before_any_stage(tmp_path):
    """One process per mistake kind: a bad value and a bad choice, each exit 2 with one paragraph."""
    for override, status in (("score.n_resamples=-1", 2), ("verifiers.consensus=unanimus", 2)):
        proc = subprocess.run(
            [sys.executable, "-m", "refusalbench", override, f"hydra.run.dir={tmp_path / 'run'}"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
        )
        assert proc.returncode == status, proc.stderr
        assert override.split("=")[0].split(".")[-1] in proc.stderr and "Traceback" not in proc.stderr
        assert not (tmp_path / "run" / "base.parquet").exists() and not (tmp_path / "mlflow.db").exists()


@pytest.mark.integration
def test_cli_dry_run_of_evaluate_runs_no_stage(tmp_path):
    bench = tmp_path / "bench.jsonl"
    bench.write_text(
        json.dumps(
            {
                "id": "i1",
                "perturbed_query": "q?",
                "perturbed_context": "c.",
                "original_answers": ["a"],
                "expected_rag_behavior": "ANSWER_CORRECTLY",
            }
        )
        + "\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "refusalbench",
            "pipeline=evaluate",
            f"evaluate.benchmark={bench}",
            "run.dry_run=true",
            f"hydra.run.dir={tmp_path / 'run'}",
            f"cache.dir={tmp_path / 'cache'}",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "dry run" in proc.stdout and "evaluation" in proc.stdout
    written = {p.name for p in (tmp_path / "run").iterdir()}
    assert "estimate.json" in written and not written & {"outputs.parquet", "labels.parquet", "metrics.json", "report"}
    assert not (tmp_path / "mlflow.db").exists()


def test_dataset_needing_a_path_says_so():
    with pytest.raises(UserError, match="dataset.path"):
        validate(compose_cfg(["dataset=nq"]))


def test_a_plus_override_cannot_add_an_unknown_key():
    with pytest.raises(UserError, match="select.per_stratun"):
        validate(compose_cfg(["+select.per_stratun=5"]))
    with pytest.raises(UserError, match="model.reasoning.foo"):
        validate(compose_cfg(["+model.reasoning.foo=1"]))
