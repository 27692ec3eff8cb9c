"""The select stage: consensus rules, stratified sampling, released schema, composition, analyses, human sheet."""

from __future__ import annotations

import json

import datasets
import pandas as pd
import pytest

from refusalbench import taxonomy
from refusalbench.config import DatasetConfig, ModelConfig
from refusalbench.stages import check, generate, select, verify
from tests.support.generation import (
    ScriptedLayer,
    context_with,
    generator_reply,
    is_verifier,
    make_cfg,
    multi_base,
    single_base,
    verifier_reply,
    write_base,
)

VER_KEYS = ("v1", "v2", "v3", "v4")


def panel(keys=VER_KEYS):
    return {k: ModelConfig(name=f"openai/{k}", id=k) for k in keys}


def synthetic(tmp_path, votes_for, generators=("gpt", "claude"), per_cell=5):
    """checked.parquet + votes.parquet in tmp_path/src; votes_for(candidate index) -> list of verdicts."""
    checked, votes, k = [], [], 0
    for g in generators:
        for cls, intensity in taxonomy.cells():
            for j in range(per_cell):
                cid = f"{g}{k:05d}"
                checked.append(
                    {
                        "candidate_id": cid,
                        "source_id": f"s{j}",
                        "perturbation_class": cls,
                        "intensity": intensity,
                        "expected_rag_behavior": taxonomy.ground_truth(cls, intensity),
                        "generator": g,
                        "generator_model_id": g,
                        "generator_model_full": f"openai/{g}",
                        "lever_selected": "L",
                        "original_query": "q?",
                        "original_context": "c.",
                        "original_answers": ["a"],
                        "perturbed_query": "q2?",
                        "perturbed_context": "c.",
                        "implementation_reasoning": "r",
                        "generation_ok": True,
                        "check_ok": True,
                        "prompt_version": "p",
                        "lever_assignment": "llm_choice",
                    }
                )
                for v, verdict in zip(VER_KEYS, votes_for(k)):
                    votes.append({"candidate_id": cid, "verifier": v, "verdict": verdict})
                k += 1
    src = tmp_path / "src"
    src.mkdir()
    pd.DataFrame(checked).to_parquet(src / "checked.parquet")
    pd.DataFrame(votes).to_parquet(src / "votes.parquet")
    return str(src / "votes.parquet")


def run_select(tmp_path, votes_path, consensus="unanimous", per_stratum=2, per_generator=40, human=0):
    cfg = make_cfg(tmp_path, {}, panel(), consensus=consensus)
    cfg.select.candidates = votes_path
    cfg.select.per_stratum, cfg.select.per_generator, cfg.select.human_sample = per_stratum, per_generator, human
    ctx = context_with(cfg, tmp_path / "run")
    select.run(ctx)
    return ctx


def test_consensus_unanimous_majority_tie(tmp_path):
    patterns = [
        ["PASS"] * 4,
        ["PASS", "PASS", "PASS", "FAIL"],
        ["PASS", "PASS", "FAIL", "FAIL"],
        ["PASS", "PASS", "PASS", "UNSCORED"],
        ["PASS", "PASS", "UNSCORED"],
    ]
    path = synthetic(tmp_path, lambda k: patterns[k % 5], generators=("gpt",), per_cell=5)
    cons = run_select(tmp_path, path, "unanimous").read_table("consensus")
    by_pattern = cons.assign(p=cons.candidate_id.str[3:].astype(int) % 5).groupby("p")
    assert by_pattern["consensus_pass"].all().tolist() == [True, False, False, False, False]
    assert by_pattern["n_valid_votes"].first().tolist() == [4, 4, 4, 3, 2]
    cons = run_select(tmp_path / "m", path, "majority").read_table("consensus")
    by_pattern = cons.assign(p=cons.candidate_id.str[3:].astype(int) % 5).groupby("p")
    # majority over ALL 4 verifiers; 2 of 4 is a tie and fails; a missing vote counts against
    assert by_pattern["consensus_pass"].all().tolist() == [True, True, False, True, False]


def test_stratified_counts(tmp_path):
    path = synthetic(tmp_path, lambda k: ["PASS"] * 4, per_cell=5)
    ctx = run_select(tmp_path, path, per_stratum=2, per_generator=40)
    bench = ctx.read_table("benchmark")
    assert bench.groupby("generator_model").size().to_dict() == {"claude": 40, "gpt": 40}
    per_cell = bench.groupby(["generator_model", "perturbation_class", "intensity"]).size()
    assert per_cell.min() >= 2 and len(per_cell) == 36
    assert (bench["sampling_step"] == "stratum").sum() == 72
    again = run_select(tmp_path / "again", path, per_stratum=2, per_generator=40).read_table("benchmark")
    assert again["id"].tolist() == bench["id"].tolist()


