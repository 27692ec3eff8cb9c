"""The verify stage: structured votes, re-ask, UNSCORED (never PASS/FAIL) on failure, structural verifier, resume."""

from __future__ import annotations

import json

from refusalbench.config import ModelConfig
from refusalbench.stages import check, generate, verify
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

GEN = {"gpt": ModelConfig(name="openai/gpt-test", id="gpt-test")}
VER = {
    "gpt": ModelConfig(name="openai/gpt-test", id="gpt-test"),
    "claude": ModelConfig(name="openai/claude-test", id="claude-test"),
}


def pipeline(tmp_path, verifier, verifiers=VER, base=None, layer=None, **panel):
    def responder(messages, cfg):
        return verifier(messages, cfg) if is_verifier(messages) else generator_reply(messages[0]["content"])

    cfg = make_cfg(
        tmp_path, GEN, dict(verifiers), source=write_base(tmp_path, base if base is not None else single_base())
    )
    if "temperature" in panel:
        cfg.verifiers.temperature = panel["temperature"]
    layer = layer or ScriptedLayer(responder)
    ctx = context_with(cfg, tmp_path / "run", layer)
    for stage in (generate, check, verify):
        stage.run(ctx)
    return ctx.read_table("votes"), layer


def verifier_calls(layer):
    return [r for r in layer.requests if r[2] == "verifier"]


def test_votes_for_every_checked_candidate_and_verifier(tmp_path):
    votes, layer = pipeline(tmp_path, lambda m, c: verifier_reply("PASS"))
    assert len(votes) == 36 * 2 and set(votes["verdict"]) == {"PASS"}
    assert votes["lever_correctly_implemented"].all()
    calls = verifier_calls(layer)
    assert all(c[0].temperature == 0.0 for c in calls) and calls[0][1].response_format == "json"
    assert calls[0][1].template_version.startswith("verifier_nq@")
    prompt = calls[0][1].messages[0]["content"]
    assert '"perturbed_context"' in prompt and '"lever_selected"' in prompt


def test_panel_temperature_used(tmp_path):
    _, layer = pipeline(tmp_path, lambda m, c: verifier_reply(), temperature=0.3)
    assert {c[0].temperature for c in verifier_calls(layer)} == {0.3}


def test_invalid_then_valid_after_reask(tmp_path):
    def verifier(messages, cfg):
        return "I think it passes." if len(messages) == 1 else verifier_reply("FAIL")

    votes, layer = pipeline(tmp_path, verifier)
    assert set(votes["verdict"]) == {"FAIL"} and (votes["ver_attempts"] == 2).all()


def test_parse_failure_is_unscored_with_reason(tmp_path):
    votes, _ = pipeline(tmp_path, lambda m, c: '{"verification_result": "probably"}')
    assert set(votes["verdict"]) == {"UNSCORED"}
    assert votes["verdict_reason"].str.contains("PASS").all() and (votes["verify_failure_kind"] == "parse").all()


def test_call_failure_unscored_then_retried(tmp_path):
    state = {"n": 0}

    def flaky(messages, cfg):
        state["n"] += 1
        return RuntimeError("timeout") if cfg.id == "claude-test" else verifier_reply()

    votes, _ = pipeline(tmp_path, flaky)
    assert (votes[votes.verifier == "claude"]["verdict"] == "UNSCORED").all()
    assert (votes[votes.verifier == "gpt"]["verdict"] == "PASS").all()
    votes2, layer2 = pipeline(tmp_path, lambda m, c: verifier_reply())
    assert len(verifier_calls(layer2)) == 36 and len(layer2.requests) == 36  # only the failed votes; no generation
    assert set(votes2["verdict"]) == {"PASS"}
    _, layer3 = pipeline(tmp_path, lambda m, c: verifier_reply())
    assert layer3.requests == []


def test_structural_verifier_calls_nothing(tmp_path):
    votes, layer = pipeline(
        tmp_path,
        lambda m, c: verifier_reply(),
        verifiers={"structural": ModelConfig(name="structural", backend="structural")},
    )
    assert verifier_calls(layer) == []
    assert set(votes["verdict"]) == {"PASS"} and set(votes["verdict_reason"]) == {"structural"}


def test_multi_passage_verifier_sees_labels(tmp_path):
    votes, layer = pipeline(
        tmp_path,
        lambda m, c: json.dumps({"verification_result": "PASS", "strategy_compliance": True}),
        base=multi_base(),
    )
    prompts = [c[1].messages[0]["content"] for c in verifier_calls(layer)]
    assert all("strategy_compliance" in p for p in prompts)
    contra = [p for p in prompts if "P-Contradiction perturbation of a multi-passage example that claims HIGH" in p][0]
    assert '"passage": "N1"' in contra and '"perturbed_signal_passages": []' in contra
    assert votes["strategy_compliance"].all()
