"""The generate stage with a scripted model: parsing, re-ask, lever rules, ground truth, multi-passage, resume."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from refusalbench import taxonomy
from refusalbench.config import ModelConfig
from refusalbench.errors import UserError
from refusalbench.stages import generate
from tests.support.generation import (
    ScriptedLayer,
    context_with,
    generator_reply,
    levers_of,
    make_cfg,
    multi_base,
    single_base,
    write_base,
)

GEN = {"gpt": ModelConfig(name="openai/gpt-test", id="gpt-test", max_retries=0)}


def run_generate(tmp_path, responder, base=None, generators=GEN, **panel):
    cfg = make_cfg(
        tmp_path, dict(generators), {}, source=write_base(tmp_path, single_base() if base is None else base), **panel
    )
    layer = ScriptedLayer(responder)
    ctx = context_with(cfg, tmp_path / "run", layer)
    generate.run(ctx)
    return ctx.read_table("candidates"), layer


def good(messages, model_cfg):
    return generator_reply(messages[0]["content"])


def test_valid_json_all_cells(tmp_path):
    df, layer = run_generate(tmp_path, good)
    assert len(df) == 2 * 18 and len(layer.requests) == 36
    assert df["generation_ok"].all() and df["candidate_id"].is_unique
    assert set(zip(df.perturbation_class, df.intensity)) == set(taxonomy.cells())
    row = df[(df.perturbation_class == "P-FalsePremise") & (df.intensity == "HIGH")].iloc[0]
    assert row.expected_rag_behavior == "REFUSE_FALSE_PREMISE_IN_QUERY"
    assert row.perturbed_query.startswith("Why did") and row.perturbed_context == row.original_context
    assert row.generator == "gpt" and row.generator_model_full == "openai/gpt-test"
    assert list(row.original_answers) == ["Gustave Eiffel"]
    spec = layer.requests[0][1]
    assert spec.response_format == "json" and spec.template_version.startswith("generator_nq@")
    assert (tmp_path / "run" / "base.parquet").exists()


def test_invalid_then_valid_after_reask(tmp_path):
    def responder(messages, cfg):
        if len(messages) == 1:
            return "Sorry, I will think about it {not json"
        assert messages[1]["role"] == "assistant" and "JSON object" in messages[2]["content"]
        return generator_reply(messages[0]["content"])

    df, layer = run_generate(tmp_path, responder)
    assert df["generation_ok"].all()
    assert len(layer.requests) == 72 and (df["gen_attempts"] == 2).all()


def test_still_invalid_is_recorded(tmp_path):
    df, layer = run_generate(tmp_path, lambda m, c: "no json at all")
    assert not df["generation_ok"].any() and (df["generation_failure_kind"] == "parse").all()
    assert df["generation_error"].str.contains("no JSON object").all()
    assert len(layer.requests) == 72  # one re-ask each, then recorded


def test_wrong_lever_is_reasked_with_the_allowed_list(tmp_path):
    seen = []

    def responder(messages, cfg):
        if len(messages) == 1:
            return generator_reply(messages[0]["content"], lever="Invented Lever")
        seen.append(messages[2]["content"])
        return generator_reply(messages[0]["content"])

    df, _ = run_generate(tmp_path, responder)
    assert df["generation_ok"].all()
    assert '"Invented Lever"' in seen[0] and "not one of the allowed levers" in seen[0]


def test_ground_truth_by_rule_echo_recorded(tmp_path):
    df, _ = run_generate(tmp_path, lambda m, c: generator_reply(m[0]["content"], echo="ANSWER_CORRECTLY"))
    high = df[df.intensity == "HIGH"]
    assert (high["expected_rag_behavior"] != "ANSWER_CORRECTLY").all()
    assert high["expected_echo_disagrees"].all() and (high["model_expected_echo"] == "ANSWER_CORRECTLY").all()
    assert not df[df.intensity == "LOW"]["expected_echo_disagrees"].any()


def test_round_robin_balanced_and_only_assigned_lever_shown(tmp_path):
    base = pd.concat(
        [single_base().assign(source_id=lambda d, k=k: d.source_id + f"-{k}") for k in range(10)], ignore_index=True
    )
    shown = []

    def responder(messages, cfg):
        shown.append(levers_of(messages[0]["content"]))
        return generator_reply(messages[0]["content"])

    df, _ = run_generate(tmp_path, responder, base=base, lever_assignment="round_robin")
    assert all(len(s) == 1 for s in shown)
    cell = df[(df.perturbation_class == "P-Contradiction") & (df.intensity == "LOW")]  # 8 levers, 20 items
    counts = cell["lever_selected"].value_counts()
    assert len(counts) == 8 and counts.max() - counts.min() <= 1
    assert (df["lever_selected"] == df["lever_assigned"]).all()


def test_fixed_lever(tmp_path):
    df, _ = run_generate(tmp_path, good, lever_assignment="fixed", fixed_lever="Balanced Polysemy")
    assert len(df) == 2 and set(df["lever_selected"]) == {"Balanced Polysemy"}
    with pytest.raises(UserError, match="not a lever of any"):
        run_generate(tmp_path, good, lever_assignment="fixed", fixed_lever="Nope")


def test_temperature_override(tmp_path):
    _, layer = run_generate(tmp_path, good, temperature=0.1)
    assert layer.requests[0][0].temperature == 0.1


def test_multi_passage_label_convention(tmp_path):
    def responder(messages, cfg):
        prompt = messages[0]["content"]
        reply = json.loads(generator_reply(prompt, fence=False))
        if "P-Ambiguity perturbation at MEDIUM" in prompt:
            reply["perturbed_query"] = json.loads(generator_reply(prompt, fence=False))["perturbed_query"]
            reply["perturbed_signal_passages"] = [{"passage": "S2", "perturbed_text": "EDITED S2"}]
        return json.dumps(reply)

    df, _ = run_generate(tmp_path, responder, base=multi_base())
    assert df["generation_ok"].all()
    row = df[(df.perturbation_class == "P-Ambiguity") & (df.intensity == "MEDIUM")].iloc[0]
    # signal_indices = [3, 1]: S2 is the second signal passage, stored at index 1
    assert list(row.perturbed_passages) == [p if i != 1 else "EDITED S2" for i, p in enumerate(row.original_passages)]
    assert list(row.edited_passages) == ["S2"]
    contra = df[(df.perturbation_class == "P-Contradiction") & (df.intensity == "HIGH")].iloc[0]
    assert contra.perturbed_passages[0] != contra.original_passages[0]  # N1 = noise_indices[0] = 0


def test_multi_unknown_label_reasked(tmp_path):
    def responder(messages, cfg):
        reply = json.loads(generator_reply(messages[0]["content"], fence=False))
        if len(messages) == 1:
            reply["perturbed_signal_passages"] = [{"passage": "S9", "perturbed_text": "x"}]
        return json.dumps(reply)

    df, layer = run_generate(tmp_path, responder, base=multi_base())
    assert df["generation_ok"].all() and len(layer.requests) == 72


def test_resume_skips_finished_and_redoes_call_failures(tmp_path):
    calls = {"n": 0}

    def flaky(messages, cfg):
        calls["n"] += 1
        return RuntimeError("server down") if calls["n"] % 3 == 0 else good(messages, cfg)

    first, layer1 = run_generate(tmp_path, flaky)
    failed = int((first["generation_failure_kind"] == "call").sum())
    assert failed == 12 and len(layer1.requests) == 36
    second, layer2 = run_generate(tmp_path, good)
    assert len(layer2.requests) == failed and second["generation_ok"].all()
    third, layer3 = run_generate(tmp_path, good)
    assert len(layer3.requests) == 0 and len(third) == 36


def test_resume_after_interruption(tmp_path, monkeypatch):
    monkeypatch.setattr(generate, "CHUNK", 10)
    state = {"n": 0}

    def dies(messages, cfg):
        state["n"] += 1
        if state["n"] > 20:
            raise KeyboardInterrupt
        return good(messages, cfg)

    with pytest.raises(KeyboardInterrupt):
        run_generate(tmp_path, dies)
    partial = pd.read_parquet(tmp_path / "run" / "candidates.parquet")
    assert len(partial) == 20
    df, layer = run_generate(tmp_path, good)
    assert len(layer.requests) == 16 and len(df) == 36


def test_every_call_failing_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="Every generation call failed"):
        run_generate(tmp_path, lambda m, c: RuntimeError("AuthenticationError: bad key"))
    assert (tmp_path / "run" / "candidates.parquet").exists()


def test_structural_generator_rejected(tmp_path):
    with pytest.raises(UserError, match="structural"):
        run_generate(tmp_path, good, generators={"s": ModelConfig(name="structural", backend="structural")})


def _fake_perturb(multi_style):
    import types

    def generate_programmatic(base_row, perturbation_class, intensity, seed, catalogue, multi_passage, lever=None):
        names = [lv.name for lv in catalogue.levers(perturbation_class, intensity)]
        out = {
            "lever_selected": lever or names[seed % len(names)],
            "implementation_reasoning": "rule",
            "perturbed_query": base_row["query"] + " exactly?",
        }
        if not multi_passage:
            out["perturbed_context"] = base_row["context"]
        elif multi_style == "full":
            out["perturbed_passages"] = list(base_row["passages"])
            out["perturbed_passages"][base_row["signal_indices"][1]] = "rewritten second signal"
        else:
            out["perturbed_passages"] = [{"passage": "S2", "perturbed_text": "rewritten second signal"}]
        return out

    def implemented_levers(cls, intensity, multi=False):
        return ["Invented Lever", "Balanced Polysemy"]

    pool_type = types.SimpleNamespace(from_base=lambda base: None)
    return types.SimpleNamespace(
        generate_programmatic=generate_programmatic,
        implemented_levers=implemented_levers,
        DistractorPool=pool_type,
        code_fingerprint=lambda: "fake-rules",
    )


@pytest.mark.parametrize("style", ["full", "labels"])
def test_programmatic_generator_adapter(tmp_path, monkeypatch, style):
    import sys

    monkeypatch.setitem(sys.modules, "refusalbench.perturb", _fake_perturb(style))
    gens = {"programmatic": ModelConfig(name="programmatic", backend="programmatic")}
    df, layer = run_generate(tmp_path, good, base=multi_base(), generators=gens, lever_assignment="round_robin")
    assert layer.requests == [] and df["generation_ok"].all()
    assert (df["lever_selected"] == df["lever_assigned"]).all()
    row = df.iloc[0]
    assert row.perturbed_passages[1] == "rewritten second signal" and list(row.edited_passages) == ["S2"]
    assert row.prompt_version.startswith("programmatic+levers:")


def test_programmatic_lever_error_is_recorded_per_item(tmp_path, monkeypatch, caplog):
    import sys

    fake = _fake_perturb("full")
    good_lever = fake.generate_programmatic

    def sometimes_broken(base_row, perturbation_class, intensity, seed, catalogue, multi_passage, lever=None):
        if perturbation_class == "P-Contradiction":
            raise IndexError("list index out of range")
        return good_lever(base_row, perturbation_class, intensity, seed, catalogue, multi_passage, lever)

    fake.generate_programmatic = sometimes_broken
    monkeypatch.setitem(sys.modules, "refusalbench.perturb", fake)
    gens = {"programmatic": ModelConfig(name="programmatic", backend="programmatic")}
    df, _ = run_generate(tmp_path, good, generators=gens, lever_assignment="round_robin")
    broken = df["perturbation_class"] == "P-Contradiction"
    assert broken.any() and df.loc[~broken, "generation_ok"].all()
    assert set(df.loc[broken, "generation_failure_kind"]) == {"lever_error"}
    assert df.loc[broken, "generation_error"].str.contains("IndexError").all()
    assert "lever error" in caplog.text


def test_resume_redoes_programmatic_rows_made_by_other_rules(tmp_path, monkeypatch):
    import sys

    fake = _fake_perturb("full")
    made = {"n": 0}
    make = fake.generate_programmatic

    def counted(base_row, perturbation_class, intensity, *args, **kwargs):
        made["n"] += 1
        out = make(base_row, perturbation_class, intensity, *args, **kwargs)
        return dict(out, perturbed_query=f"{out['perturbed_query']} ({intensity})")  # no text repeats across cells

    fake.generate_programmatic = counted
    monkeypatch.setitem(sys.modules, "refusalbench.perturb", fake)
    gens = {"programmatic": ModelConfig(name="programmatic", backend="programmatic")}
    first, _ = run_generate(tmp_path, good, generators=gens)
    assert (first["generator_code"] == "fake-rules").all()
    calls = made["n"]
    run_generate(tmp_path, good, generators=gens)
    assert made["n"] == calls  # the same rules: every row is reused
    fake.code_fingerprint = lambda: "changed-rules"
    third, _ = run_generate(tmp_path, good, generators=gens)
    assert made["n"] == 2 * calls == 2 * len(third) and (third["generator_code"] == "changed-rules").all()
    assert third["candidate_id"].tolist() == first["candidate_id"].tolist()  # ids (and so seeds) stay


# --- with the real model-call layer and the OpenAI-compatible test server ---------------------------


def _server_ctx(tmp_path, test_server, run="run", **model_kw):
    from refusalbench.context import RunContext
    from tests.support.configs import model_cfg_for
    from tests.support.generation import make_cfg

    gens = {"gpt": model_cfg_for(test_server, "gpt-test", max_tokens=2000, **model_kw)}
    cfg = make_cfg(tmp_path, gens, {}, source=write_base(tmp_path, single_base()))
    return RunContext(cfg=cfg, run_dir=tmp_path / run)


def _run(ctx):
    try:
        generate.run(ctx)
    finally:
        ctx.close()
    return ctx.read_table("candidates")


def test_server_reask_and_resume_repeat_no_request(tmp_path, test_server):
    from tests.support.generation import server_responder

    respond = server_responder()
    test_server.set_responder(lambda body: respond(body) if len(body["messages"]) > 1 else "```json\n{broken\n```")
    df = _run(_server_ctx(tmp_path, test_server))
    assert df["generation_ok"].all() and len(test_server.requests) == 72
    reask = test_server.requests[-1]["messages"]  # re-asks go out after the first round
    assert [m["role"] for m in reask] == ["user", "assistant", "user"]
    n = len(test_server.requests)
    again = _run(_server_ctx(tmp_path, test_server))  # finished work is skipped
    assert len(test_server.requests) == n and again.equals(df)
    (tmp_path / "run" / "candidates.parquet").unlink()  # interrupted before the table was written
    rebuilt = _run(_server_ctx(tmp_path, test_server))
    assert len(test_server.requests) == n  # every call comes from the cache
    assert rebuilt["candidate_id"].tolist() == df["candidate_id"].tolist() and rebuilt["gen_cached"].all()


def test_server_call_failures_are_retried_on_rerun(tmp_path, test_server):
    from tests.support.generation import server_responder

    respond = server_responder()
    down = {"on": True}
    test_server.set_responder(
        lambda body: (
            {"status": 503, "message": "overloaded"}
            if down["on"] and "P-Contradiction" in body["messages"][0]["content"]
            else respond(body)
        )
    )
    df = _run(_server_ctx(tmp_path, test_server, max_retries=0))
    failed = df["generation_failure_kind"] == "call"
    assert failed.sum() == 6 and df.loc[failed, "generation_error"].str.contains("call failed").all()
    down["on"] = False
    before = len(test_server.requests)
    df2 = _run(_server_ctx(tmp_path, test_server, max_retries=0))
    assert len(test_server.requests) - before == 6 and df2["generation_ok"].all()


def test_a_programmatic_item_s_seed_does_not_depend_on_the_catalogue():
    from refusalbench.generation.tasks import Task
    from refusalbench.stages.generate import programmatic_seed

    def task(candidate_id, prompt_version, source="s1"):
        return Task(candidate_id, source, "P-MissingInfo", "LOW", "programmatic", None, [], prompt_version, {})

    # a catalogue edit changes the prompt version and so every candidate id, but not the seeded choices
    assert programmatic_seed(42, task("a", "programmatic+levers:1111")) == programmatic_seed(
        42, task("b", "programmatic+levers:2222")
    )
    assert programmatic_seed(42, task("a", "v")) != programmatic_seed(42, task("a", "v", source="s2"))
    assert programmatic_seed(42, task("a", "v")) != programmatic_seed(7, task("a", "v"))