def test_released_schema_round_trip(tmp_path):
    path = synthetic(tmp_path, lambda k: ["PASS"] * 4, per_cell=1)
    ctx = run_select(tmp_path, path, per_stratum=1, per_generator=18)
    bench = ctx.read_table("benchmark")
    jsonl = tmp_path / "run" / "benchmark_released.jsonl"
    loaded = datasets.load_dataset("json", data_files=str(jsonl), split="train")
    assert len(loaded) == len(bench) == 36
    first = loaded[0]
    row = bench.set_index("id").loc[first["id"]]
    assert first["verifier_votes"] == {v: "PASS" for v in VER_KEYS}
    assert first["perturbed_query"] == row.perturbed_query and first["original_answers"] == list(row.original_answers)
    assert first["expected_rag_behavior"] == taxonomy.ground_truth(first["perturbation_class"], first["intensity"])
    from refusalbench.data import load_benchmark

    reloaded = load_benchmark(DatasetConfig(kind="refusalbench_nq", path=str(jsonl))).table
    assert sorted(reloaded["id"]) == sorted(bench["id"])
    pq = datasets.load_dataset(
        "parquet", data_files=str(tmp_path / "run" / "benchmark_released.parquet"), split="train"
    )
    assert sorted(pq["id"]) == sorted(bench["id"])


def test_analysis_and_composition_files(tmp_path):
    path = synthetic(tmp_path, lambda k: ["PASS", "PASS", "FAIL" if k % 2 else "PASS", "PASS"], per_cell=2)
    run_select(tmp_path, path, per_stratum=1, per_generator=18, human=10)
    run = tmp_path / "run"
    comp = pd.read_csv(run / "composition.csv")
    assert len(comp) == 36 and comp["n_generated"].sum() == 72 and comp["n_consensus_pass"].sum() == 36
    assert set(pd.read_csv(run / "composition_levers.csv")["lever_selected"]) == {"L"}
    agree = pd.read_csv(run / "generator_verifier_agreement.csv")
    assert len(agree) == 7 and agree.iloc[-1]["statistic"] == "fleiss"
    matrix = pd.read_csv(run / "generator_verifier_matrix.csv").set_index("generator")
    assert matrix.loc["gpt", "v3"] == 50.0 and matrix.loc["gpt", "v1"] == 100.0
    sheet = pd.read_csv(run / "human_validation.csv")
    assert len(sheet) == 10 and sheet["human_verdict"].isna().all() and "human_refusal_class_correct" in sheet


def test_votes_from_another_panel_rejected(tmp_path):
    from refusalbench.errors import UserError

    path = synthetic(tmp_path, lambda k: ["PASS"] * 4, per_cell=1)
    cfg = make_cfg(tmp_path, {}, {"other": ModelConfig(name="openai/other")})
    cfg.select.candidates = path
    with pytest.raises(UserError, match="verifiers panel"):
        select.run(context_with(cfg, tmp_path / "run"))


def _full(tmp_path, base, verdict):
    def responder(messages, cfg):
        return verdict(messages, cfg) if is_verifier(messages) else generator_reply(messages[0]["content"])

    gens = {
        "gpt": ModelConfig(name="openai/gpt-test", id="gpt-test"),
        "claude": ModelConfig(name="openai/claude-test", id="claude-test"),
    }
    cfg = make_cfg(tmp_path, gens, dict(gens), source=write_base(tmp_path, base))
    ctx = context_with(cfg, tmp_path / "run", ScriptedLayer(responder))
    for stage in (generate, check, verify, select):
        stage.run(ctx)
    return ctx


def test_end_to_end_single_passage(tmp_path):
    # the claude verifier fails every HIGH candidate except FalsePremise ones
    def verdict(messages, cfg):
        prompt = messages[0]["content"]
        return verifier_reply(
            "FAIL" if cfg.id == "claude-test" and "claims HIGH" in prompt and "Why did" not in prompt else "PASS"
        )

    ctx = _full(tmp_path, single_base(), verdict)
    bench = ctx.read_table("benchmark")
    assert set(bench["generator_model"]) == {"gpt", "claude"}
    high = bench[bench.intensity == "HIGH"]
    assert set(high["perturbation_class"]) == {"P-FalsePremise"}
    # per generator: 13 surviving strata x 1, then filled to 18 from the 13 unused passing candidates
    assert bench.groupby("generator_model").size().tolist() == [18, 18]
    assert set(bench["verifier_votes"].map(lambda v: json.loads(v) if isinstance(v, str) else v).map(len)) == {2}
    sc = pd.read_csv(tmp_path / "run" / "generator_verifier_self_cross.csv").set_index("generator")
    assert sc.loc["gpt", "self_rate_pct"] == 100.0 and sc.loc["gpt", "cross_rate_pct"] < 100.0


def test_end_to_end_multi_passage(tmp_path):
    ctx = _full(
        tmp_path, multi_base(), lambda m, c: json.dumps({"verification_result": "PASS", "strategy_compliance": True})
    )
    bench = ctx.read_table("benchmark")
    assert len(bench) == 36 and {"grounding", "signal_indices", "noise_indices", "reference_answer", "query"} <= set(
        bench.columns
    )
    row = bench[(bench.perturbation_class == "P-MissingInfo") & (bench.intensity == "HIGH")].iloc[0]
    assert all("Gustave Eiffel" not in p for p in row.grounding) and len(row.grounding) == 5
    loaded = datasets.load_dataset("json", data_files=str(tmp_path / "run" / "benchmark_released.jsonl"), split="train")
    assert len(loaded[0]["grounding"]) == 5


