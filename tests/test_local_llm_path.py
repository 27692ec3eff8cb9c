"""The LLM path offline: `generators=local verifiers=local judge=local` run every role on the embedded model.

The fast tests put the test server in the embedded server's place (the layer's server start is replaced by
one that points at it), so they check the configs, one shared server for every role, the re-ask of an
unparseable reply and the recorded unscored votes; the slow test runs the real embedded model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from hydra import compose, initialize_config_dir

from refusalbench.cli import run_pipeline, validate
from refusalbench.config import register_configs
from refusalbench.llm.routing import server_identity
from refusalbench.paths import CONF_DIR
from tests.support.generation import generator_reply, is_verifier, verifier_reply

register_configs()
LOCAL = ["generators=local", "verifiers=local", "judge=local"]
FULL_PROMPTS = ["generators.prompts=full", "verifiers.prompts=full"]  # the paper-style templates the fakes read


def compose_local(*overrides: str):
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return validate(compose("config", overrides=[*LOCAL, *overrides]))


def role_models(cfg) -> dict:
    return {
        "generator": cfg.generators.models["local"],
        "verifier": cfg.verifiers.models["local"],
        "judge": cfg.judge.model,
        "evaluated": cfg.model,
    }


def test_every_role_uses_the_embedded_model_and_one_server():
    cfg = compose_local()
    models = role_models(cfg)
    assert {m.backend for m in models.values()} == {"embedded"}
    roles = [models[r] for r in ("generator", "verifier", "judge")]
    assert {m.threads for m in roles} == {1}  # one thread: two wait on each other on a shared CPU
    assert len({server_identity(m) for m in roles}) == 1
    # the evaluated model joins that server when it runs on one thread as well
    same = role_models(compose_local("model.threads=1"))
    assert len({server_identity(m) for m in same.values()}) == 1
    assert cfg.judge.kind == "llm" and cfg.generators.lever_assignment == "llm_choice"
    assert models["generator"].max_tokens > models["evaluated"].max_tokens  # room to rewrite the whole context


class StandInServer:
    """What `start_managed` returns, pointing at the test server instead of a llama.cpp child process."""

    def __init__(self, url: str) -> None:
        self.api_base, self.served_name, self.stopped = url, "stand-in", False

    def stop(self) -> None:
        self.stopped = True


def responder(garbled_generation: str, garbled_verification: str):
    """Generator, verifier, judge and evaluated-model replies; the first reply to a generator (verifier) prompt
    holding `garbled_generation` (`garbled_verification`) is prose, not JSON."""

    def respond(body: dict) -> str:
        messages = body["messages"]
        prompt = messages[0]["content"]
        mark = garbled_verification if is_verifier(messages) else garbled_generation
        if len(messages) == 1 and mark in prompt:
            return "I think the answer is fine."
        if is_verifier(messages):
            return verifier_reply("PASS")
        if "perturbation generator" in prompt:
            return generator_reply(prompt)
        if "You grade one response" in prompt:
            return json.dumps({"classification": "answer_attempt", "quality_score": 5, "explanation": "matches"})
        return "Peking"

    return respond


def test_generate_verify_judge_run_through_one_embedded_server(tmp_path, test_server, monkeypatch):
    starts = []

    def start_managed(model_cfg, log_dir=None):
        starts.append(model_cfg.id)
        return StandInServer(test_server.url)

    monkeypatch.setattr("refusalbench.llm.managed.start_managed", start_managed)
    # every LOW generation and every verification of a MissingInfo item is first answered with prose
    test_server.set_responder(responder("at LOW intensity", "P-MissingInfo perturbation that claims"))
    cfg = compose_local(
        "dataset.n_base=1",
        f"cache.dir={tmp_path / 'cache'}",
        "tracking=off",
        "pipeline.stages=[generate,check,verify,select,evaluate,judge]",
        "model.threads=1",
        *FULL_PROMPTS,
    )
    ctx = run_pipeline(cfg, tmp_path / "run")

    assert starts == ["local-qwen2.5-0.5b"]  # one server for generator, verifier, evaluated model and judge
    candidates = ctx.read_table("candidates")
    assert len(candidates) == 18 and candidates["generation_ok"].all()
    low = candidates["intensity"] == "LOW"
    assert (candidates.loc[low, "gen_attempts"] == 2).all() and (candidates.loc[~low, "gen_attempts"] == 1).all()
    votes = ctx.read_table("votes").merge(candidates[["candidate_id", "perturbation_class"]], on="candidate_id")
    assert set(votes["verifier"]) == {"local"} and (votes["verdict"] == "PASS").all()
    missing = votes["perturbation_class"] == "P-MissingInfo"
    assert missing.any() and (votes.loc[missing, "ver_attempts"] == 2).all()
    assert (votes.loc[~missing, "ver_attempts"] == 1).all()
    labels = ctx.read_table("labels")
    assert len(labels) == len(ctx.read_table("benchmark")) > 0
    usage = json.loads((tmp_path / "run" / "usage.json").read_text())
    assert {"generator", "verifier", "evaluated", "judge"} <= set(json.dumps(usage).replace('"', " ").split())


def test_an_unparseable_verifier_reply_is_reasked_then_unscored(tmp_path, test_server, monkeypatch):
    monkeypatch.setattr(
        "refusalbench.llm.managed.start_managed", lambda cfg, log_dir=None: StandInServer(test_server.url)
    )

    def respond(body: dict) -> str:
        messages = body["messages"]
        if is_verifier(messages):
            if "P-Ambiguity perturbation that claims" in messages[0]["content"]:
                return "PASS, looks good"
            return verifier_reply("FAIL")
        return generator_reply(messages[0]["content"])

    test_server.set_responder(respond)
    cfg = compose_local(
        "dataset.n_base=1",
        f"cache.dir={tmp_path / 'cache'}",
        "tracking=off",
        "pipeline.stages=[generate,check,verify]",
        *FULL_PROMPTS,
    )
    votes = run_pipeline(cfg, tmp_path / "run").read_table("votes")
    checked = pd.read_parquet(tmp_path / "run" / "checked.parquet")
    ambiguity = votes["candidate_id"].isin(checked.loc[checked["perturbation_class"] == "P-Ambiguity", "candidate_id"])
    assert ambiguity.any() and (votes.loc[ambiguity, "verdict"] == "UNSCORED").all()
    assert (votes.loc[ambiguity, "ver_attempts"] == 2).all()
    assert (votes.loc[ambiguity, "verify_failure_kind"] == "parse").all()
    assert (votes.loc[~ambiguity, "verdict"] == "FAIL").all()


@pytest.mark.slow
def test_generate_on_the_real_embedded_model(tmp_path):
    """`refusalbench generators=local verifiers=local pipeline=generate` end to end on one short question."""
    base = pd.DataFrame(
        [
            {
                "source_id": "escoffier",
                "query": "who developed the classic kitchen brigade",
                "answers": ["Georges Auguste Escoffier"],
                "context": "The concept was developed by Georges Auguste Escoffier. This structured team "
                "system delegates responsibilities to individuals who specialize in tasks.",
            }
        ]
    )
    base.to_parquet(tmp_path / "base.parquet")
    # the presets' own settings: compact prompts, one llama.cpp thread for both roles (one shared server)
    cmd = [
        sys.executable,
        "-m",
        "refusalbench",
        "generators=local",
        "verifiers=local",
        "pipeline=generate",
        f"generate.source={tmp_path / 'base.parquet'}",
        f"hydra.run.dir={tmp_path / 'run'}",
        f"cache.dir={tmp_path / 'cache'}",
        "tracking=off",
    ]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=3600, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = tmp_path / "run"
    candidates = pd.read_parquet(run / "candidates.parquet")
    assert len(candidates) == 18
    assert candidates["generation_failure_kind"].isin([None, "parse"]).all()  # replies, never call failures
    assert candidates["gen_raw_output"].str.len().gt(0).all()
    assert candidates["prompt_version"].str.startswith("generator_nq_compact@").all()
    votes = pd.read_parquet(run / "votes.parquet")
    checked = pd.read_parquet(run / "checked.parquet")
    assert len(votes) == int(checked["check_ok"].sum())
    assert votes["verdict"].isin(["PASS", "FAIL", "UNSCORED"]).all() and (votes["verify_failure_kind"] != "call").all()
    # one server for both roles (none of its own when another process on the machine already serves the model)
    assert len(list(Path(run).glob("refusalbench-embedded-*.log"))) <= 1
