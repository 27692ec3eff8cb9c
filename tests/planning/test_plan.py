"""The dry run is a plan: it estimates calls, tokens and cost from the run's inputs, runs no stage, calls nothing."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from refusalbench.cli import validate
from refusalbench.config import ModelConfig, register_configs
from refusalbench.errors import UserError
from refusalbench.paths import CONF_DIR
from refusalbench.planning import format_table, measure, plan_run
from refusalbench.stages import check, generate
from tests.support.generation import (
    ScriptedLayer,
    context_with,
    generator_reply,
    landmarks_nq_file,
    make_cfg,
    single_base,
    write_base,
)

register_configs()


def _compose(overrides):
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return validate(compose(config_name="config", overrides=overrides))


@pytest.fixture
def small_sample(monkeypatch):
    monkeypatch.setattr(measure, "SAMPLE", 3)


def test_paper_nq_dry_run_counts(tmp_path, small_sample):
    cfg = _compose(
        [
            "experiment=paper_nq",
            f"dataset.path={landmarks_nq_file(tmp_path)}",
            "run.dry_run=true",
            f"cache.dir={tmp_path / 'cache'}",
        ]
    )
    report, path = plan_run(cfg, tmp_path / "run")
    assert report["calls"]["generation"] == 7200 and report["calls"]["verification"] == 28800
    assert report["calls"]["evaluation"] == 1600 and report["calls"]["judge"] == 1600 and report["base_items"] == 100
    claude = report["stages"]["generation"]["claude"]
    assert claude["calls"] == 1800 and claude["input_tokens"] > 1800 * 500 and claude["cost_usd"] > 0
    assert json.loads(path.read_text())["calls"] == report["calls"] and path == tmp_path / "run" / "estimate.json"
    table = format_table(report)
    assert "generation" in table and "7,200" in table and "28,800" in table
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["estimate.json"]  # no stage table, no usage.json


def test_dry_run_of_verify_counts_the_checked_candidates(tmp_path, small_sample):
    gen = {"gpt": ModelConfig(name="openai/gpt-test", id="gpt-test")}
    ver = {
        "gpt": ModelConfig(name="openai/gpt-test", id="gpt-test"),
        "s": ModelConfig(name="structural", backend="structural"),
    }
    cfg = make_cfg(tmp_path, gen, ver, source=write_base(tmp_path, single_base()))
    layer = ScriptedLayer(lambda m, c: generator_reply(m[0]["content"]))
    ctx = context_with(cfg, tmp_path / "run", layer)
    generate.run(ctx)
    check.run(ctx)
    n_checked = int(ctx.read_table("checked")["check_ok"].sum())
    cfg.pipeline.stages = ["verify"]
    report, _ = plan_run(cfg, tmp_path / "run")
    assert report["calls"] == {"verification": n_checked}
    assert report["stages"]["verification"]["s"]["calls"] == 0
    assert not (tmp_path / "run" / "votes.parquet").exists()


def _benchmark_file(tmp_path, n=12):
    rows = [
        {
            "id": f"i{k}",
            "perturbed_query": f"who built landmark {k}?",
            "perturbed_context": f"Landmark {k} ...",
            "original_answers": [f"Builder {k}"],
            "expected_rag_behavior": "ANSWER_CORRECTLY",
        }
        for k in range(n)
    ]
    path = tmp_path / "bench.parquet"
    pd.DataFrame(rows).to_parquet(path)
    return path


def test_evaluate_dry_run_stops_before_judge_and_score(tmp_path, small_sample):
    cfg = _compose(
        [
            "pipeline=evaluate",
            f"evaluate.benchmark={_benchmark_file(tmp_path)}",
            "evaluate.replicates=2",
            "judge=claude_sonnet_4",
            "model=gpt_4o",
            "run.dry_run=true",
            f"cache.dir={tmp_path / 'cache'}",
        ]
    )
    report, _ = plan_run(cfg, tmp_path / "run")
    assert report["calls"] == {"evaluation": 24, "judge": 24}
    assert report["stages"]["evaluation"]["gpt-4o"]["input_tokens"] > 0
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["estimate.json"]


def test_judge_dry_run_needs_stored_outputs(tmp_path):
    cfg = _compose(["pipeline.stages=[judge,score]", "judge=claude_sonnet_4", "run.dry_run=true"])
    with pytest.raises(UserError, match="outputs.parquet"):
        plan_run(cfg, tmp_path / "run")