def test_multi_passage_nq_end_to_end_with_test_server(tmp_path, test_server):
    from refusalbench.context import RunContext
    from tests.support.configs import model_cfg_for
    from tests.support.generation import landmarks_nq_file, server_responder

    test_server.set_responder(server_responder())
    gen = {"gpt": model_cfg_for(test_server, "gpt-test", max_tokens=4000)}
    ver = {"gpt": model_cfg_for(test_server, "gpt-test"), "claude": model_cfg_for(test_server, "claude-test")}
    cfg = make_cfg(tmp_path, gen, ver)
    cfg.dataset = DatasetConfig(
        kind="nq_multi", path=str(landmarks_nq_file(tmp_path, 20)), multi_passage=True, n_base=2
    )
    ctx = RunContext(cfg=cfg, run_dir=tmp_path / "run")
    try:
        for stage in (generate, check, verify, select):
            stage.run(ctx)
    finally:
        ctx.close()
    checked = ctx.read_table("checked")
    assert len(checked) == 36 and checked["check_ok"].all(), checked.loc[~checked.check_ok, "check_reason"].tolist()
    assert len(test_server.requests) == 36 + 72
    bench = ctx.read_table("benchmark")
    assert len(bench) == 18 and bench["grounding"].map(len).eq(10).all()
    from refusalbench.data import load_benchmark

    reloaded = load_benchmark(
        DatasetConfig(kind="refusalbench_garage", path=str(tmp_path / "run" / "benchmark_released.jsonl"))
    ).table
    assert sorted(reloaded["id"]) == sorted(bench["id"])


def test_openai_compatible_preset_runs_the_generate_pipeline(tmp_path, test_server):
    from hydra import compose, initialize_config_dir

    from refusalbench.cli import run_pipeline, validate
    from refusalbench.config import register_configs
    from refusalbench.paths import CONF_DIR
    from tests.support.generation import server_responder

    test_server.set_responder(server_responder())
    register_configs()
    overrides = [
        "experiment=generate_openai_compatible",
        "generators.models.local.name=test-model",
        f"generators.models.local.api_base={test_server.url}",
        "dataset.n_base=1",
        f"cache.dir={tmp_path / 'cache'}",
    ]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = validate(compose(config_name="config", overrides=overrides))
    ctx = run_pipeline(cfg, tmp_path / "run")
    assert len(test_server.requests) == 18 + 18
    assert {r["temperature"] for r in test_server.requests[:18]} == {0.1}
    assert len(ctx.read_table("benchmark")) == 18
    assert (tmp_path / "run" / "human_validation.csv").exists() and "benchmark_released" in ctx.outputs


def test_nothing_passes_gives_an_empty_benchmark(tmp_path):
    def responder(messages, cfg):
        if is_verifier(messages):
            return verifier_reply()
        return json.dumps(
            {
                "perturbed_query": "same",
                "perturbed_context": "same",
                "lever_selected": "nope",
                "implementation_reasoning": "",
            }
        )

    gens = {"gpt": ModelConfig(name="openai/gpt-test", id="gpt-test")}
    cfg = make_cfg(tmp_path, gens, dict(gens), source=write_base(tmp_path, single_base()))
    ctx = context_with(cfg, tmp_path / "run", ScriptedLayer(responder))
    for stage in (generate, check, verify, select):
        stage.run(ctx)
    assert not ctx.read_table("checked")["check_ok"].any()
    assert ctx.read_table("benchmark").empty
    assert pd.read_csv(tmp_path / "run" / "composition.csv")["n_selected"].sum() == 0
    for stage in (verify, select):  # a rerun on the empty votes table
        stage.run(ctx)


@pytest.mark.parametrize("dataset", ["nq_sample", "nq_multi"])
def test_smoke_preset_programmatic_and_structural(tmp_path, dataset):
    from hydra import compose, initialize_config_dir

    from refusalbench.cli import run_pipeline, validate
    from refusalbench.config import register_configs
    from refusalbench.paths import CONF_DIR

    register_configs()
    overrides = [
        "experiment=smoke",
        "pipeline=generate",
        f"dataset={dataset}",
        "dataset.n_base=6",
        f"cache.dir={tmp_path / 'cache'}",
    ]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = validate(compose(config_name="config", overrides=overrides))
    ctx = run_pipeline(cfg, tmp_path / "run")
    checked = ctx.read_table("checked")
    ok = checked[checked["generation_ok"]]
    # 6 questions of the 17 bundled ones whose source is supported: the rule-based cells decline most of the 108
    # cells (3 items each)
    assert len(checked) == 108 and len(ok) >= 2 and ok["check_ok"].all()
    assert set(checked.loc[~checked["generation_ok"], "generation_failure_kind"]) <= {"not_applicable"}
    votes = ctx.read_table("votes")
    assert set(votes["verdict_reason"]) == {"structural"} and len(votes) == len(ok)
    bench = ctx.read_table("benchmark")
    assert len(bench) == min(18, len(ok)) and ("grounding" in bench) == (dataset == "nq_multi")
